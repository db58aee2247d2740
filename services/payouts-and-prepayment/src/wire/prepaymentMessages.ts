import { payouts } from '@platform/contracts';
import { CALENDAR_NAME } from '../domain/calendar';
import { FEE_CONVENTION, type Prepayment } from '../domain/prepayment';

export function toPrepaymentMessage(p: Prepayment): payouts.Prepayment {
  return payouts.Prepayment.fromPartial({
    id: p.id,
    clientId: p.clientId,
    sellerId: p.receiver ?? '',
    status: p.status,
    grossAmount: p.grossAmount,
    netAmount: p.netAmount,
    feeAmount: p.feeAmount,
    monthlyRate: p.monthlyRate,
    expiresAt: p.expiresAt,
    paymentDate: p.paymentDate,
    calendar: CALENDAR_NAME,
    feeConvention: FEE_CONVENTION,
    items: p.items.map((i) => ({
      receivableId: i.receivableId,
      settlementDate: i.settlementDate,
      paymentArrangement: i.paymentArrangement,
      amount: i.amount,
      days: i.days,
      feeAmount: i.fee,
      netAmount: i.net,
    })),
    createdAt: p.createdAt,
    ...(p.committedAt ? { committedAt: p.committedAt } : {}),
  });
}
