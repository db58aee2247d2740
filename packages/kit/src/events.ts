import { randomUUID } from 'node:crypto';
import { SERVICES } from '@platform/catalog';
import {
  AckPolicy,
  connect,
  DeliverPolicy,
  headers as natsHeaders,
  nanos,
  RetentionPolicy,
  StorageType,
  type ConsumerMessages,
  type JsMsg,
  type JetStreamClient,
  type JetStreamManager,
  type NatsConnection,
  type StreamConfig,
} from 'nats';
import type { Pool } from 'pg';
import { withTransaction, type Queryable } from './db';
import type { Logger } from './log';
import { addCollector, counter, gauge } from './metrics';
import { sleep } from './time';
import { contextFrom, inSpan, linksTo, SpanKind, traceCarrier, type TraceCarrier } from './trace';

/** The envelope of every domain event, on the wire and in the outbox. */
export interface DomainEvent<T = unknown> {
  id: string;
  /** `<context>.<entity>.<event>`, also the NATS subject. */
  type: string;
  occurredAt: string;
  clientId: string;
  data: T;
}

export const EVENTS_STREAM = 'EVENTS';
/**
 * The bounded contexts that publish; the stream captures `<context>.>` for each: every service of the catalog
 * (packages/catalog), so a new service's events are kept without an edit here, and the contexts named before
 * their services exist.
 */
export const EVENT_CONTEXTS: readonly string[] = [
  ...new Set([...SERVICES.map((s) => s.name), 'payments', 'sessions', 'customers', 'sellers', 'payouts', 'settings', 'webhooks', 'subscriptions']),
];
/** JetStream drops a second publish with the same Nats-Msg-Id inside this window. */
const DUPLICATE_WINDOW_MS = 10 * 60_000;

export async function connectNats(url: string, name: string, log: Logger): Promise<NatsConnection> {
  const nc = await connect({ servers: url.split(','), name, maxReconnectAttempts: -1, reconnectTimeWait: 1000 });
  void (async () => {
    for await (const s of nc.status()) {
      if (s.type === 'disconnect' || s.type === 'reconnect' || s.type === 'error') {
        // `data` is the server for a (dis)connection and the error itself for an error.
        log.warn({ nats: s.type, ...(s.data instanceof Error ? { err: s.data } : { server: String(s.data) }) }, 'nats connection status');
      }
    }
  })();
  return nc;
}

/** What an operator decides about the event stream (EVENTS_STREAM_* variables; the chart's `global.nats.stream`). */
export interface EventStreamSettings {
  /** Copies of each event on as many NATS servers (1 to 5; 3 in a production cluster). */
  replicas: number;
  /** How long an event is kept, in milliseconds; 0 keeps it until the storage limits drop it. */
  maxAgeMs: number;
  storage: 'file' | 'memory';
}

export const DEFAULT_EVENT_STREAM: EventStreamSettings = { replicas: 1, maxAgeMs: 7 * 24 * 3600_000, storage: 'file' };

/** The stream's configuration as a service asks for it when it creates the stream. */
export function eventStreamConfig(settings: EventStreamSettings): Partial<StreamConfig> & { name: string; subjects: string[] } {
  return {
    name: EVENTS_STREAM,
    subjects: EVENT_CONTEXTS.map((c) => `${c}.>`),
    retention: RetentionPolicy.Limits,
    storage: settings.storage === 'memory' ? StorageType.Memory : StorageType.File,
    num_replicas: settings.replicas,
    max_age: nanos(settings.maxAgeMs),
    duplicate_window: nanos(Math.min(DUPLICATE_WINDOW_MS, settings.maxAgeMs || DUPLICATE_WINDOW_MS)),
  };
}

/** The fields a service may raise on an existing stream; every other field stays as the stream has it. */
export type StreamChanges = Pick<StreamConfig, 'subjects' | 'num_replicas' | 'max_age' | 'duplicate_window'>;

/** The longer of two ages, where 0 means no limit (the longest). */
function longer(a: number, b: number): number {
  return a === 0 || b === 0 ? 0 : Math.max(a, b);
}

/**
 * What a service changes on a stream that exists: it adds what it needs and the stream lacks (its subjects, more
 * replicas, a longer age or dedupe window) and never takes away what an operator set (fewer replicas, a shorter age,
 * other subjects, limits it does not manage). Undefined when the stream already gives everything.
 */
