import { errors, jsonCodec, type PoolClient, requireClientId, withIdempotency, withTransaction } from '@platform/kit';
import { type Charge, type SellerAmount, type TransactionRequestRecord } from '../domain/charge';
import { settleOperation, type OperationCause } from '../domain/chargeChanges';
import { canTransition } from '../domain/chargeStatus';
import { waitingStatus } from '../domain/providerStatus';
import { recordChargeEvent } from '../events/chargeEvents';
import type { Reservation } from '../store/chargeStore';
import type { ChargeDeps } from './deps';
import { derivedId } from './derivedId';
import { askProvider, ProviderRequestFailedError, reservedRequest } from './providerRequests';

/** What the charge's provider must do before the charge changes. */
export interface ProviderOperation {
  type: 'capture' | 'void' | 'refund';
  amount: number;
  splitRules?: SellerAmount[] | null;
  cause: OperationCause;
}

/** A change to an existing charge: an operation its provider must do first, or a change made here only. */
export type PlannedChange = { operation: ProviderOperation } | { apply: (current: Charge, at: Date) => Charge };

/** What came before the commit: a change to make here, a provider's success to settle, or a request settled already. */
type Prepared =
  | { kind: 'local' }
  | { kind: 'done'; request: TransactionRequestRecord; cause: OperationCause }
  | { kind: 'accepted'; request: TransactionRequestRecord }
  | { kind: 'settled'; requestId: string };

/** The idempotency record keeps the answer as the kit's JSON of the domain result, as every payments operation does. */
const chargeCodec = jsonCodec<Charge>();

const busy = () => errors.conflict('Another capture, void or refund of this charge is in progress', 'charge_operation_in_progress');

/**
 * The frame of every change to an existing charge. No transaction is open while a provider is asked:
 *
 * 1. reserve, in a short transaction on the locked charge row: the change is planned with the refunds still
 *    being asked counted as refunded, and an operation is stored as a pending request (its key numbered under
 *    the lock). Only refunds run side by side; anything else waits for the charge to be free (409);
 * 2. ask the provider with the reservation's key, no transaction open;
 * 3. settle: a success changes the charge, from the row as it is then (locked again), and writes the event in
 *    the transaction that completes the idempotency record. A failure only marks the request failed, which
 *    releases what it reserved.
 *
 * A provider that takes the operation but settles it later (`pending`) leaves the request pending, marked as
 * accepted, and the charge `capture_pending` or `refund_pending` (a void waits where it is); its notification
 * or the status sync settles it (providerStatus.ts).
 *
 * A retry that takes over an attempt that died finds that attempt's reservation (its id is derived from the
 * idempotency key) and carries it on with the same provider key; `resumeAbandonedOperations` does the same
 * for requests nobody retries.
 */
export async function changeCharge(
  deps: ChargeDeps,
  options: { clientId: string; id: string; idempotencyKey?: string; operation: string; request: unknown },
  plan: (charge: Charge) => PlannedChange,
): Promise<Charge> {
  const clientId = requireClientId(options.clientId);
  const { idempotencyKey: key, operation } = options;
  const earlierId = key ? derivedId(clientId, key, operation, options.request) : undefined;
  const changed = await withIdempotency(
    deps.pool,
    { clientId, key, operation, request: options.request, codec: chargeCodec },
    {
      prepare: async ({ takeover }): Promise<Prepared> => {
        const reserved = await withTransaction(deps.pool, (tx) => reserve(deps, tx, { clientId, id: options.id, earlierId, takeover }, plan));
        if (!('reservation' in reserved)) return reserved;
        const { charge, reservation } = reserved;
        const { outcome, request } = await askProvider(deps, charge, reservation.request);
        if (outcome === 'done') return { kind: 'done', request, cause: reservation.cause };
        if (outcome === 'pending') {
          await deps.store.accept(deps.pool, request, deps.clock.now());
          return { kind: 'accepted', request };
        }
        // The failed request is history although the charge does not change; marking it releases the reservation.
        if (!(await deps.store.settle(deps.pool, request))) return { kind: 'settled', requestId: request.id };
        throw new ProviderRequestFailedError(request);
      },
      commit: async (tx, prepared) => {
        switch (prepared.kind) {
          case 'local':
            return changeHere(deps, tx, clientId, options.id, plan);
          case 'done': {
            const { charge, request } = await settleReserved(deps, tx, prepared.request, prepared.cause);
            if (request.requestStatus !== 'success') throw new ProviderRequestFailedError(request);
            return charge;
          }
          case 'accepted':
            return awaitProvider(deps, tx, prepared.request);
          case 'settled':
            return settledCharge(deps, tx, clientId, options.id, prepared.requestId);
        }
      },
    },
  );
  deps.outbox?.kick();
  return changed;
}

async function lockCharge(deps: ChargeDeps, tx: PoolClient, clientId: string, id: string): Promise<Charge> {
  const charge = await deps.store.findById(tx, clientId, id, { forUpdate: true });
  if (!charge) throw errors.notFound('Charge', id);
  return charge;
}

