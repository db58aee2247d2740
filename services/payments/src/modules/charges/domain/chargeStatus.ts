import { CHARGE_STATUSES, isChargeStatus, type ChargeStatus } from '@platform/api-model';
import { errors } from '@platform/kit';

/** The statuses are the public API's (@platform/api-model); what moves a charge between them is decided here. */
export { CHARGE_STATUSES, isChargeStatus, type ChargeStatus };

/**
 * What moves a charge after it was created:
 * - `capture`, `void`, `refund`: the client's capture and void requests (a void after capture is a refund);
 * - `antifraud`: the antifraud provider's decision on a pending analysis;
 * - `notification`: the provider telling us the outcome later (Pix paid, boleto expired, chargeback), by a
 *   notification or by the status sync asking it; the sandbox status route simulates exactly these.
 *
 * A capture or refund the provider takes but settles later leaves the charge `capture_pending` or
 * `refund_pending` by the client's own request (`capture`, `refund`), until the provider's status settles it.
 */
export const TRANSITION_CAUSES = ['capture', 'void', 'refund', 'antifraud', 'notification'] as const;
export type TransitionCause = (typeof TRANSITION_CAUSES)[number];

/**
 * Every move a charge may make, and what may cause it. A status that maps to itself changes amounts, not the
 * state (a partial refund, an antifraud approval of a Pix still waiting for payment). Anything not listed is
 * refused with `charge_status_transition_not_allowed`.
 */
export const CHARGE_TRANSITIONS: Record<ChargeStatus, Partial<Record<ChargeStatus, readonly TransitionCause[]>>> = {
  pending: {
    pending: ['antifraud'],
    pre_authorized: ['notification'],
    authorized: ['notification'],
    failed: ['antifraud', 'notification'],
    canceled: ['void', 'notification'],
  },
  pre_authorized: {
    pre_authorized: ['antifraud'],
    authorized: ['capture', 'antifraud', 'notification'],
    // capture: the provider took the capture and settles it later.
    capture_pending: ['capture', 'notification'],
    voided: ['void', 'notification'],
    canceled: ['notification'],
    failed: ['antifraud', 'notification'],
  },
  capture_pending: {
    authorized: ['notification'],
    // The provider refused the capture it had taken: the pre-authorization stands as it was.
    pre_authorized: ['notification'],
    failed: ['notification'],
  },
  authorized: {
    // notification: a part refunded at the provider that the platform did not ask (its own portal, say).
    authorized: ['refund', 'notification'],
    voided: ['refund', 'notification'],
    // refund: the provider took the refund and settles it later.
    refund_pending: ['refund', 'notification'],
    charged_back: ['notification'],
  },
  refund_pending: {
    voided: ['notification'],
    authorized: ['notification'],
  },
  failed: {},
  canceled: {},
  voided: {},
  charged_back: {},
};

/** Whether `from` may become `to`, by the given cause or by any cause. */
export function canTransition(from: ChargeStatus, to: ChargeStatus, cause?: TransitionCause): boolean {
  const causes = CHARGE_TRANSITIONS[from][to];
  if (!causes) return false;
  return cause === undefined || causes.includes(cause);
}

export function assertTransition(from: ChargeStatus, to: ChargeStatus, cause?: TransitionCause): void {
  if (!canTransition(from, to, cause)) {
    const how = cause === undefined ? '' : ` by ${cause}`;
    throw errors.businessRule('charge_status_transition_not_allowed', `A ${from} charge cannot become ${to}${how}`);
  }
}
