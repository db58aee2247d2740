import { minorUnits, type MinorUnits } from '@platform/api-model';
import type { RefundOffset } from './refunds';

/**
 * The double-entry ledger of a client. Every posting balances to zero (debit positive, credit negative); a balance
 * is the sum of an account's lines, negated, so that it reads as what is owed to the account's holder:
 * - `seller:<id>:receivable` / `main:receivable`: future receivables (net of fees);
 * - `seller:<id>:scheduled` / `main:scheduled`: committed to a prepayment, in a pending batch of its payment date:
 *   neither future receivable nor available yet;
 * - `seller:<id>:available` / `main:available`: settled and not yet transferred;
 * - `platform:fees`, `platform:prepayment_fees`: the platform's revenue;
 * - `acquirer:clearing`: what the acquirer owes for captured charges (negative balance: owed to the platform);
 * - `bank:transfers`: what left by bank transfer.
 */
export const ACCOUNTS = {
  clearing: 'acquirer:clearing',
  fees: 'platform:fees',
  prepaymentFees: 'platform:prepayment_fees',
  transfers: 'bank:transfers',
} as const;

export function receivableAccount(receiver: string | null): string {
  return receiver === null ? 'main:receivable' : `seller:${receiver}:receivable`;
}

export function availableAccount(receiver: string | null): string {
  return receiver === null ? 'main:available' : `seller:${receiver}:available`;
}

export function scheduledAccount(receiver: string | null): string {
  return receiver === null ? 'main:scheduled' : `seller:${receiver}:scheduled`;
}

export interface PostingLine {
  account: string;
  /** Debit positive, credit negative. */
  amount: MinorUnits;
  /** The receivable this line moves, on receivable and fee lines. */
  receivableId?: string;
}

export type PostingKind = 'capture' | 'refund' | 'chargeback' | 'settlement' | 'prepayment' | 'payout';

export interface Posting {
  kind: PostingKind;
  /** Unique per client: posting the same reference twice is the same posting (idempotency). */
  reference: string;
  lines: PostingLine[];
}

/** A posting balances when its lines add up to 0 and none of them is 0 (each a safe integer). */
export function isBalanced(p: Posting): boolean {
  let total = 0;
  for (const line of p.lines) {
    if (!Number.isSafeInteger(line.amount) || line.amount === 0) return false;
    total += line.amount;
  }
  return total === 0;
}

export function assertBalanced(p: Posting): Posting {
  if (!isBalanced(p)) {
    const total = p.lines.reduce((a, l) => a + l.amount, 0);
    throw new Error(`posting ${p.reference} does not balance (sum ${total}, ${p.lines.length} lines, a line of 0 or a non-integer is refused)`);
  }
  return p;
}

function nonNegative(value: number, what: string): number {
  if (!Number.isSafeInteger(value) || value < 0) throw new Error(`${what} must be a non-negative integer, got ${value}`);
  return value;
}

/** A line of `amount` (a plain number: the sums and negations the postings make come back through minorUnits here). */
function line(account: string, amount: number, receivableId?: string): PostingLine {
  const units = minorUnits(amount);
  return receivableId === undefined ? { account, amount: units } : { account, amount: units, receivableId };
}

/** Builds a posting from its lines, dropping the lines of 0, and checks that it balances. */
function posting(kind: PostingKind, reference: string, lines: PostingLine[]): Posting {
  return assertBalanced({ kind, reference, lines: lines.filter((l) => l.amount !== 0) });
}

/**
 * A capture: the acquirer owes the gross; each receivable's receiver is owed its net in the future and the
 * platform earns the fee. Per receivable: clearing +gross; receivable −net; fees −fee.
 */
export function capturePosting(chargeId: string, receivables: Array<{ id: string; receiver: string | null; gross: number; fee: number; net: number }>): Posting {
  const lines: PostingLine[] = [];
  for (const r of receivables) {
    if (nonNegative(r.gross, 'gross') !== nonNegative(r.net, 'net') + nonNegative(r.fee, 'fee')) {
      throw new Error(`receivable ${r.id}: gross ${r.gross} is not net ${r.net} + fee ${r.fee}`);
    }
    lines.push(line(ACCOUNTS.clearing, r.gross), line(receivableAccount(r.receiver), -r.net, r.id), line(ACCOUNTS.fees, -r.fee, r.id));
  }
  return posting('capture', `capture:${chargeId}`, lines);
}

