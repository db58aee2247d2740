import { randomUUID } from 'node:crypto';
import type { Queryable } from '@platform/kit';
import { capturePosting, refundPosting } from '../domain/ledger';
import { PAYMENT_TYPES, type PaymentType, type Plan } from '../domain/plan';
import { buildReceivables, type SplitRuleInput } from '../domain/receivables';
import { planRefundParts, refundParts, type OpenReceivable, type RefundPart, type RefundRequest } from '../domain/refunds';
import type { Receivable } from '../store/ledgerStore';
import { OWN_PROVIDERS, type PayoutsDeps } from './deps';
import { planOfReceiver } from './planOfReceiver';

/** The part of a `payments.charge.*` event's data (the public charge) the ledger reads. */
export interface ChargeEventData {
  id: string;
  status: string;
  amount: number;
  capturedAmount: number;
  refundedAmount: number;
  providerType: string | null;
  paymentMethod: { paymentType: string; installments?: number | null } | null;
  splitRules?: Array<{ sellerId: string; percentage?: number | null; amount?: number | null }> | null;
  /** The charge's requests; its successful refunds, with their own split rules, say how each refund is shared. */
  transactionRequests?: RefundRequestData[] | null;
}

/** The part of a transaction request of a charge event the ledger reads (it only looks at successful refunds). */
export interface RefundRequestData {
  id: string;
  requestType: string;
  requestStatus: string;
  amount: number;
  /** How the refund is taken from the split receivers, when the client said so. */
  splitRules?: Array<{ sellerId: string; amount: number | null }> | null;
  updatedAt?: string | null;
}

/** The successful refunds of a charge event, each with its own split (seller ids in lower case) when it has one. */
export function refundsOf(data: ChargeEventData): RefundRequest[] {
  return (data.transactionRequests ?? [])
    .filter((r) => r.requestType === 'refund' && r.requestStatus === 'success')
    .map((r) => {
      const rules = r.splitRules ?? [];
      let split: Map<string, number> | null = null;
      if (rules.length > 0) {
        split = new Map();
        for (const rule of rules) {
          const sellerId = rule.sellerId.toLowerCase();
          split.set(sellerId, (split.get(sellerId) ?? 0) + (rule.amount ?? 0));
        }
      }
      return { id: r.id, amount: r.amount, split, settledAt: r.updatedAt ?? '' };
    });
}

const isPaymentType = (value: string): value is PaymentType => (PAYMENT_TYPES as readonly string[]).includes(value);

/** How the ledger books a charge: its payment type and number of installments; null when it has no receivables here. */
export function bookingOf(data: ChargeEventData): { paymentType: PaymentType; installments: number } | null {
  if (!data.providerType || !OWN_PROVIDERS.has(data.providerType)) return null;
  const paymentType = data.paymentMethod?.paymentType ?? '';
  if (!isPaymentType(paymentType)) return null;
  return { paymentType, installments: paymentType === 'credit' ? Math.max(1, data.paymentMethod?.installments ?? 1) : 1 };
}

/** The split rules of a charge event, seller ids in lower case. */
export function splitRulesOf(data: ChargeEventData): SplitRuleInput[] {
  return (data.splitRules ?? []).map((r) => ({ sellerId: r.sellerId.toLowerCase(), percentage: r.percentage ?? null, amount: r.amount ?? null }));
}

/**
 * Whether an event of a charge the ledger knows changes nothing of it: it shows no refunded amount, no successful
 * refund and no chargeback (what a capture or an authorization shows). Such an event only ever takes a charge in.
 */
export function isPlain(data: ChargeEventData): boolean {
  return (data.refundedAmount ?? 0) <= 0 && data.status !== 'charged_back' && refundsOf(data).length === 0;
}

/** The receivables of a captured charge taken in at `occurredAt`, each receiver on its plan (`planOf`). */
export function captureReceivables(
  deps: Pick<PayoutsDeps, 'calendar'>,
  clientId: string,
  data: ChargeEventData,
  booking: { paymentType: PaymentType; installments: number },
  splitRules: SplitRuleInput[],
  planOf: (receiver: string | null) => Plan,
  occurredAt: Date,
): Receivable[] {
  const drafts = buildReceivables(
    { chargeId: data.id, paymentType: booking.paymentType, installments: booking.installments, amount: data.amount, capturedAmount: data.capturedAmount, splitRules, capturedAt: occurredAt },
    planOf,
    deps.calendar,
  );
  return drafts.map((d) => ({
    id: randomUUID(),
    clientId,
    chargeId: data.id,
    receiver: d.receiver,
    installment: d.installment,
    totalInstallments: d.totalInstallments,
    paymentType: d.paymentType,
    gross: d.gross,
    fee: d.fee,
    net: d.net,
    originalSettlementDate: d.settlementDate,
    settlementDate: d.settlementDate,
    status: 'pending',
    prepaymentId: null,
    batchId: null,
    createdAt: occurredAt,
  }));
}