async function reserve(
  deps: ChargeDeps,
  tx: PoolClient,
  input: { clientId: string; id: string; earlierId: string | undefined; takeover: boolean },
  plan: (charge: Charge) => PlannedChange,
): Promise<{ charge: Charge; reservation: Reservation } | Prepared> {
  const charge = await lockCharge(deps, tx, input.clientId, input.id);
  const pending = await deps.store.reservationsOf(tx, charge.clientId, charge.id);
  const { earlierId } = input;
  if (input.takeover && earlierId) {
    const unfinished = pending.find((r) => r.request.id === earlierId);
    if (unfinished) return { charge, reservation: unfinished };
    const settled = charge.transactionRequests.find((r) => r.id === earlierId);
    if (settled) return { kind: 'settled', requestId: settled.id };
  }
  if (pending.some((r) => r.request.requestType !== 'refund')) throw busy();
  const refunding = pending.reduce((sum, r) => sum + r.request.amount, 0);
  const change = plan({
    ...charge,
    refundedAmount: charge.refundedAmount + refunding,
    transactionRequests: [...charge.transactionRequests, ...pending.map((r) => r.request)],
  });
  if (!('operation' in change)) {
    if (pending.length > 0) throw busy();
    return { kind: 'local' };
  }
  if (pending.length > 0 && change.operation.type !== 'refund') throw busy();
  // A derived id already used belongs to an earlier use of the key, whose record expired.
  const taken = charge.transactionRequests.some((r) => r.id === earlierId) || pending.some((r) => r.request.id === earlierId);
  const { cause, ...operation } = change.operation;
  const request = reservedRequest(
    deps,
    charge,
    pending.map((r) => r.request),
    { ...operation, ...(earlierId && !taken ? { id: earlierId } : {}) },
  );
  const reservation: Reservation = { request, cause, acceptedAt: null };
  await deps.store.reserve(tx, reservation);
  return { charge, reservation };
}

/** A change with no provider request, made on the locked row in the transaction that stores it. */
async function changeHere(deps: ChargeDeps, tx: PoolClient, clientId: string, id: string, plan: (charge: Charge) => PlannedChange): Promise<Charge> {
  const current = await lockCharge(deps, tx, clientId, id);
  if ((await deps.store.reservationsOf(tx, clientId, current.id)).length > 0) throw busy();
  const change = plan(current);
  // The charge moved since it was planned (between the two steps), so that it now needs its provider.
  if (!('apply' in change)) throw busy();
  const next = change.apply(current, deps.clock.now());
  await deps.store.update(tx, next);
  await recordChargeEvent(tx, next, next.updatedAt);
  return next;
}

/** The charge after a request that was settled before this run could: its answer is this run's answer. */
async function settledCharge(deps: ChargeDeps, tx: PoolClient, clientId: string, id: string, requestId: string): Promise<Charge> {
  const current = await lockCharge(deps, tx, clientId, id);
  const request = current.transactionRequests.find((r) => r.id === requestId);
  if (request && request.requestStatus !== 'success') throw new ProviderRequestFailedError(request);
  return current;
}

/**
 * Stores the provider's success on a reserved request and changes the charge, with its event, in the caller's
 * transaction. When another run settled the request first, nothing is written: answers the charge and the
 * request as they are.
 */
export async function settleReserved(
  deps: Pick<ChargeDeps, 'store' | 'clock'>,
  tx: PoolClient,
  done: TransactionRequestRecord,
  cause: OperationCause,
): Promise<{ charge: Charge; request: TransactionRequestRecord }> {
  const settledHere = await deps.store.settle(tx, done);
  const current = await deps.store.findById(tx, done.clientId, done.chargeId, { forUpdate: true });
  if (!current) throw errors.notFound('Charge', done.chargeId);
  const stored = current.transactionRequests.find((r) => r.id === done.id) ?? done;
  if (!settledHere) return { charge: current, request: stored };
  const type = done.requestType;
  if (type !== 'capture' && type !== 'void' && type !== 'refund') throw new Error(`a ${type} request is not an operation on a charge`);
  const next = settleOperation(current, { type, amount: done.amount, cause }, deps.clock.now());
  await deps.store.update(tx, next);
  await recordChargeEvent(tx, next, next.updatedAt);
  return { charge: next, request: stored };
}

/**
 * The charge once its provider accepted an operation to settle later: `capture_pending` or `refund_pending` while
 * the request is still pending (a notification may have settled it meanwhile: the charge is then answered as it
 * is), with its event, and the status sync starts over on it.
 */
export async function awaitProvider(
  deps: Pick<ChargeDeps, 'store' | 'clock'>,
  tx: PoolClient,
  request: TransactionRequestRecord,
): Promise<Charge> {
  const current = await deps.store.findById(tx, request.clientId, request.chargeId, { forUpdate: true });
  if (!current) throw errors.notFound('Charge', request.chargeId);
  const type = request.requestType;
  const waiting = type === 'capture' || type === 'void' || type === 'refund' ? waitingStatus(type) : undefined;
  const stillPending = (await deps.store.reservationsOf(tx, current.clientId, current.id)).some((r) => r.request.id === request.id);
  if (!waiting || !stillPending || current.status === waiting || !canTransition(current.status, waiting, type === 'capture' ? 'capture' : 'refund')) {
    return current;
  }
  const next: Charge = { ...current, status: waiting, updatedAt: deps.clock.now() };
  await deps.store.update(tx, next);
  await deps.store.setSync(tx, next.clientId, next.id, { nextAt: null, attempts: 0, stoppedAt: null });
  await recordChargeEvent(tx, next, next.updatedAt);
  return next;
}
