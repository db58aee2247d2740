import { AckPolicy, DeliverPolicy, nanos, type ConsumerMessages, type JsMsg, type JetStreamManager, type NatsConnection } from 'nats';
import type { Pool } from 'pg';
import { z } from 'zod';
import { withTransaction, type Queryable } from '../db';
import type { Logger } from '../log';
import { addCollector, counter, gauge } from '../metrics';
import { sleep } from '../time';
import { isUuid } from '../ids';
import { contextFrom, inSpan, linksTo, SpanKind, type TraceCarrier } from '../trace';
import { EVENTS_STREAM, type DomainEvent } from './stream';

/** The trace context each consumed event was published in, for work it leaves for later (a job per event). */
const eventTraces = new WeakMap<DomainEvent, TraceCarrier>();

export function traceOfEvent(event: DomainEvent): TraceCarrier | undefined {
  return eventTraces.get(event);
}

/**
 * A schema of domain events whose `data` has the given shape: what a consumer gives as `parse` so that each event is
 * checked when it arrives instead of cast. The envelope's ids are UUIDs and `occurredAt` a date.
 */
export function eventSchema<S extends z.ZodType>(data: S) {
  return z.object({
    id: z.string().refine(isUuid, 'not a UUID'),
    type: z.string().min(1),
    occurredAt: z.string().refine((s) => !Number.isNaN(Date.parse(s)), 'not a date'),
    clientId: z.string().refine(isUuid, 'not a UUID'),
    data,
  });
}

export interface ConsumerOptions<E extends DomainEvent = DomainEvent> {
  nc: NatsConnection;
  pool: Pool;
  log: Logger;
  /** Durable consumer name; also the key of its processed-event records. */
  durable: string;
  /** One subject filter (nats-server 2.9 takes one); omit for every event. */
  filterSubject?: string;
  /**
   * Checks each event as it arrives (an `eventSchema(...).parse`, say). An event it refuses (throws) is logged and
   * dropped like a message that is not JSON: terminated, never handled, never redelivered.
   */
  parse?: (event: unknown) => E;
  /** Applies the event inside the transaction that records it as processed. */
  handle?: (event: E, tx: Queryable) => Promise<void>;
  /**
   * Instead of `handle`: applies, in order, the events that arrived together (not yet processed) inside the one
   * transaction that records them, so a handler can do for many events what it would do for one (one query each).
   */
  handleBatch?: (events: E[], tx: Queryable) => Promise<void>;
  ackWaitMs?: number;
}

/** Events applied in one transaction at most. */
const BATCH_EVENTS = 64;

const consumedTotal = () =>
  counter({ name: 'events_consumed_total', help: 'Events handled by a durable consumer: applied, duplicate (already applied) or failed', labelNames: ['durable', 'outcome'] });

/** A message's trace headers, when it carries them. */
function traceHeadersOf(msg: JsMsg): TraceCarrier | undefined {
  const traceparent = msg.headers?.get('traceparent');
  if (!traceparent) return undefined;
  const tracestate = msg.headers?.get('tracestate');
  return tracestate ? { traceparent, tracestate } : { traceparent };
}

/**
 * A durable consumer's lag at scrape time: events in the stream it has not been given yet, and events given and not
 * yet acknowledged.
 */
function collectConsumerLag(jsm: JetStreamManager, durable: string): () => void {
  const pending = gauge({ name: 'nats_consumer_pending_messages', help: 'Events in the stream not yet delivered to the durable consumer', labelNames: ['durable'] });
  const ackPending = gauge({ name: 'nats_consumer_ack_pending_messages', help: 'Events delivered to the durable consumer and not yet acknowledged', labelNames: ['durable'] });
  return addCollector(async () => {
    const info = await jsm.consumers.info(EVENTS_STREAM, durable);
    pending.set({ durable }, info.num_pending);
    ackPending.set({ durable }, info.num_ack_pending);
  });
}

/**
 * A durable JetStream consumer that applies each event once: the handler runs in a transaction that also
 * records the event id, and the message is acknowledged only after that commit. A redelivered event whose id
 * is already recorded is acknowledged without running the handler again. Events that arrive together are applied
 * together, in order, in one transaction (one commit for many); a failure in a batch applies its events one by one.
 */
