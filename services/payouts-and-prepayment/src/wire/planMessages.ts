import { payouts } from '@platform/contracts';
import { PAYMENT_TYPES, type PaymentType, type Plan } from '../domain/plan';

export function toPlanMessage(plan: Plan): payouts.Plan {
  return payouts.Plan.fromPartial({
    id: plan.id,
    clientId: plan.clientId,
    name: plan.name,
    isDefault: plan.isDefault,
    fees: plan.fees.map((f) => ({ ...f })),
    settlementDays: { ...plan.settlementDays },
    prepaymentMonthlyRate: plan.prepaymentMonthlyRate,
    createdAt: plan.createdAt,
    updatedAt: plan.updatedAt,
  });
}

/** The settlement days a request names, with the ones it leaves out absent. */
export function settlementDaysOf(input: payouts.SettlementDaysInput | undefined): Partial<Record<PaymentType, number>> {
  if (!input) return {};
  const days: Partial<Record<PaymentType, number>> = {};
  for (const type of PAYMENT_TYPES) {
    const value = input[type];
    if (value !== undefined) days[type] = value;
  }
  return days;
}
