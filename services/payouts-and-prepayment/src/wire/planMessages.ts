import { payouts } from '@platform/contracts';
import type { PaymentType, Plan } from '../domain/plan';

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
  for (const type of ['credit', 'debit', 'pix', 'boleto', 'voucher'] as const) {
    const value = input[type];
    if (value !== undefined) days[type] = value;
  }
  return days;
}
