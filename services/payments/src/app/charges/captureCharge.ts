import type { payments } from '@platform/contracts';
import { applyCapture, planCapture, type Charge } from '../../domain/charge';
import { changeCharge } from './changeCharge';
import type { ChargeDeps } from './deps';
import { operateOnCharge, ProviderRequestFailedError } from './providerRequests';

export const CAPTURE_CHARGE_OPERATION = 'payments.charge.capture';

/** Captures a pre-authorization, whole or in part; the part not captured is released. */
export async function captureCharge(deps: ChargeDeps, request: payments.CaptureChargeRequest, idempotencyKey?: string): Promise<Charge> {
  return changeCharge(
    deps,
    { clientId: request.clientId, id: request.id, idempotencyKey, operation: CAPTURE_CHARGE_OPERATION, request },
    async (tx, charge) => {
      const plan = planCapture(charge, request.amount);
      const { ok, request: done } = await operateOnCharge(deps, tx, { charge, type: 'capture', amount: plan.amount });
      if (!ok) throw new ProviderRequestFailedError(done);
      return { charge: applyCapture(charge, plan.amount, deps.clock.now()), requests: [done] };
    },
  );
}
