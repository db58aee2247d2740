import { errors } from '@platform/kit';
import { type Charge } from '../domain/charge';
import { applyNotification, SANDBOX_TARGET_STATUSES } from '../domain/chargeChanges';
import type { ChargeStatus } from '../domain/chargeStatus';
import { changeCharge } from './changeCharge';
import type { ChargeDeps } from './deps';

export const SET_SANDBOX_STATUS_OPERATION = 'payments.charge.sandbox_status';

/**
 * Moves a charge as its provider's notification would (a Pix paid, a boleto expired, a chargeback). The gateway
 * offers the route to sandbox clients only; here the target and the status table are checked.
 */
export async function setSandboxChargeStatus(deps: ChargeDeps, request: { clientId: string; id: string; status: string }, idempotencyKey?: string): Promise<Charge> {
  const status = (request.status ?? '').trim().toLowerCase();
  if (!(SANDBOX_TARGET_STATUSES as readonly string[]).includes(status)) {
    throw errors.validation('Invalid status', [{ field: 'status', message: `must be one of ${SANDBOX_TARGET_STATUSES.join(', ')}` }]);
  }
  return changeCharge(
    deps,
    { clientId: request.clientId, id: request.id, idempotencyKey, operation: SET_SANDBOX_STATUS_OPERATION, request },
    () => ({ apply: (charge, at) => applyNotification(charge, status as ChargeStatus, at) }),
  );
}
