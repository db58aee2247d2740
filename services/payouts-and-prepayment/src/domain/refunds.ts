import { errors } from '@platform/kit';
import { minorUnits } from '@platform/api-model';
import { allocate } from './money';

/** A receivable of the refunded charge with what is still owed on it (its current remaining amounts). */
export interface OpenReceivable {
  id: string;
  receiver: string | null;
  gross: number;
  fee: number;
  net: number;
  /** Already moved to the receiver's available balance (or prepaid): it has no future left to offset. */
  settled: boolean;
  settlementDate: string;
  installment: number;
}

/** What a refund or chargeback takes back from one future receivable. */
export interface RefundOffset {
  receivableId: string;
  receiver: string | null;
  gross: number;
  fee: number;
  net: number;
}

export interface RefundPlan {
  offsets: RefundOffset[];
  /** What could not be offset: the receiver owes it back from its available balance. */
  debits: Array<{ receiver: string | null; amount: number }>;
}

function receiverLabel(receiver: string | null): string {
  return receiver === null ? 'main account' : `seller ${receiver}`;
}

/**
 * How a refund (or chargeback) of `amount` is taken back from the receivers of a charge.
 * - Division among receivers: `perReceiver` when given (the refund's own split rules; they must add up to
 *   `amount`), otherwise pro rata to each receiver's gross in `receivables` (`allocate`; receivers in the order
 *   they first appear). With no receivable at all, the whole refund is a debit of the main account.
 * - Within a receiver: receivables NOT settled first, the latest settlement date first (then the highest
 *   installment). Each offset takes gross up to the receivable's remaining gross; its fee part is
 *   floor(remaining fee × taken gross / remaining gross) (the whole remaining fee when the whole gross is taken), so
 *   the platform gives back the fee in proportion; net = gross − fee. What is left afterwards stays with
 *   fee ≤ gross, so no receivable goes below 0.
 * - What the future receivables cannot cover becomes a debit on the receiver's available balance, for the
 *   remaining refund gross: the receiver owes back what the buyer gets.
 * Σ offsets.gross + Σ debits.amount = amount.
 */
export function planRefund(amount: number, receivables: OpenReceivable[], perReceiver?: ReadonlyMap<string | null, number>): RefundPlan {
  if (!Number.isSafeInteger(amount) || amount < 0) {
    throw errors.validation('amount must be a non-negative integer', [{ field: 'amount', message: 'must be a non-negative integer' }]);
  }
  for (const r of receivables) {
    const valid = Number.isSafeInteger(r.gross) && r.gross >= 0 && (r.settled || (Number.isSafeInteger(r.fee) && r.fee >= 0 && r.fee <= r.gross));
    if (!valid) throw new Error(`receivable ${r.id} has invalid remaining amounts (gross ${r.gross}, fee ${r.fee})`);
  }
  const receivers: Array<string | null> = [];
  const grossOf = new Map<string | null, number>();
  for (const r of receivables) {
    if (!grossOf.has(r.receiver)) receivers.push(r.receiver);
    grossOf.set(r.receiver, (grossOf.get(r.receiver) ?? 0) + r.gross);
  }

  const shareOf = new Map<string | null, number>();
  if (perReceiver) {
    let total = 0;
    for (const [receiver, value] of perReceiver) {
      if (!Number.isSafeInteger(value) || value < 0) {
        throw errors.validation('split amounts of a refund must be non-negative integers', [
          { field: 'splitRules', message: `the amount of the ${receiverLabel(receiver)} must be a non-negative integer` },
        ]);
      }
      total += value;
      if (!grossOf.has(receiver)) receivers.push(receiver);
      shareOf.set(receiver, value);
    }
    if (total !== amount) {
      throw errors.validation(`split amounts of a refund add up to ${total}, not to the amount ${amount}`, [
        { field: 'splitRules', message: `must add up to the amount (${amount})` },
      ]);
    }
  } else if (receivers.length === 0) {
    receivers.push(null);
    shareOf.set(null, amount);
  } else {
    const shares = allocate(
      minorUnits(amount),
      receivers.map((r) => grossOf.get(r)!),
    );
    receivers.forEach((r, i) => shareOf.set(r, shares[i]!));
  }

  const plan: RefundPlan = { offsets: [], debits: [] };
  for (const receiver of receivers) {
    let left = shareOf.get(receiver) ?? 0;
    if (left === 0) continue;
    const future = receivables
      .filter((r) => r.receiver === receiver && !r.settled && r.gross > 0)
      .sort((a, b) => (a.settlementDate !== b.settlementDate ? (a.settlementDate < b.settlementDate ? 1 : -1) : b.installment - a.installment));
    for (const r of future) {
      if (left === 0) break;
      const gross = Math.min(left, r.gross);
      const fee = gross === r.gross ? r.fee : Number((BigInt(r.fee) * BigInt(gross)) / BigInt(r.gross));
      plan.offsets.push({ receivableId: r.id, receiver, gross, fee, net: gross - fee });
      left -= gross;
    }
    if (left > 0) plan.debits.push({ receiver, amount: left });
  }
  return plan;
}