export async function startConsumer<E extends DomainEvent = DomainEvent>(options: ConsumerOptions<E>): Promise<{ stop: () => Promise<void> }> {
  const { nc, pool, log, durable } = options;
  const { handle, handleBatch } = options;
  if (!handle === !handleBatch) throw new Error(`consumer ${durable}: give handle or handleBatch, one of them`);
  const apply = handleBatch ?? (async (events: E[], tx: Queryable) => {
    for (const event of events) await handle!(event, tx);
  });
  const jsm = await nc.jetstreamManager();
  const ackWaitMs = options.ackWaitMs ?? 30_000;
  const config = {
    durable_name: durable,
    ack_policy: AckPolicy.Explicit,
    deliver_policy: DeliverPolicy.All,
    ack_wait: nanos(ackWaitMs),
    max_deliver: -1,
    ...(options.filterSubject ? { filter_subject: options.filterSubject } : {}),
  };
  try {
    await jsm.consumers.info(EVENTS_STREAM, durable);
  } catch {
    await jsm.consumers.add(EVENTS_STREAM, config);
  }
  const js = nc.jetstream();
  const consumer = await js.consumers.get(EVENTS_STREAM, durable);
  let messages: ConsumerMessages | undefined;
  let stopped = false;
  // This consumer's series, made once: an event then costs no registry lookup or label hashing.
  const consumed = consumedTotal();
  const counted = { applied: consumed.labels({ durable, outcome: 'applied' }), duplicate: consumed.labels({ durable, outcome: 'duplicate' }), failed: consumed.labels({ durable, outcome: 'failed' }) };

  /** Applies one event in a transaction of its own; answers whether it was acknowledged. */
  const applyOne = async (msg: JsMsg, event: E): Promise<void> => {
    try {
      const trace = eventTraces.get(event);
      const applied = await inSpan(
        `${event.type} process`,
        { kind: SpanKind.CONSUMER, parent: contextFrom(trace), attributes: { 'messaging.system': 'nats', 'messaging.consumer.group.name': durable } },
        () =>
          withTransaction(pool, async (tx) => {
            const fresh = await tx.query('INSERT INTO processed_events (consumer, event_id) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING event_id', [durable, event.id]);
            if (fresh.rowCount === 0) return false;
            await apply([event], tx);
            return true;
          }),
      );
      msg.ack();
      (applied ? counted.applied : counted.duplicate).inc();
    } catch (error) {
      counted.failed.inc();
      const delay = Math.min(60_000, 1000 * 2 ** Math.min(msg.info.redeliveryCount, 6));
      log.warn({ err: error, eventId: event.id, type: event.type, delay }, 'event handling failed; redelivery scheduled');
      msg.nak(delay);
    }
  };

  /**
   * Applies the events of a batch in order, in one transaction with one statement for their ids (one commit for many
   * events); when any of them fails, the batch is rolled back and each event is applied on its own instead.
   */
  const applyBatch = async (batch: Array<{ msg: JsMsg; event: E }>): Promise<void> => {
    if (batch.length === 1) return applyOne(batch[0]!.msg, batch[0]!.event);
    try {
      const links = linksTo(batch.map((b) => eventTraces.get(b.event)));
      const attributes = { 'messaging.system': 'nats', 'messaging.batch.message_count': batch.length };
      const applied = await inSpan(`${durable} process batch`, { kind: SpanKind.CONSUMER, links, attributes }, () =>
        withTransaction(pool, async (tx) => {
          const { rows } = await tx.query<{ event_id: string }>(
            'INSERT INTO processed_events (consumer, event_id) SELECT $1, id FROM unnest($2::uuid[]) AS id ON CONFLICT DO NOTHING RETURNING event_id',
            [durable, batch.map((b) => b.event.id)],
          );
          const fresh = new Set(rows.map((r) => r.event_id));
          // An event may come twice in one batch (published again under another message id): it applies once.
          const events: E[] = [];
          for (const { event } of batch) {
            if (fresh.delete(event.id)) events.push(event);
          }
          await apply(events, tx);
          return events.length;
        }),
      );
      for (const { msg } of batch) msg.ack();
      counted.applied.inc(applied);
      if (applied < batch.length) counted.duplicate.inc(batch.length - applied);
    } catch {
      for (const { msg, event } of batch) await applyOne(msg, event);
    }
  };

  const loop = (async () => {
    while (!stopped) {
      try {
        messages = await consumer.consume({ max_messages: 256 });
        const incoming = messages[Symbol.asyncIterator]();
        let waiting: Promise<IteratorResult<JsMsg>> | undefined;
        const next = () => (waiting ??= incoming.next());
        for (;;) {
          const first = await next();
          waiting = undefined;
          if (first.done) break;
          // The first message, then every one already here (they arrive within the same tick), up to a batch.
          const arrived: JsMsg[] = [first.value];
          while (arrived.length < BATCH_EVENTS) {
            const more = await Promise.race([next(), new Promise<'later'>((resolve) => setImmediate(() => resolve('later')))]);
            if (more === 'later') break;
            waiting = undefined;
            if (more.done) break;
            arrived.push(more.value);
          }
          const batch: Array<{ msg: JsMsg; event: E }> = [];
          for (const msg of arrived) {
            let event: E;
            try {
              const raw: unknown = JSON.parse(Buffer.from(msg.data).toString('utf8'));
              event = options.parse ? options.parse(raw) : (raw as E);
            } catch (error) {
              log.error({ err: error, subject: msg.subject, durable }, 'malformed event dropped');
              msg.term();
              continue;
            }
            const trace = traceHeadersOf(msg);
            if (trace) eventTraces.set(event, trace);
            batch.push({ msg, event });
          }
          if (batch.length > 0) await applyBatch(batch);
        }
      } catch (error) {
        if (stopped) break;
        log.warn({ err: error, durable }, 'consumer interrupted; resuming');
        await sleep(1000);
      }
    }
  })();

  const stopCollecting = collectConsumerLag(jsm, durable);
  return {
    stop: async () => {
      stopCollecting();
      stopped = true;
      messages?.stop();
      await loop;
    },
  };
}
