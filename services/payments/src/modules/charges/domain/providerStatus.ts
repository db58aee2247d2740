import type { ProviderChargeStatus } from '../../connectors/domain/types';
import type { Charge } from './charge';
import { applyNotification } from './chargeChanges';
import { canTransition } from './chargeStatus';

/**
 * What a provider says of a charge's transaction, by a notification or by the status sync asking it (a
 * connector's status table made `status` of the provider's own one, kept in `providerStatus`).
 */
export interface ObservedStatus {
  status: ProviderChargeStatus;
  capturedAmount?: number | undefined;
  /** Everything the provider refunded of the transaction, in minor units. */
  refundedAmount?: number | undefined;
  providerStatus?: string | undefined;
}

export interface ProviderStatusChange {
  charge: Charge;
  /** Money the provider gave back that the platform never asked for: recorded as a refund request of its own. */
  unaskedRefund: number;
}

const positive = (value: number | undefined): value is number => value !== undefined && Number.isSafeInteger(value) && value > 0;

/**
 * The charge once its provider's status is applied, when no capture, void or refund is pending at the provider
 * (those are settled by `operationVerdict`); undefined when nothing changes. Only the moves CHARGE_TRANSITIONS
 * allows a `notification` are made, so a late answer never takes a charge backwards (a `pending` heard after the
 * Pix was paid changes nothing), and the same status heard twice changes nothing. A refund the provider shows
 * beyond what the charge recorded (done at the provider, not through the platform) is recorded with its amount.
 */
export function applyProviderStatus(charge: Charge, observed: ObservedStatus, at: Date): ProviderStatusChange | undefined {
  const from = charge.status;
  const to = observed.status;
  if (from === 'authorized' && (to === 'authorized' || to === 'voided') && positive(observed.refundedAmount)) {
    const refunded = Math.min(observed.refundedAmount, charge.capturedAmount);
    if (refunded <= charge.refundedAmount) return undefined;
    const status = refunded >= charge.capturedAmount ? 'voided' : 'authorized';
    if (!canTransition(from, status, 'notification')) return undefined;
    return { charge: { ...charge, status, refundedAmount: refunded, updatedAt: at }, unaskedRefund: refunded - charge.refundedAmount };
  }
  if (to === from || !canTransition(from, to, 'notification')) return undefined;
  const next = applyNotification(charge, to, at);
  if (to === 'authorized' && from !== 'refund_pending' && positive(observed.capturedAmount) && observed.capturedAmount <= charge.amount) {
    // What the provider captured (a partial capture at its end): the rest of the hold is released, as a capture here does.
    next.amount = observed.capturedAmount;
    next.capturedAmount = observed.capturedAmount;
  }
  return { charge: next, unaskedRefund: Math.max(0, next.refundedAmount - charge.refundedAmount) };
}

/**
 * How a capture, void or refund the provider accepted as pending ended, by the provider's status now:
 * `done` (it happened), `refused` (it will not: the charge goes back to where it was) or `waiting`.
 * `charge` is the charge with the settled requests only (the pending refund not counted as refunded).
 */
export type OperationVerdict = 'done' | 'refused' | 'waiting';

export function operationVerdict(
  operation: { type: 'capture' | 'void' | 'refund'; amount: number },
  charge: Pick<Charge, 'refundedAmount'>,
  observed: ObservedStatus,
): OperationVerdict {
  const status = observed.status;
  switch (operation.type) {
    case 'capture':
      if (status === 'authorized' || status === 'refund_pending' || status === 'charged_back') return 'done';
      if (status === 'voided' || status === 'canceled' || status === 'failed') return 'refused';
      return 'waiting';
    case 'void':
      if (status === 'voided' || status === 'canceled') return 'done';
      if (status === 'authorized' || status === 'charged_back' || status === 'failed') return 'refused';
      return 'waiting';
    case 'refund': {
      if (observed.refundedAmount !== undefined) {
        if (observed.refundedAmount >= charge.refundedAmount + operation.amount) return 'done';
        return status === 'authorized' || status === 'charged_back' ? 'refused' : 'waiting';
      }
      if (status === 'voided') return 'done';
      if (status === 'authorized' || status === 'charged_back') return 'refused';
      return 'waiting';
    }
  }
}

/** The status a charge waits in while its provider settles an operation it accepted; a void waits where it is. */
export function waitingStatus(type: 'capture' | 'void' | 'refund'): 'capture_pending' | 'refund_pending' | undefined {
  return type === 'capture' ? 'capture_pending' : type === 'refund' ? 'refund_pending' : undefined;
}
