import { type Charge } from '../domain/charge';
import { planCapture } from '../domain/chargeChanges';
import { changeCharge } from './changeCharge';
import type { ChargeDeps } from './deps';

export const CAPTURE_CHARGE_OPERATION = 'payments.charge.capture';

/** Captures a pre-authorization, whole or in part; the part not captured is released. */
export async function captureCharge(deps: ChargeDeps, request: { clientId: string; id: string; amount?: number | undefined }, idempotencyKey?: string): Promise<Charge> {
  return changeCharge(
    deps,
    { clientId: request.clientId, id: request.id, idempotencyKey, operation: CAPTURE_CHARGE_OPERATION, request },
    (charge) => ({ operation: { type: 'capture', amount: planCapture(charge, request.amount).amount, cause: { by: 'client' } } }),
  );
}