/**
 * A refund or chargeback. Per offset (a future receivable taken back): clearing −gross; receivable +net; fees +fee
 * (the platform gives back its fee in proportion). Per debit (what settled receivables cannot give back): the
 * receiver's available balance +amount; clearing −amount.
 */
export function refundPosting(
  reference: string,
  kind: 'refund' | 'chargeback',
  offsets: RefundOffset[],
  debits: Array<{ receiver: string | null; amount: number }>,
): Posting {
  const lines: PostingLine[] = [];
  for (const o of offsets) {
    if (nonNegative(o.gross, 'gross') !== nonNegative(o.net, 'net') + nonNegative(o.fee, 'fee')) {
      throw new Error(`offset of ${o.receivableId}: gross ${o.gross} is not net ${o.net} + fee ${o.fee}`);
    }
    lines.push(line(ACCOUNTS.clearing, -o.gross), line(receivableAccount(o.receiver), o.net, o.receivableId), line(ACCOUNTS.fees, o.fee, o.receivableId));
  }
  for (const d of debits) {
    nonNegative(d.amount, 'debit');
    lines.push(line(availableAccount(d.receiver), d.amount), line(ACCOUNTS.clearing, -d.amount));
  }
  return posting(kind, reference, lines);
}

/** A receivable settles: its amount moves from the receiver's future receivables to its available balance. */
export function settlementPosting(receivableId: string, receiver: string | null, amount: number): Posting {
  nonNegative(amount, 'amount');
  return posting('settlement', `settle:${receivableId}`, [line(receivableAccount(receiver), amount, receivableId), line(availableAccount(receiver), -amount)]);
}

/** A prepayment's fee on each receivable: the receivable shrinks by it and the platform earns it. */
export function prepaymentPosting(prepaymentId: string, items: Array<{ receivableId: string; receiver: string | null; fee: number }>): Posting {
  const lines: PostingLine[] = [];
  for (const item of items) {
    nonNegative(item.fee, 'fee');
    lines.push(line(receivableAccount(item.receiver), item.fee, item.receivableId), line(ACCOUNTS.prepaymentFees, -item.fee));
  }
  return posting('prepayment', `prepay:${prepaymentId}`, lines);
}

/**
 * A prepayment committed: what each receivable still pays after the prepayment fee leaves the receiver's future
 * receivables for its scheduled account (tagged with the receivable), where the pending batch of the payment date
 * holds it until the settlement of that date.
 */
export function schedulePosting(prepaymentId: string, items: Array<{ receivableId: string; receiver: string | null; net: number }>): Posting {
  const lines: PostingLine[] = [];
  for (const item of items) {
    nonNegative(item.net, 'net');
    lines.push(line(receivableAccount(item.receiver), item.net, item.receivableId), line(scheduledAccount(item.receiver), -item.net, item.receivableId));
  }
  return posting('prepayment', `schedule:${prepaymentId}`, lines);
}

/** A prepaid receivable settles on its payment date: its amount moves from the scheduled account to available. */
export function scheduledSettlementPosting(receivableId: string, receiver: string | null, amount: number): Posting {
  nonNegative(amount, 'amount');
  return posting('settlement', `settle:${receivableId}`, [line(scheduledAccount(receiver), amount, receivableId), line(availableAccount(receiver), -amount)]);
}

/** A payment batch transferred: the receiver's available balance goes out by bank transfer. */
export function payoutPosting(batchId: string, receiver: string | null, amount: number): Posting {
  nonNegative(amount, 'amount');
  return posting('payout', `payout:${batchId}`, [line(availableAccount(receiver), amount), line(ACCOUNTS.transfers, -amount)]);
}

/** What is owed to the holder of `account`: −Σ of its lines. */
export function balanceOf(lines: readonly PostingLine[], account: string): number {
  return 0 - lines.reduce((a, l) => (l.account === account ? a + l.amount : a), 0);
}

/** What is still to be received on a receivable: −Σ of its lines on `…:receivable` accounts. */
export function receivableRemaining(lines: readonly PostingLine[], receivableId: string): number {
  return 0 - lines.reduce((a, l) => (l.receivableId === receivableId && l.account.endsWith(':receivable') ? a + l.amount : a), 0);
}
