import { errors, type FieldViolation } from '@platform/kit';
import type { Charge, DeclinedCode, SellerAmount, SplitRule } from './charge';
import { assertTransition, type ChargeStatus } from './chargeStatus';
import { checkRefundSplitHeld } from './refundSplit';

/** How an existing charge changes: capture, void and refund plans, their settlement, provider notifications. */

function requirePositiveAmount(amount: number): void {
  if (!Number.isSafeInteger(amount) || amount <= 0) {
    throw errors.validation('Invalid amount', [{ field: 'amount', message: 'must be a positive integer in minor units' }]);
  }
}

/**
 * A capture takes a pre-authorization whole or in part; the part not captured is released. While an antifraud
 * analysis is pending, only its decision may capture.
 */
export function planCapture(charge: Pick<Charge, 'status' | 'amount' | 'antifraud'>, requested: number | undefined): { amount: number } {
  assertTransition(charge.status, 'authorized', 'capture');
  if (charge.antifraud?.status === 'pending') {
    throw errors.businessRule('antifraud_pending', 'The antifraud analysis of this charge has not been decided yet');
  }
  const amount = requested ?? charge.amount;
  requirePositiveAmount(amount);
  if (amount > charge.amount) {
    throw errors.businessRule('capture_exceeds_authorized_amount', `At most ${charge.amount} can be captured`);
  }
  return { amount };
}

export function applyCapture(charge: Charge, amount: number, at: Date): Charge {
  return { ...charge, status: 'authorized', amount, capturedAmount: amount, updatedAt: at };
}

export interface VoidPlan {
  /** void: an authorization (or an unpaid Pix/boleto) is cancelled; refund: captured money goes back. */
  kind: 'void' | 'refund';
  amount: number;
  to: ChargeStatus;
  splitRules: SellerAmount[] | null;
}

/**
 * Before capture a void cancels the whole authorization (an unpaid Pix or boleto is canceled); after capture it
 * is a refund of `amount`, by default what is left, and only the refund that returns everything voids the charge.
 * Callers run this on a locked charge row with the refunds still being asked counted as refunded (and listed among
 * its transactionRequests, pending), so two refunds cannot both see the same remainder. A refund's own split names
 * receivers of the charge, adds up to the refund, and takes from each at most what it still holds (422
 * `refund_split_exceeds_receiver_share`).
 */
export function planVoid(
  charge: Pick<Charge, 'status' | 'amount' | 'capturedAmount' | 'refundedAmount' | 'splitRules' | 'transactionRequests'>,
  requested: number | undefined,
  refundSplit: SellerAmount[] = [],
): VoidPlan {
  if (charge.status === 'pending' || charge.status === 'pre_authorized') {
    const to: ChargeStatus = charge.status === 'pending' ? 'canceled' : 'voided';
    assertTransition(charge.status, to, 'void');
    if (requested !== undefined && requested !== charge.amount) {
      throw errors.validation('Invalid amount', [{ field: 'amount', message: `an authorization is voided whole (${charge.amount})` }]);
    }
    if (refundSplit.length > 0) {
      throw errors.validation('Invalid splitRules', [{ field: 'splitRules', message: 'only a refund after capture is split' }]);
    }
    return { kind: 'void', amount: charge.amount, to, splitRules: null };
  }
  if (charge.status !== 'authorized') assertTransition(charge.status, 'voided', 'refund');
  const remaining = charge.capturedAmount - charge.refundedAmount;
  const amount = requested ?? remaining;
  requirePositiveAmount(amount);
  if (amount > remaining) {
    throw errors.businessRule('refund_exceeds_captured_amount', `At most ${remaining} can still be refunded`);
  }
  const to: ChargeStatus = amount === remaining ? 'voided' : 'authorized';
  assertTransition(charge.status, to, 'refund');
  const split = parseRefundSplit(charge.splitRules, refundSplit, amount);
  if (split) {
    // Refunds done or being asked, in order; a failed or declined one took nothing.
    const earlier = charge.transactionRequests.filter((r) => r.requestType === 'refund' && (r.requestStatus === 'success' || r.requestStatus === 'pending'));
    checkRefundSplitHeld(charge, earlier, split);
  }
  return { kind: 'refund', amount, to, splitRules: split };
}

