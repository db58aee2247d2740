import { isUuid, scheduleJobs, traceOfEvent } from '@platform/kit';
import { randomUUID } from 'node:crypto';
import type { DomainEvent, Queryable } from '@platform/kit';
import { publicKindOf, toPublicEvent } from '../domain/publicEvents';
import type { NewDelivery } from '../store/deliveryStore';
import type { WebhookDeps } from './deps';
import { deliveryJob } from './deliveryJob';
import type { FirstAttempt } from './firstAttempts';

/**
 * Turns domain events into a delivery for every active webhook of each event's client that listens to it (and
 * existed when it happened), each with its job, all in the consumer's transaction: the events are acknowledged only
 * once every delivery they owe is stored. The events of a batch cost three statements together: the listeners of all
 * of them, the deliveries, the jobs. Events of the webhooks context and other internal events owe nothing.
 *
 * The jobs are due `jobDelayMs` from now: 0 when the job makes the first attempt; a little later when the process
 * makes it right after this transaction commits (`FirstAttempts`), the job then being the fallback should that
 * attempt not be made. Answers the deliveries created, each with its job.
 */
export async function fanOutEvents(
  deps: Pick<WebhookDeps, 'webhooks' | 'deliveries' | 'clock'>,
  events: readonly DomainEvent[],
  tx: Queryable,
  options: { jobDelayMs?: number } = {},
): Promise<FirstAttempt[]> {
  const owed = events.flatMap((event) => {
    const kind = publicKindOf(event.type);
    const occurredAt = new Date(event.occurredAt);
    if (!kind || !isUuid(event.clientId) || !isUuid(event.id) || Number.isNaN(occurredAt.getTime())) return [];
    return [{ event, kind, clientId: event.clientId.toLowerCase(), occurredAt }];
  });
  if (owed.length === 0) return [];
  const listeners = await deps.webhooks.listenersOfAny(tx, [...new Set(owed.map((o) => o.clientId))], [...new Set(owed.map((o) => o.kind.event))]);
  const now = deps.clock.now();
  const deliveries: NewDelivery[] = [];
  for (const { event, kind, clientId, occurredAt } of owed) {
    for (const webhook of listeners) {
      if (webhook.clientId !== clientId || (webhook.event !== '*' && webhook.event !== kind.event) || webhook.createdAt > occurredAt) continue;
      deliveries.push({
        id: randomUUID(),
        clientId: webhook.clientId,
        webhookId: webhook.id,
        eventId: event.id,
        event: kind.event,
        body: JSON.stringify(toPublicEvent(event, webhook.version)),
        at: now,
      });
    }
  }
  const inserted = await deps.deliveries.insertMany(tx, deliveries);
  const created = deliveries.filter((d) => inserted.has(d.id));
  // Each delivery continues the trace of the call that caused its event (when tracing is on).
  const traces = new Map(owed.map(({ event }) => [event.id, traceOfEvent(event)]));
  const runAt = new Date(now.getTime() + (options.jobDelayMs ?? 0));
  const jobIds = await scheduleJobs(
    tx,
    created.map((d) => deliveryJob({ deliveryId: d.id, clientId: d.clientId, round: 0 }, runAt, traces.get(d.eventId))),
  );
  return created.map((d, n) => ({ clientId: d.clientId, deliveryId: d.id, jobId: jobIds[n] ?? null, trace: traces.get(d.eventId) }));
}

/** One event's deliveries (see `fanOutEvents`). */
export function fanOutEvent(
  deps: Pick<WebhookDeps, 'webhooks' | 'deliveries' | 'clock'>,
  event: DomainEvent,
  tx: Queryable,
  options: { jobDelayMs?: number } = {},
): Promise<FirstAttempt[]> {
  return fanOutEvents(deps, [event], tx, options);
}
