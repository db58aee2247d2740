import { randomUUID } from 'node:crypto';
import { SERVICES } from '@platform/catalog';
import {
  AckPolicy,
  connect,
  DeliverPolicy,
  nanos,
  RetentionPolicy,
  StorageType,
  type ConsumerMessages,
  type JsMsg,
  type JetStreamClient,
  type NatsConnection,
} from 'nats';
import type { Pool } from 'pg';
import { withTransaction, type Queryable } from './db';
import type { Logger } from './log';
import { sleep } from './time';

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
  ...new Set([...SERVICES.map((s) => s.name), 'payments', 'sessions', 'customers', 'sellers', 'payouts', 'settings', 'webhooks']),
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

export async function ensureEventStream(nc: NatsConnection): Promise<void> {
  const jsm = await nc.jetstreamManager();
  const config = {
    name: EVENTS_STREAM,
    subjects: EVENT_CONTEXTS.map((c) => `${c}.>`),
    retention: RetentionPolicy.Limits,
    storage: StorageType.File,
    max_age: nanos(7 * 24 * 3600_000),
    duplicate_window: nanos(DUPLICATE_WINDOW_MS),
  };
  try {
    await jsm.streams.info(EVENTS_STREAM);
    await jsm.streams.update(EVENTS_STREAM, config);
  } catch (error) {
    if ((error as { code?: string }).code !== '404' && !/stream not found/i.test(String((error as Error).message))) throw error;
    try {
      await jsm.streams.add(config);
    } catch (addError) {
      // Another replica created it first.
      if (!/already in use|exists/i.test(String((addError as Error).message))) throw addError;
    }
  }
}

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
  await tx.query('INSERT INTO outbox (id, subject, payload) VALUES ($1, $2, $3)', [envelope.id, envelope.type, JSON.stringify(envelope)]);
  return envelope;
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

  /** One pass: publishes up to a batch; returns how many were published. */
  async relayOnce(): Promise<number> {
    const batchSize = this.deps.batchSize ?? 100;
    return withTransaction(this.deps.pool, async (tx) => {
      const { rows } = await tx.query<{ id: string; subject: string; payload: unknown }>(
        `SELECT id, subject, payload FROM outbox WHERE published_at IS NULL ORDER BY seq LIMIT $1 FOR UPDATE SKIP LOCKED`,
        [batchSize],
      );
      if (rows.length === 0) return 0;
      // Every publish is written to the connection in row order before any acknowledgement is awaited.
      await Promise.all(rows.map((row) => this.deps.js.publish(row.subject, Buffer.from(JSON.stringify(row.payload)), { msgID: row.id })));
      await tx.query('UPDATE outbox SET published_at = now() WHERE id = ANY($1::uuid[])', [rows.map((r) => r.id)]);
      return rows.length;
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

  /** Applies one event in a transaction of its own; answers whether it was acknowledged. */
  const applyOne = async (msg: JsMsg, event: DomainEvent): Promise<void> => {
    try {
      await withTransaction(pool, async (tx) => {
        const fresh = await tx.query('INSERT INTO processed_events (consumer, event_id) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING event_id', [durable, event.id]);
        if (fresh.rowCount === 0) return;
        await apply([event], tx);
      });
      msg.ack();
    } catch (error) {
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
      await withTransaction(pool, async (tx) => {
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
      });
      for (const { msg } of batch) msg.ack();
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
              batch.push({ msg, event: JSON.parse(Buffer.from(msg.data).toString('utf8')) as DomainEvent });
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

  return {
    stop: async () => {
      stopped = true;
      messages?.stop();
      await loop;
    },
  };
}