export function strengthenedStream(existing: StreamConfig, wanted: ReturnType<typeof eventStreamConfig>): StreamChanges | undefined {
  const subjects = [...existing.subjects, ...wanted.subjects.filter((s) => !existing.subjects.includes(s))];
  const next: StreamChanges = {
    subjects,
    num_replicas: Math.max(existing.num_replicas, wanted.num_replicas ?? 1),
    max_age: longer(existing.max_age, wanted.max_age ?? 0),
    duplicate_window: Math.max(existing.duplicate_window, wanted.duplicate_window ?? 0),
  };
  // A dedupe window longer than the age would be refused; an operator's shorter age keeps the window inside it.
  if (next.max_age > 0 && next.duplicate_window > next.max_age) next.duplicate_window = next.max_age;
  const changed =
    subjects.length !== existing.subjects.length ||
    next.num_replicas !== existing.num_replicas ||
    next.max_age !== existing.max_age ||
    next.duplicate_window !== existing.duplicate_window;
  return changed ? next : undefined;
}

/**
 * Creates the event stream with the operator's settings, or brings a stream that exists up to them without ever
 * weakening it: a restart never shortens the age, removes replicas or undoes an operator's edit. Storage cannot change
 * once the stream exists; a difference is logged.
 */
export async function ensureEventStream(nc: NatsConnection, settings: EventStreamSettings = DEFAULT_EVENT_STREAM, log?: Logger): Promise<void> {
  const jsm = await nc.jetstreamManager();
  const wanted = eventStreamConfig(settings);
  let existing: StreamConfig;
  try {
    existing = (await jsm.streams.info(EVENTS_STREAM)).config;
  } catch (error) {
    if ((error as { code?: string }).code !== '404' && !/stream not found/i.test(String((error as Error).message))) throw error;
    try {
      await jsm.streams.add(wanted);
      log?.info({ stream: EVENTS_STREAM, replicas: settings.replicas, maxAgeMs: settings.maxAgeMs, storage: settings.storage }, 'event stream created');
      return;
    } catch (addError) {
      // Another replica created it first.
      if (!/already in use|exists/i.test(String((addError as Error).message))) throw addError;
      existing = (await jsm.streams.info(EVENTS_STREAM)).config;
    }
  }
  if (existing.storage !== wanted.storage) {
    log?.warn({ stream: EVENTS_STREAM, storage: existing.storage, configured: wanted.storage }, 'event stream storage differs from the configuration; a stream keeps the storage it was created with');
  }
  const next = strengthenedStream(existing, wanted);
  if (!next) return;
  await jsm.streams.update(EVENTS_STREAM, next);
  log?.info(
    { stream: EVENTS_STREAM, replicas: next.num_replicas, maxAgeMs: next.max_age / 1e6, subjects: next.subjects.length },
    'event stream brought up to the configuration',
  );
}

/** NATS error codes of a publish that never reached a stream because the connection could not carry it. */
const BROKER_UNREACHABLE = new Set(['TIMEOUT', 'DISCONNECT', 'CONNECTION_CLOSED', 'CONNECTION_DRAINING', 'CONNECTION_REFUSED', 'CONNECTION_TIMEOUT']);

/** Writes an event in the caller's transaction; the relay publishes it after commit. */
export async function enqueueEvent<T>(
  tx: Queryable,
  event: { type: string; clientId: string; data: T; id?: string; occurredAt?: Date },
): Promise<DomainEvent<T>> {
  const envelope: DomainEvent<T> = {
    id: event.id ?? randomUUID(),
    type: event.type,
    occurredAt: (event.occurredAt ?? new Date()).toISOString(),
    clientId: event.clientId,
    data: event.data,
  };
  const trace = traceCarrier();
  await tx.query('INSERT INTO outbox (id, subject, payload, headers) VALUES ($1, $2, $3, $4)', [
    envelope.id,
    envelope.type,
    JSON.stringify(envelope),
    trace ? JSON.stringify(trace) : null,
  ]);
  return envelope;
}

/** The trace context each consumed event was published in, for work it leaves for later (a job per event). */
const eventTraces = new WeakMap<DomainEvent, TraceCarrier>();

export function traceOfEvent(event: DomainEvent): TraceCarrier | undefined {
  return eventTraces.get(event);
}

