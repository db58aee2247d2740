import type { payments } from '@platform/contracts';
import { applyVoid, planVoid, type Charge } from '../../domain/charge';
import { changeCharge } from './changeCharge';
import type { ChargeDeps } from './deps';
import { operateOnCharge, ProviderRequestFailedError } from './providerRequests';

export const VOID_CHARGE_OPERATION = 'payments.charge.void';

/**
 * Before capture, voids the authorization (an unpaid Pix or boleto is canceled); after capture, refunds `amount`
 * (by default all that is left). The amount is checked against the locked row, so concurrent refunds never
 * return more than was captured; the table's check constraint is the backstop.
 */
export async function voidCharge(deps: ChargeDeps, request: payments.VoidChargeRequest, idempotencyKey?: string): Promise<Charge> {
  return changeCharge(
    deps,
    { clientId: request.clientId, id: request.id, idempotencyKey, operation: VOID_CHARGE_OPERATION, request },
    async (tx, charge) => {
      const refundSplit = (request.splitRules ?? []).map((r) => ({ sellerId: r.sellerId, amount: r.amount ?? 0 }));
      const plan = planVoid(charge, request.amount, refundSplit);
      const { ok, request: done } = await operateOnCharge(deps, tx, { charge, type: plan.kind, amount: plan.amount, splitRules: plan.splitRules });
      if (!ok) throw new ProviderRequestFailedError(done);
      return { charge: applyVoid(charge, plan, deps.clock.now()), requests: [done] };
    },
  );
}
