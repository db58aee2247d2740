import { withTransaction } from '@platform/kit';
import type { SessionDeps } from './deps';
import { countOutcome, noted, settleReleased } from './paymentAccounting';
import { loadSession } from './sessionView';

/** How long an attempt may hold its place without an answer before the sweep gives it back (its process died). */
export const ATTEMPT_PLACE_TIMEOUT_MS = 5 * 60_000;

/**
 * Settles the places of attempts that began more than ATTEMPT_PLACE_TIMEOUT_MS ago and never settled (their process
 * died, or payments never answered): each is paired with an outcome of its session that no answer counted (its
 * charge's event came), else given back. Then the outcomes left uncounted that long are counted without a place.
 */
export async function releaseStalePlaces(deps: SessionDeps, limit = 500): Promise<number> {
  const now = deps.clock.now();
  const before = new Date(now.getTime() - ATTEMPT_PLACE_TIMEOUT_MS);
  const settled = await withTransaction(deps.pool, async (tx) => {
    const stale = await deps.store.takeStalePlaces(tx, before, limit, now);
    for (const { clientId, sessionId } of stale) {
      const current = await loadSession(deps, tx, clientId, sessionId, true);
      const outcome = await deps.store.takeUncounted(tx, clientId, sessionId, now);
      if (outcome) {
        await countOutcome(deps, tx, current, outcome.state, noted(current, outcome), now, true);
      } else {
        await settleReleased(deps, tx, current, { status: 'error', amount: current.amount, paymentType: '' }, 'paymentFailed', now);
      }
    }
    const orphans = await deps.store.takeStaleUncounted(tx, before, limit, now);
    for (const outcome of orphans) {
      const current = await loadSession(deps, tx, outcome.clientId, outcome.sessionId, true);
      await countOutcome(deps, tx, current, outcome.state, noted(current, outcome), now, false);
    }
    return stale.length + orphans.length;
  });
  if (settled > 0) deps.log.warn({ settled }, 'settled session payment attempts that never got an answer');
  return settled;
}
