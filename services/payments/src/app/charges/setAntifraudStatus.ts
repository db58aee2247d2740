import type { payments } from '@platform/contracts';
import { errors } from '@platform/kit';
import type { Charge } from '../../domain/charge';
import { assertTransition } from '../../domain/chargeStatus';
import { changeCharge, type PlannedChange } from './changeCharge';
import type { ChargeDeps } from './deps';

export const SET_ANTIFRAUD_STATUS_OPERATION = 'payments.charge.antifraud';
const DECISIONS = ['approved', 'reproved', 'failed'] as const;
type Decision = (typeof DECISIONS)[number];

/**
 * The antifraud provider's decision on a pending analysis. A charge waiting for it holds the money
 * (pre_authorized) or waits for payment (pending). Approved: a charge that asked for capture is captured now,
 * anything else keeps its status. Reproved or failed: what the provider holds is let go and the charge fails.
 */
export async function setAntifraudStatus(deps: ChargeDeps, request: payments.SetAntifraudStatusRequest, idempotencyKey?: string): Promise<Charge> {
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
      if (charge.antifraud?.status !== 'pending') {
        throw errors.businessRule('antifraud_not_pending', 'This charge has no antifraud analysis waiting for a decision');
      }
      const analysis = charge.antifraud;
      if (status !== 'approved') {
        assertTransition(charge.status, 'failed', 'antifraud');
        return { operation: { type: 'void', amount: charge.amount, cause } };
      }
      if (charge.status === 'pre_authorized' && charge.capture) {
        assertTransition(charge.status, 'authorized', 'antifraud');
        return { operation: { type: 'capture', amount: charge.amount, cause } };
      }
      assertTransition(charge.status, charge.status, 'antifraud');
      return {
        apply: (current, at) => ({ ...current, antifraud: { ...analysis, status, updatedAt: at.toISOString() }, updatedAt: at }),
      };
    },
  );
}
