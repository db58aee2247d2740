import { withTransaction } from '@platform/kit';
import type { Reservation } from '../store/chargeStore';
import { awaitProvider, settleReserved } from './changeCharge';
import type { ChargeDeps } from './deps';
import { askProvider } from './providerRequests';

/**
 * A capture, void or refund still pending this long after it was reserved was abandoned: its process died
 * between asking the provider and settling. Far above the longest a live request takes (PROVIDER_TIMEOUT_MS is
 * at most a minute), and above the idempotency in-flight timeout, so a client's retry usually resumes it first.
 */
export const ABANDONED_AFTER_MS = 5 * 60_000;

/**
 * Settles abandoned requests (never one its provider accepted as pending: that one waits for the provider): each is asked again with its own key, so the provider answers what it did the
 * first time (or does it now, if the first attempt never reached it), and the charge changes as the request
 * that reserved it meant. Racing a late original or a client's retry is harmless: settling is guarded, and
 * all of them sent the same key. Answers how many were resumed.
 */
export async function resumeAbandonedOperations(deps: ChargeDeps, limit = 10): Promise<number> {
  const before = new Date(deps.clock.now().getTime() - ABANDONED_AFTER_MS);
  const abandoned = await deps.store.abandonedReservations(deps.pool, before, limit);
  const results = await Promise.allSettled(abandoned.map((reservation) => resume(deps, reservation)));
  results.forEach((result, i) => {
    if (result.status === 'rejected') {
      deps.log.warn({ err: result.reason, requestId: abandoned[i]!.request.id }, 'could not resume an abandoned charge operation');
    }
  });
  if (abandoned.length > 0) deps.outbox?.kick();
  return abandoned.length;
}

async function resume(deps: ChargeDeps, { request, cause }: Reservation): Promise<void> {
  const charge = await deps.store.findById(deps.pool, request.clientId, request.chargeId);
  if (!charge) return;
  const { outcome, request: answered } = await askProvider(deps, charge, request);
  if (outcome === 'failed') {
    await deps.store.settle(deps.pool, answered);
    return;
  }
  if (outcome === 'pending') {
    // The provider has it now: never asked again here; its notification or the status sync settles it.
    await deps.store.accept(deps.pool, answered, deps.clock.now());
    await withTransaction(deps.pool, (tx) => awaitProvider(deps, tx, answered));
    return;
  }
  await withTransaction(deps.pool, (tx) => settleReserved(deps, tx, answered, cause));
}