/**
 * A receivable after the offsets of a refund plan: its remaining gross, fee and net less what the offsets took.
 */
export function applyOffsets<T extends OpenReceivable>(receivables: readonly T[], offsets: readonly RefundOffset[]): T[] {
  return receivables.map((r) => {
    const taken = offsets.filter((o) => o.receivableId === r.id);
    if (taken.length === 0) return r;
    const gross = taken.reduce((a, o) => a + o.gross, 0);
    const fee = taken.reduce((a, o) => a + o.fee, 0);
    const net = taken.reduce((a, o) => a + o.net, 0);
    return { ...r, gross: r.gross - gross, fee: r.fee - fee, net: r.net - net };
  });
}

/** A successful refund of a charge as the charge's event shows it, with the refund's own split when it had one. */
export interface RefundRequest {
  id: string;
  amount: number;
  /** What the refund takes from each seller (lower-case ids), adding up to `amount`; null: shared pro rata. */
  split: ReadonlyMap<string, number> | null;
  /** When it was done: refunds are taken in this order (then by id). */
  settledAt: string;
}

/** One planRefund call: an amount, and the refund's own division among receivers when it has one. */
export interface RefundPart {
  amount: number;
  perReceiver?: ReadonlyMap<string | null, number>;
}

/** A split is used only when it is whole: non-negative integers adding up to the refund. */
function usableSplit(request: RefundRequest): ReadonlyMap<string, number> | null {
  if (!request.split || request.split.size === 0) return null;
  let total = 0;
  for (const value of request.split.values()) {
    if (!Number.isSafeInteger(value) || value < 0) return null;
    total += value;
  }
  return total === request.amount ? request.split : null;
}

/**
 * How the ledger takes back `amount`, what the charge's refunded amount grew by since its last refund posting, given
 * the charge's successful refunds the ledger has not taken in yet (`fresh`):
 * - each fresh refund, in the order they were done, is one part: by its own split when it has one (planRefund's
 *   perReceiver), else pro rata;
 * - what the fresh refunds do not explain (the provider said the charge was refunded, with no request) is a last
 *   part, pro rata;
 * - when the fresh refunds add up to more than `amount`, the older ones were posted before the ledger kept refund
 *   ids: the latest refunds that make `amount` exactly are the parts; when none do, the whole amount is pro rata.
 * The parts add up to `amount`.
 */
export function refundParts(amount: number, fresh: readonly RefundRequest[]): RefundPart[] {
  if (!Number.isSafeInteger(amount) || amount < 0) throw new Error(`amount must be a non-negative integer, got ${amount}`);
  let chosen = [...fresh].sort((a, b) => (a.settledAt !== b.settledAt ? (a.settledAt < b.settledAt ? -1 : 1) : a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const total = chosen.reduce((a, r) => a + r.amount, 0);
  if (total > amount) {
    let suffix = 0;
    let start = chosen.length;
    while (start > 0 && suffix < amount) {
      start -= 1;
      suffix += chosen[start]!.amount;
    }
    chosen = suffix === amount ? chosen.slice(start) : [];
  }
  const parts: RefundPart[] = [];
  let left = amount;
  for (const request of chosen) {
    if (request.amount <= 0) continue;
    const split = usableSplit(request);
    parts.push(split ? { amount: request.amount, perReceiver: split } : { amount: request.amount });
    left -= request.amount;
  }
  if (left > 0) parts.push({ amount: left });
  return parts;
}

/**
 * The refund plan of several parts (refundParts) taken one after the other: each part is planned on what the parts
 * before it left (applyOffsets), so a part with its own split takes exactly its amounts from each receiver and the
 * others are shared pro rata to what is left. Debits are summed per receiver (in the order they first appear).
 * Σ offsets.gross + Σ debits.amount = Σ parts.amount.
 */
export function planRefundParts(parts: readonly RefundPart[], receivables: OpenReceivable[]): RefundPlan {
  let left = receivables;
  const offsets: RefundOffset[] = [];
  const debitOf = new Map<string | null, number>();
  for (const part of parts) {
    const plan = planRefund(part.amount, left, part.perReceiver);
    offsets.push(...plan.offsets);
    for (const debit of plan.debits) debitOf.set(debit.receiver, (debitOf.get(debit.receiver) ?? 0) + debit.amount);
    left = applyOffsets(left, plan.offsets);
  }
  return { offsets, debits: [...debitOf].map(([receiver, amount]) => ({ receiver, amount })) };
}