function parseRefundSplit(chargeRules: SplitRule[], refundSplit: SellerAmount[], amount: number): SellerAmount[] | null {
  if (refundSplit.length === 0) return null;
  const problems: FieldViolation[] = [];
  const receivers = new Set(chargeRules.map((r) => r.sellerId));
  let sum = 0;
  refundSplit.forEach((rule, i) => {
    if (!receivers.has((rule.sellerId ?? '').toLowerCase())) {
      problems.push({ field: `splitRules.${i}.sellerId`, message: 'is not a receiver of this charge' });
    }
    if (!Number.isSafeInteger(rule.amount) || rule.amount <= 0) {
      problems.push({ field: `splitRules.${i}.amount`, message: 'must be a positive integer in minor units' });
    }
    sum += rule.amount;
  });
  if (problems.length === 0 && sum !== amount) problems.push({ field: 'splitRules', message: `amounts must add up to the refund (${amount})` });
  if (problems.length > 0) throw errors.validation('Invalid splitRules', problems);
  return refundSplit.map((r) => ({ sellerId: r.sellerId.toLowerCase(), amount: r.amount }));
}

export function applyVoid(charge: Charge, plan: VoidPlan, at: Date): Charge {
  return {
    ...charge,
    status: plan.to,
    refundedAmount: plan.kind === 'refund' ? charge.refundedAmount + plan.amount : charge.refundedAmount,
    updatedAt: at,
  };
}

/**
 * Why a capture, void or refund was asked of the provider, kept with the request while it is pending: whoever
 * settles it (the request itself, its retry, or the job that resumes abandoned requests) changes the charge the
 * same way.
 */
export type OperationCause = { by: 'client' } | { by: 'antifraud'; decision: 'approved' | 'reproved' | 'failed' };

export interface DoneOperation {
  type: 'capture' | 'void' | 'refund';
  amount: number;
  cause: OperationCause;
}

/**
 * The charge once its provider did a reserved operation, computed from the row as it is then (locked): other
 * refunds may have settled since the reservation, so a refund voids the charge only if it completes the
 * captured amount now. No transition is checked here: the reservation checked it, and what the provider did is
 * recorded whatever happened meanwhile.
 */
export function settleOperation(charge: Charge, done: DoneOperation, at: Date): Charge {
  if (done.cause.by === 'antifraud') {
    const { decision } = done.cause;
    // A sandbox decision may come for a charge no antifraud provider analysed: it is recorded all the same.
    const antifraud = { providerId: charge.antifraud?.providerId ?? '', status: decision, updatedAt: at.toISOString() };
    const next: Charge =
      done.type === 'capture'
        ? applyCapture(charge, done.amount, at)
        : { ...charge, status: 'failed', declinedCode: antifraudDeclinedCode(decision === 'reproved' ? 'reproved' : 'failed'), updatedAt: at };
    return { ...next, antifraud };
  }
  switch (done.type) {
    case 'capture':
      return applyCapture(charge, done.amount, at);
    case 'void':
      return applyVoid(charge, { kind: 'void', amount: done.amount, to: charge.status === 'pending' ? 'canceled' : 'voided', splitRules: null }, at);
    case 'refund': {
      const everything = charge.refundedAmount + done.amount >= charge.capturedAmount;
      // A refund its provider settled later ends the charge's wait for it.
      const rest = charge.status === 'refund_pending' ? 'authorized' : charge.status;
      return applyVoid(charge, { kind: 'refund', amount: done.amount, to: everything ? 'voided' : rest, splitRules: null }, at);
    }
  }
}

/** The statuses the sandbox route may set, as a provider notification would. */
export const SANDBOX_TARGET_STATUSES = ['authorized', 'voided', 'charged_back', 'refund_pending', 'failed'] as const;

/** What a provider notification changes besides the status. */
export function applyNotification(charge: Charge, to: ChargeStatus, at: Date): Charge {
  assertTransition(charge.status, to, 'notification');
  const next: Charge = { ...charge, status: to, updatedAt: at };
  if (to === 'authorized' && (charge.status === 'pending' || charge.status === 'pre_authorized' || charge.status === 'capture_pending')) {
    next.capturedAmount = charge.amount;
  }
  if (to === 'voided' && charge.status !== 'pre_authorized') next.refundedAmount = next.capturedAmount;
  if (to === 'charged_back') next.isDispute = true;
  return next;
}

/** The declinedCode of a charge the antifraud provider stopped: reproved is suspected fraud; a failed analysis may be retried. */
export function antifraudDeclinedCode(status: 'reproved' | 'failed'): DeclinedCode {
  return status === 'reproved' ? 'fraud_suspect' : 'try_again';
}
