import { withTransaction, type PoolClient } from '@platform/kit';
import type { NotifiedOperation } from '../../connectors/domain/types';
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
 * `fromNotificationBody`: the status was read from a notification's own body (Adyen's AUTHORISATION, posted a moment
 * after its answer, may come while a refund asked since is pending). Such a status without a refunded amount says
 * nothing of that refund: it waits for its own notification or for the provider to be asked.
 */
export async function followProvider(
  deps: FollowDeps,
  target: { clientId: string; id: string },
  observed: ObservedStatus,
  options: { fromNotificationBody?: boolean } = {},
): Promise<boolean> {
  const changed = await withTransaction(deps.pool, async (tx) => {
    const charge = await deps.store.findById(tx, target.clientId, target.id, { forUpdate: true });
    if (!charge) return false;
    const reservations = await deps.store.reservationsOf(tx, charge.clientId, charge.id);
    if (reservations.some((r) => r.acceptedAt === null)) return false;
    if (reservations.length > 0) return settleAccepted(deps, tx, charge, reservations, observed, options.fromNotificationBody === true);
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

async function settleAccepted(
  deps: FollowDeps,
  tx: PoolClient,
  charge: Charge,
  reservations: Reservation[],
  observed: ObservedStatus,
  fromNotificationBody: boolean,
): Promise<boolean> {
  let current = charge;
  let changed = false;
  for (const [index, reservation] of reservations.entries()) {
    const type = reservation.request.requestType;
    if (type !== 'capture' && type !== 'void' && type !== 'refund') continue;
    if (type === 'refund' && fromNotificationBody && observed.refundedAmount === undefined) continue;
    const verdict = operationVerdict({ type, amount: reservation.request.amount }, current, observed);
    if (verdict === 'waiting') continue;
    const othersWaiting = reservations.slice(index + 1).some((r) => r.request.requestType === 'refund');
    const settled = await settleOne(deps, tx, current, reservation, verdict, said(observed), othersWaiting);
    if (!settled) continue;
    current = settled;
    changed = true;
  }
  if (changed) await deps.store.setSync(tx, charge.clientId, charge.id, { nextAt: null, attempts: 0, stoppedAt: null });
  return changed;
}

/** One accepted operation, done or refused: the charge as it is then, or undefined when it was settled already. */
async function settleOne(
  deps: FollowDeps,
  tx: PoolClient,
  current: Charge,
  { request, cause }: Reservation,
  verdict: 'done' | 'refused',
  providerSaid: string,
  othersWaiting: boolean,
): Promise<Charge | undefined> {
  const type = request.requestType;
  const at = deps.clock.now();
  if (verdict === 'done') {
    const done: TransactionRequestRecord = { ...request, requestStatus: 'success', message: `${type} done (provider: ${providerSaid})`, updatedAt: at };
    return (await settleReserved(deps, tx, done, cause)).charge;
  }
  const refused: TransactionRequestRecord = { ...request, requestStatus: 'failed', message: `${type} refused (provider: ${providerSaid})`, updatedAt: at };
  if (!(await deps.store.settle(tx, refused))) return undefined;
  // Back to where the charge was before it waited, unless another refund is still waiting.
  const back = current.status === 'capture_pending' ? 'pre_authorized' : current.status === 'refund_pending' ? 'authorized' : undefined;
  if (!back || othersWaiting || !canTransition(current.status, back, 'notification')) return current;
  const moved: Charge = { ...current, status: back, updatedAt: at };
  await deps.store.update(tx, moved);
  await recordChargeEvent(tx, moved, at);
  return moved;
}

/**
 * A notification about one capture, cancel or refund, by the provider's reference for it: the accepted operation
 * with that reference is settled (done or refused), once; a notification of one already settled changes nothing,
 * whatever status it implies (a REFUND heard again never refunds twice). One the platform never asked (a refund made
 * at the provider) is recorded with its amount and reference, so it too counts once; a capture or cancel it never
 * asked follows the status. 'busy': an operation on the charge is being asked right now, so the notification cannot be
 * told apart from its answer: the caller answers the provider with an error, and it sends the notification again.
 */
export async function followOperation(
  deps: FollowDeps,
  target: { clientId: string; id: string },
  operation: NotifiedOperation,
  observed: ObservedStatus,
): Promise<'changed' | 'unchanged' | 'busy'> {
  const outcome = await withTransaction(deps.pool, async (tx): Promise<'changed' | 'unchanged' | 'busy' | 'follow'> => {
    const charge = await deps.store.findById(tx, target.clientId, target.id, { forUpdate: true });
    if (!charge) return 'unchanged';
    const named = (r: TransactionRequestRecord) => r.requestType === operation.type && r.transactionId === operation.reference;
    if (charge.transactionRequests.some((r) => named(r) && r.requestStatus !== 'pending')) return 'unchanged';
    const reservations = await deps.store.reservationsOf(tx, charge.clientId, charge.id);
    const reservation = reservations.find((r) => named(r.request));
    if (reservation) {
      if (reservation.acceptedAt === null) return 'busy';
      const othersWaiting = reservations.some((r) => r !== reservation && r.request.requestType === 'refund');
      const settled = await settleOne(deps, tx, charge, reservation, operation.succeeded ? 'done' : 'refused', said(observed), othersWaiting);
      if (!settled) return 'unchanged';
      await deps.store.setSync(tx, charge.clientId, charge.id, { nextAt: null, attempts: 0, stoppedAt: null });
      return 'changed';
    }
    if (reservations.some((r) => r.acceptedAt === null)) return 'busy';
    if (operation.type !== 'refund' || !operation.succeeded || !(operation.amount !== undefined && operation.amount > 0)) return 'follow';
    // A refund made at the provider: on record once, under the provider's reference.
    if (charge.status !== 'authorized' && charge.status !== 'refund_pending') return 'unchanged';
    const refunded = Math.min(charge.capturedAmount, charge.refundedAmount + operation.amount);
    const amount = refunded - charge.refundedAmount;
    if (amount <= 0) return 'unchanged';
    const at = deps.clock.now();
    const status = refunded >= charge.capturedAmount ? 'voided' : charge.status;
    const next: Charge = { ...charge, status, refundedAmount: refunded, updatedAt: at };
    await deps.store.update(tx, next);
    await recordUnaskedRefund(deps, tx, next, amount, observed, operation.reference);
    await recordChargeEvent(tx, next, at);
    return 'changed';
  });
  if (outcome === 'follow') return (await followProvider(deps, target, observed)) ? 'changed' : 'unchanged';
  if (outcome === 'changed') deps.outbox?.kick();
  return outcome;
}

/** A refund made at the provider, not through the platform: on record as a successful refund request. */
async function recordUnaskedRefund(deps: FollowDeps, tx: PoolClient, charge: Charge, amount: number, observed: ObservedStatus, reference?: string): Promise<void> {
  const request = reservedRequest(deps, charge, [], { type: 'refund', amount });
  await deps.store.reserve(tx, { request, cause: { by: 'client' }, acceptedAt: null });
  await deps.store.settle(tx, {
    ...request,
    requestStatus: 'success',
    transactionId: reference ?? authorizationOf(charge),
    message: `refund seen at the provider (${said(observed)})`,
  });
}

function authorizationOf(charge: Charge): string | null {
  return charge.transactionRequests.filter((r) => r.requestType === 'authorization' && r.requestStatus === 'success').at(-1)?.transactionId ?? null;
}
