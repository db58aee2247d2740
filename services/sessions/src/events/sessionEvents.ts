import { SESSION_EVENT_TYPES, toSessionJson } from '@platform/api-model';
import { enqueueEvent, type Queryable } from '@platform/kit';
import type { Session } from '../domain/session';
import { toSessionMessage } from '../wire/sessionMessages';

export const SESSION_EVENTS = SESSION_EVENT_TYPES;

export type SessionEventType = (typeof SESSION_EVENTS)[keyof typeof SESSION_EVENTS];

/**
 * Writes the event in the transaction of the change, with the session as it is after the change, in the public
 * JSON of the REST API (the mapper the gateway applies to the gRPC answer).
 */
export async function recordSessionEvent(
  tx: Queryable,
  type: SessionEventType,
  session: Session,
  view: { publicKey: string; publicUrl: string },
  occurredAt: Date,
): Promise<void> {
  await enqueueEvent(tx, { type, clientId: session.clientId, data: toSessionJson(toSessionMessage(session, view.publicKey), view.publicUrl), occurredAt });
}
