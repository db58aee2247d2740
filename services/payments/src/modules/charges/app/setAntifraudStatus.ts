import { errors } from '@platform/kit';
import type { Charge } from '../domain/charge';
import { assertTransition, type ChargeStatus } from '../domain/chargeStatus';
import { changeCharge, type PlannedChange } from './changeCharge';
import type { ChargeDeps } from './deps';

export const SET_ANTIFRAUD_STATUS_OPERATION = 'payments.charge.antifraud';
const DECISIONS = ['approved', 'reproved', 'failed'] as const;
type Decision = (typeof DECISIONS)[number];

/** Statuses in which nothing was captured yet: the money is held (pre_authorized) or not paid yet (pending). */
const UNCAPTURED: readonly ChargeStatus[] = ['pre_authorized', 'pending'];

/**
 * The antifraud provider's decision on a charge (the sandbox route sets it on any charge of a sandbox client).
 * Approved: a charge that waited for the analysis holding money it asked to capture is captured now; anything
 * else keeps its status. Reproved or failed: a charge with nothing captured yet fails, and what the provider
 * holds is let go; a charge already captured, or already settled otherwise, keeps its status. The decision is
 * recorded on the charge in every case; a later decision replaces an earlier one.
 */
export async function setAntifraudStatus(deps: ChargeDeps, request: { clientId: string; id: string; status: string }, idempotencyKey?: string): Promise<Charge> {
  const decision = (request.status ?? '').trim().toLowerCase();
  if (!(DECISIONS as readonly string[]).includes(decision)) {
    throw errors.validation('Invalid status', [{ field: 'status', message: `must be one of ${DECISIONS.join(', ')}` }]);
  }
  const status = decision as Decision;
  const cause = { by: 'antifraud', decision: status } as const;
  return changeCharge(
    deps,
    { clientId: request.clientId, id: request.id, idempotencyKey, operation: SET_ANTIFRAUD_STATUS_OPERATION, request },
    (charge): PlannedChange => {
      const waiting = charge.antifraud?.status === 'pending';
      if (status !== 'approved' && UNCAPTURED.includes(charge.status)) {
        assertTransition(charge.status, 'failed', 'antifraud');
        return { operation: { type: 'void', amount: charge.amount, cause } };
      }
      if (status === 'approved' && waiting && charge.status === 'pre_authorized' && charge.capture) {
        assertTransition(charge.status, 'authorized', 'antifraud');
        return { operation: { type: 'capture', amount: charge.amount, cause } };
      }
      return {
        apply: (current, at) => ({
          ...current,
          antifraud: { providerId: current.antifraud?.providerId ?? '', status, updatedAt: at.toISOString() },
          updatedAt: at,
        }),
      };
    },
  );
}