/**
 * The outbox's backlog at scrape time: events not yet published and how long the oldest has waited. Both stay near
 * zero while the relay keeps up; a growing age means events are written but not reaching NATS.
 */
export function collectOutboxMetrics(pool: Pool): () => void {
  const backlog = gauge({ name: 'outbox_backlog_events', help: 'Events written to the outbox and not yet published to NATS' });
  const oldest = gauge({ name: 'outbox_oldest_unpublished_age_seconds', help: 'How long the oldest unpublished outbox event has waited' });
  return addCollector(async () => {
    const { rows } = await pool.query<{ backlog: string; age: number | null }>(
      `SELECT count(*) AS backlog, extract(epoch FROM now() - min(created_at))::float8 AS age FROM outbox WHERE published_at IS NULL`,
    );
    backlog.set(Number(rows[0]?.backlog ?? 0));
    oldest.set(Math.max(0, rows[0]?.age ?? 0));
  });
}

/**
 * Publishes committed outbox rows to JetStream in order, with Nats-Msg-Id = event id, and marks them
 * published. A crash between publish and mark republishes the same id, which the stream deduplicates.
 */
export class OutboxRelay {
  private running = false;
  private loop?: Promise<void>;
  private wake?: () => void;
  private lastCleanup = 0;
  private kickTimer?: NodeJS.Timeout;
  private readonly publishedCounter = publishedTotal();

  constructor(
    private readonly deps: {
      pool: Pool;
      js: JetStreamClient;
      log: Logger;
      pollMs?: number;
      batchSize?: number;
      retainMs?: number;
      coalesceMs?: number;
    },
  ) {}

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.run();
  }

  /**
   * Asks for a pass soon instead of at the next poll. Kicks within a few milliseconds share one pass, so a
   * busy service relays its events in batches rather than one transaction per event.
   */
  kick(): void {
    if (this.kickTimer) return;
    this.kickTimer = setTimeout(() => {
      this.kickTimer = undefined;
      this.wake?.();
    }, this.deps.coalesceMs ?? 5);
  }

  async stop(): Promise<void> {
    this.running = false;
    clearTimeout(this.kickTimer);
    this.kickTimer = undefined;
    this.wake?.();
    await this.loop;
  }

  /**
   * One pass: publishes up to a batch; returns how many were published. An event the broker refuses is put off
   * (1 s after its first failure, doubling up to 5 minutes) while the others of the batch are marked published: one
   * event that cannot go out (a subject no stream takes) never holds back the ones behind it. A pass that cannot
   * reach the broker at all fails as a whole and is retried.
   */
  async relayOnce(): Promise<number> {
    const batchSize = this.deps.batchSize ?? 100;
    return withTransaction(this.deps.pool, async (tx) => {
      const { rows } = await tx.query<{ id: string; subject: string; payload: unknown; headers: TraceCarrier | null }>(
        `SELECT id, subject, payload, headers FROM outbox WHERE published_at IS NULL AND (retry_at IS NULL OR retry_at <= now())
          ORDER BY seq LIMIT $1 FOR UPDATE SKIP LOCKED`,
        [batchSize],
      );
      if (rows.length === 0) return 0;
      // Every publish is written to the connection in row order before any acknowledgement is awaited.
      const results = await Promise.allSettled(rows.map((row) => this.publish(row)));
      const published = rows.filter((_row, i) => results[i]!.status === 'fulfilled').map((r) => r.id);
      const refused = rows.flatMap((row, i) => {
        const result = results[i]!;
        return result.status === 'rejected' ? [{ row, error: result.reason as unknown }] : [];
      });
      // The broker out of reach is not the event's fault: the pass fails and is tried again, nothing put off.
      const unreachable = refused.find((r) => BROKER_UNREACHABLE.has(String((r.error as { code?: unknown } | null)?.code)));
      if (unreachable) throw unreachable.error;
      if (published.length > 0) await tx.query('UPDATE outbox SET published_at = now() WHERE id = ANY($1::uuid[])', [published]);
      if (refused.length > 0) {
        await tx.query(
          `UPDATE outbox SET publish_failures = publish_failures + 1,
                  retry_at = now() + least(interval '5 minutes', interval '1 second' * power(2, least(publish_failures, 20)))
            WHERE id = ANY($1::uuid[])`,
          [refused.map((r) => r.row.id)],
        );
        for (const { row, error } of refused) this.deps.log.warn({ err: error, eventId: row.id, subject: row.subject }, 'event refused by the broker; put off');
      }
      this.publishedCounter.inc(published.length);
      return rows.length;
    });
  }

  /** One event to JetStream; an event written in a traced call is published in a span of that trace. */
  private publish(row: { id: string; subject: string; payload: unknown; headers: TraceCarrier | null }) {
    const data = Buffer.from(JSON.stringify(row.payload));
    if (!row.headers) return this.deps.js.publish(row.subject, data, { msgID: row.id });
    return inSpan(`${row.subject} publish`, { kind: SpanKind.PRODUCER, parent: contextFrom(row.headers), attributes: { 'messaging.system': 'nats', 'messaging.destination.name': row.subject } }, () => {
      const carrier = traceCarrier();
      const h = natsHeaders();
      for (const [key, value] of Object.entries(carrier ?? row.headers!)) h.set(key, value);
      return this.deps.js.publish(row.subject, data, { msgID: row.id, headers: h });
    });
  }

  private async run(): Promise<void> {
    const pollMs = this.deps.pollMs ?? 200;
    const batchSize = this.deps.batchSize ?? 100;
    let failures = 0;
    while (this.running) {
      let published = 0;
      try {
        published = await this.relayOnce();
        failures = 0;
        await this.cleanup();
      } catch (error) {
        failures++;
        this.deps.log.warn({ err: error }, 'outbox relay pass failed; will retry');
      }
      // A full batch means more may be waiting; otherwise the next kick or poll brings the next pass.
      if (published >= batchSize && failures === 0) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, failures > 0 ? Math.min(5000, pollMs * 2 ** failures) : pollMs);
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wake = undefined;
    }
  }

  private async cleanup(): Promise<void> {
    const now = Date.now();
    if (now - this.lastCleanup < 60_000) return;
    this.lastCleanup = now;
    const retainMs = this.deps.retainMs ?? 3 * 24 * 3600_000;
    await this.deps.pool.query(`DELETE FROM outbox WHERE published_at < now() - ($1 || ' milliseconds')::interval`, [String(retainMs)]);
  }
}

