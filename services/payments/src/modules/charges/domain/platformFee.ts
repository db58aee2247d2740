import { errors } from '@platform/kit';
import { BASIS_POINTS, type PaymentType, type PlatformFeeDetails, type SplitRule } from './charge';

/** The platform's fee on a split charge, from the merchant's rules. */

export interface FeeRule {
  percentage?: number;
  fixedAmount?: number;
  paymentMethod: string;
  installment?: number;
}

/**
 * The fee rule for a charge: the payment method's rule for this number of installments, else the payment
 * method's rule without installments, else the `default` rule likewise.
 */
export function matchingFeeRule(rules: FeeRule[], paymentType: PaymentType, installments: number): FeeRule | undefined {
  for (const method of [paymentType, 'default']) {
    const forMethod = rules.filter((r) => r.paymentMethod === method);
    const exact = forMethod.find((r) => r.installment === installments);
    if (exact) return exact;
    const general = forMethod.find((r) => r.installment === undefined || r.installment === null);
    if (general) return general;
  }
  return undefined;
}

/** Only charges with split rules pay the platform fee, and only when the merchant enabled it. */
export function platformFeeFor(
  merchant: { platformFeeEnabled: boolean; platformFeeRules: FeeRule[] },
  charge: { amount: number; paymentType: PaymentType; installments: number; splitRules: SplitRule[] },
): PlatformFeeDetails | null {
  if (!merchant.platformFeeEnabled || charge.splitRules.length === 0) return null;
  const rule = matchingFeeRule(merchant.platformFeeRules, charge.paymentType, charge.installments);
  if (!rule) return null;
  const percentagePart = rule.percentage ? Number((BigInt(charge.amount) * BigInt(rule.percentage)) / BigInt(BASIS_POINTS)) : 0;
  const amount = percentagePart + (rule.fixedAmount ?? 0);
  if (amount > charge.amount) {
    throw errors.businessRule('platform_fee_exceeds_amount', 'The platform fee would be larger than the charge amount');
  }
  return {
    amount,
    ...(rule.percentage !== undefined && rule.percentage !== null ? { percentage: rule.percentage } : {}),
    ...(rule.fixedAmount !== undefined && rule.fixedAmount !== null ? { fixedAmount: rule.fixedAmount } : {}),
  };
}