/**
 * A charge event, applied once whatever the order or number of deliveries: the capture of an own-provider charge
 * becomes receivables and a capture posting; a refunded amount above what was posted offsets the difference; a
 * chargeback offsets what is left. What was posted is kept per charge (`ledger_charges`) and every posting has a unique
 * reference, so a repeated event changes nothing.
 */
export async function applyChargeEvent(deps: PayoutsDeps, tx: Queryable, clientId: string, data: ChargeEventData, occurredAt: Date): Promise<void> {
  const booking = bookingOf(data);
  if (!booking) return;
  const { paymentType, installments } = booking;
  // A captured charge the ledger has not seen is taken in at once (the insert is the check); one it has is locked and read.
  const taken = data.capturedAmount > 0 && (await deps.ledgerStore.insertCharge(tx, clientId, { chargeId: data.id, paymentType, installments, capturedAmount: data.capturedAmount }, occurredAt));
  let charge = taken ? null : await deps.ledgerStore.findCharge(tx, clientId, data.id, { forUpdate: true });
  if (!taken && !charge) return;
  if (!charge) {
    const splitRules = splitRulesOf(data);
    const plans = new Map<string | null, Plan>();
    for (const receiver of [null, ...splitRules.map((r) => r.sellerId)]) {
      if (!plans.has(receiver)) plans.set(receiver, await planOfReceiver(deps, tx, clientId, receiver, deps.clock.now()));
    }
    const receivables = captureReceivables(deps, clientId, data, booking, splitRules, (receiver) => plans.get(receiver) ?? plans.get(null)!, occurredAt);
    await deps.ledgerStore.insertReceivables(tx, receivables);
    await deps.ledgerStore.post(tx, clientId, capturePosting(data.id, receivables), occurredAt);
    charge = { chargeId: data.id, paymentType, installments, capturedAmount: data.capturedAmount, refundedAmount: 0, chargedBack: false, refundRequestIds: [] };
  }

  // Every successful refund the event shows is within its refundedAmount: those the ledger has not taken in are
  // what the refunded amount grew by (an event older than one already applied brings none).
  const seen = new Set(charge.refundRequestIds);
  const fresh = refundsOf(data).filter((r) => !seen.has(r.id));
  let refunded = charge.refundedAmount;
  const target = Math.min(data.refundedAmount ?? 0, charge.capturedAmount);
  if (target > refunded) {
    await offset(deps, tx, clientId, charge.chargeId, 'refund', refundParts(target - refunded, fresh), `refund:${charge.chargeId}:${target}`, occurredAt);
    refunded = target;
  }
  let chargedBack = charge.chargedBack;
  if (data.status === 'charged_back' && !chargedBack) {
    const left = charge.capturedAmount - refunded;
    if (left > 0) await offset(deps, tx, clientId, charge.chargeId, 'chargeback', [{ amount: left }], `chargeback:${charge.chargeId}`, occurredAt);
    chargedBack = true;
  }
  if (refunded !== charge.refundedAmount || chargedBack !== charge.chargedBack || fresh.length > 0) {
    await deps.ledgerStore.updateChargeRefunds(tx, clientId, charge.chargeId, {
      refundedAmount: refunded,
      chargedBack,
      refundRequestIds: [...charge.refundRequestIds, ...fresh.map((r) => r.id)],
    });
  }
}

/**
 * Offsets a refund or chargeback against the charge's receivables, future ones first; what no future receivable can
 * give is a debit on the receiver's available balance, an order of its next batch. Each part is planned on what the
 * parts before it left (a refund with its own split takes exactly its amounts from each receiver; the others are
 * shared pro rata), and all of them make one posting.
 */
async function offset(deps: PayoutsDeps, tx: Queryable, clientId: string, chargeId: string, kind: 'refund' | 'chargeback', parts: RefundPart[], reference: string, at: Date): Promise<void> {
  const receivables = await deps.ledgerStore.receivablesOfCharge(tx, clientId, chargeId);
  const open = await deps.ledgerStore.openAmounts(tx, clientId, receivables.map((r) => r.id));
  const inputs: OpenReceivable[] = receivables.map((r) => {
    const amounts = open.get(r.id) ?? { net: 0, fee: 0 };
    // Settled, or prepaid (its receiver was promised that amount): it gives nothing more; its gross still weighs in
    // how the refund is shared.
    const settled = r.status !== 'pending';
    return {
      id: r.id,
      receiver: r.receiver,
      gross: settled ? r.gross : amounts.net + amounts.fee,
      fee: settled ? 0 : amounts.fee,
      net: settled ? 0 : amounts.net,
      settled,
      settlementDate: r.settlementDate,
      installment: r.installment,
    };
  });
  const { offsets, debits } = planRefundParts(parts, inputs);
  const posted = await deps.ledgerStore.post(tx, clientId, refundPosting(reference, kind, offsets, debits), at);
  if (!posted) return;
  for (const debit of debits) {
    if (debit.amount <= 0) continue;
    await deps.ledgerStore.insertDebit(tx, clientId, { id: randomUUID(), receiver: debit.receiver, chargeId, type: kind === 'chargeback' ? 'charge_back' : 'void', amount: debit.amount }, at);
  }
}
