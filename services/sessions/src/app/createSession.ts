import { randomUUID } from 'node:crypto';
import { checkBeforeChange, jsonCodec, requireClientId, withIdempotency } from '@platform/kit';
import { createdEntry } from '../domain/history';
import { hashPublicKey, sessionPublicKey } from '../domain/publicKey';
import { checkPlatformFee, newSession, type NewSessionInput, type Session } from '../domain/session';
import { SESSION_EVENTS } from '../events/sessionEvents';
import type { SessionDeps } from './deps';
import { addHistory, emitSessionEvent } from './sessionChanges';
import { scheduleDueDate } from './sessionDueJob';
import { viewOf, type SessionView } from './sessionView';

export const CREATE_SESSION_OPERATION = 'sessions.create';

/** The record keeps the session only: its public key is derived again for a replay, never stored. */
const sessionCodec = jsonCodec<Session>();

/**
 * Validates the session (before the idempotency key is claimed: a malformed request claims nothing), asks payments
 * that the merchant is the client's and its platform fee fits, and sellers-and-reviews that the split's sellers can
 * receive; then stores it with its history, due-date job and event. The same X-Idempotency-Key answers the same
 * session again.
 */
export async function createSession(deps: SessionDeps, input: Omit<NewSessionInput, 'id'>, idempotencyKey?: string): Promise<SessionView> {
  const clientId = requireClientId(input.clientId);
  const session = newSession({ ...input, clientId, id: randomUUID() }, deps.clock.now());
  const created = await withIdempotency(
    deps.pool,
    { clientId, key: idempotencyKey, operation: CREATE_SESSION_OPERATION, request: input, codec: sessionCodec },
    {
      prepare: async () => {
        await checkBeforeChange(async () => {
          // Also proves the merchant is the client's (not_found otherwise).
          const fee = await deps.payments.platformFee(clientId, session.merchantId);
          checkPlatformFee(session, fee);
          // The sellers of the split are the client's, of the merchant, and can receive: no unknown or foreign id is stored.
          await deps.sellers.checkSplitReceivers(clientId, session.merchantId, session.splitRules.map((r) => r.sellerId));
        });
      },
      commit: async (tx) => {
        const now = session.createdAt;
        await deps.store.insert(tx, session, hashPublicKey(sessionPublicKey(deps.keySecret, session.id)));
        await addHistory(deps, tx, session, createdEntry(session), now);
        await scheduleDueDate(tx, session);
        await emitSessionEvent(deps, tx, SESSION_EVENTS.created, session, now);
        return session;
      },
    },
  );
  deps.outbox?.kick();
  return viewOf(deps, created);
}