export interface ConsumerOptions {
  nc: NatsConnection;
  pool: Pool;
  log: Logger;
  /** Durable consumer name; also the key of its processed-event records. */
  durable: string;
  /** One subject filter (nats-server 2.9 takes one); omit for every event. */
  filterSubject?: string;
  /** Applies the event inside the transaction that records it as processed. */
  handle?: (event: DomainEvent, tx: Queryable) => Promise<void>;
  /**
   * Instead of `handle`: applies, in order, the events that arrived together (not yet processed) inside the one
   * transaction that records them, so a handler can do for many events what it would do for one (one query each).
   */
  handleBatch?: (events: DomainEvent[], tx: Queryable) => Promise<void>;
  ackWaitMs?: number;
}

/** Events applied in one transaction at most. */
const BATCH_EVENTS = 64;

const publishedTotal = () => counter({ name: 'outbox_published_total', help: 'Outbox events published to NATS' });
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
export async function startConsumer(options: ConsumerOptions): Promise<{ stop: () => Promise<void> }> {
  const { nc, pool, log, durable } = options;
  const { handle, handleBatch } = options;
  if (!handle === !handleBatch) throw new Error(`consumer ${durable}: give handle or handleBatch, one of them`);
  const apply = handleBatch ?? (async (events: DomainEvent[], tx: Queryable) => {
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
  const applyOne = async (msg: JsMsg, event: DomainEvent): Promise<void> => {
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
  const applyBatch = async (batch: Array<{ msg: JsMsg; event: DomainEvent }>): Promise<void> => {
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
          const events: DomainEvent[] = [];
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
          const batch: Array<{ msg: JsMsg; event: DomainEvent }> = [];
          for (const msg of arrived) {
            try {
              const event = JSON.parse(Buffer.from(msg.data).toString('utf8')) as DomainEvent;
              const trace = traceHeadersOf(msg);
              if (trace) eventTraces.set(event, trace);
              batch.push({ msg, event });
            } catch (error) {
              log.error({ err: error, subject: msg.subject }, 'malformed event dropped');
              msg.term();
            }
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
