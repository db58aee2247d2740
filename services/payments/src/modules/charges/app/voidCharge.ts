import { type Charge } from '../domain/charge';
import { planVoid } from '../domain/chargeChanges';
import { changeCharge } from './changeCharge';
import type { ChargeDeps } from './deps';

export const VOID_CHARGE_OPERATION = 'payments.charge.void';

export interface VoidChargeInput {
  clientId: string;
  id: string;
  amount?: number | undefined;
  /** How a refund is taken from the split receivers. */
  splitRules?: Array<{ sellerId: string; amount?: number | undefined }> | undefined;
}

/**
 * Before capture, voids the authorization (an unpaid Pix or boleto is canceled); after capture, refunds `amount`
 * (by default all that is left). The amount is checked on the locked row against what is refunded or still
 * being refunded, so concurrent refunds never return more than was captured; the table's check constraint is
 * the backstop.
 */
export async function voidCharge(deps: ChargeDeps, request: VoidChargeInput, idempotencyKey?: string): Promise<Charge> {
  const refundSplit = (request.splitRules ?? []).map((r) => ({ sellerId: r.sellerId, amount: r.amount ?? 0 }));
  return changeCharge(
    deps,
    { clientId: request.clientId, id: request.id, idempotencyKey, operation: VOID_CHARGE_OPERATION, request },
    (charge) => {
      const plan = planVoid(charge, request.amount, refundSplit);
      return { operation: { type: plan.kind, amount: plan.amount, splitRules: plan.splitRules, cause: { by: 'client' } } };
    },
  );
}
