import { withTransaction, type PoolClient } from '@platform/kit';
import type { Charge, TransactionRequestRecord } from '../domain/charge';
import { canTransition } from '../domain/chargeStatus';
import { applyProviderStatus, operationVerdict, type ObservedStatus } from '../domain/providerStatus';
import { recordChargeEvent } from '../events/chargeEvents';
import type { Reservation } from '../store/chargeStore';
import { settleReserved } from './changeCharge';
import type { ChargeDeps } from './deps';
import { reservedRequest } from './providerRequests';

type FollowDeps = Pick<ChargeDeps, 'pool' | 'store' | 'clock' | 'outbox'>;

/**
 * Makes a charge follow what its provider says of it (a notification, the status sync), on the locked row:
 * - an operation the provider accepted as pending is settled when the provider shows it done (as its own answer
 *   would have been: amounts, status, event), or refused (the request failed, the charge back to where it was);
 * - else the charge moves as `applyProviderStatus` allows, with its event; a refund the platform never asked is
 *   recorded as a refund request of its own, so payouts and refund splits count it.
 * While a capture, void or refund is being asked right now (reserved, not yet answered) nothing changes: its own
 * answer comes first, and the next notification or sync sees the provider again. Answers whether it changed.
 */
export async function followProvider(deps: FollowDeps, target: { clientId: string; id: string }, observed: ObservedStatus): Promise<boolean> {
  const changed = await withTransaction(deps.pool, async (tx) => {
    const charge = await deps.store.findById(tx, target.clientId, target.id, { forUpdate: true });
    if (!charge) return false;
    const reservations = await deps.store.reservationsOf(tx, charge.clientId, charge.id);
    if (reservations.some((r) => r.acceptedAt === null)) return false;
    if (reservations.length > 0) return settleAccepted(deps, tx, charge, reservations, observed);
    const change = applyProviderStatus(charge, observed, deps.clock.now());
    if (!change) return false;
    await deps.store.update(tx, change.charge);
    if (change.unaskedRefund > 0) await recordUnaskedRefund(deps, tx, change.charge, change.unaskedRefund, observed);
    await deps.store.setSync(tx, charge.clientId, charge.id, { nextAt: null, attempts: 0, stoppedAt: null });
    await recordChargeEvent(tx, change.charge, change.charge.updatedAt);
    return true;
  });
  if (changed) deps.outbox?.kick();
  return changed;
}

const said = (observed: ObservedStatus) => observed.providerStatus ?? observed.status;

async function settleAccepted(deps: FollowDeps, tx: PoolClient, charge: Charge, reservations: Reservation[], observed: ObservedStatus): Promise<boolean> {
  let current = charge;
  let changed = false;
  for (const [index, { request, cause }] of reservations.entries()) {
    const type = request.requestType;
    if (type !== 'capture' && type !== 'void' && type !== 'refund') continue;
    const verdict = operationVerdict({ type, amount: request.amount }, current, observed);
    if (verdict === 'waiting') continue;
    const at = deps.clock.now();
    if (verdict === 'done') {
      const done: TransactionRequestRecord = { ...request, requestStatus: 'success', message: `${type} done (provider: ${said(observed)})`, updatedAt: at };
      current = (await settleReserved(deps, tx, done, cause)).charge;
      changed = true;
      continue;
    }
    const refused: TransactionRequestRecord = { ...request, requestStatus: 'failed', message: `${type} refused (provider: ${said(observed)})`, updatedAt: at };
    if (!(await deps.store.settle(tx, refused))) continue;
    changed = true;
    // Back to where the charge was before it waited, unless another refund is still waiting.
    const back = current.status === 'capture_pending' ? 'pre_authorized' : current.status === 'refund_pending' ? 'authorized' : undefined;
    const othersWaiting = reservations.slice(index + 1).some((r) => r.request.requestType === 'refund');
    if (!back || othersWaiting || !canTransition(current.status, back, 'notification')) continue;
    current = { ...current, status: back, updatedAt: at };
    await deps.store.update(tx, current);
    await recordChargeEvent(tx, current, at);
  }
  if (changed) await deps.store.setSync(tx, charge.clientId, charge.id, { nextAt: null, attempts: 0, stoppedAt: null });
  return changed;
}

/** A refund made at the provider, not through the platform: on record as a successful refund request. */
async function recordUnaskedRefund(deps: FollowDeps, tx: PoolClient, charge: Charge, amount: number, observed: ObservedStatus): Promise<void> {
  const request = reservedRequest(deps, charge, [], { type: 'refund', amount });
  await deps.store.reserve(tx, { request, cause: { by: 'client' }, acceptedAt: null });
  await deps.store.settle(tx, {
    ...request,
    requestStatus: 'success',
    transactionId: authorizationOf(charge),
    message: `refund seen at the provider (${said(observed)})`,
  });
}

function authorizationOf(charge: Charge): string | null {
  return charge.transactionRequests.filter((r) => r.requestType === 'authorization' && r.requestStatus === 'success').at(-1)?.transactionId ?? null;
}
