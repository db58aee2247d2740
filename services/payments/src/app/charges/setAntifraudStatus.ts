import type { payments } from '@platform/contracts';
import { errors } from '@platform/kit';
import { antifraudDeclinedCode, applyCapture, type Charge, type TransactionRequestRecord } from '../../domain/charge';
import { assertTransition } from '../../domain/chargeStatus';
import { changeCharge } from './changeCharge';
import type { ChargeDeps } from './deps';
import { operateOnCharge, ProviderRequestFailedError } from './providerRequests';

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
  return changeCharge(
    deps,
    { clientId: request.clientId, id: request.id, idempotencyKey, operation: SET_ANTIFRAUD_STATUS_OPERATION, request },
    async (tx, charge) => {
      if (charge.antifraud?.status !== 'pending') {
        throw errors.businessRule('antifraud_not_pending', 'This charge has no antifraud analysis waiting for a decision');
      }
      const now = deps.clock.now();
      const antifraud = { ...charge.antifraud, status, updatedAt: now.toISOString() };
      const requests: TransactionRequestRecord[] = [];
      let next: Charge;
      if (status === 'approved') {
        if (charge.status === 'pre_authorized' && charge.capture) {
          assertTransition(charge.status, 'authorized', 'antifraud');
          const { ok, request: done } = await operateOnCharge(deps, tx, { charge, type: 'capture', amount: charge.amount });
          if (!ok) throw new ProviderRequestFailedError(done);
          requests.push(done);
          next = applyCapture(charge, charge.amount, now);
        } else {
          assertTransition(charge.status, charge.status, 'antifraud');
          next = { ...charge, updatedAt: now };
        }
      } else {
        assertTransition(charge.status, 'failed', 'antifraud');
        const { ok, request: done } = await operateOnCharge(deps, tx, { charge, type: 'void', amount: charge.amount });
        if (!ok) throw new ProviderRequestFailedError(done);
        requests.push(done);
        next = { ...charge, status: 'failed', declinedCode: antifraudDeclinedCode(status), updatedAt: now };
      }
      return { charge: { ...next, antifraud }, requests };
    },
  );
}
