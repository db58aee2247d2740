import { randomUUID } from 'node:crypto';
import { headers as natsHeaders, type JetStreamClient } from 'nats';
import { Client, type ClientConfig, type Notification, type Pool } from 'pg';
import { withTransaction, type Queryable } from '../db';
import type { Logger } from '../log';
import { addCollector, counter, gauge } from '../metrics';
import { contextFrom, inSpan, SpanKind, traceCarrier, type TraceCarrier } from '../trace';
import type { DomainEvent } from './stream';

/** NATS error codes of a publish that never reached a stream because the connection could not carry it. */
const BROKER_UNREACHABLE = new Set(['TIMEOUT', 'DISCONNECT', 'CONNECTION_CLOSED', 'CONNECTION_DRAINING', 'CONNECTION_REFUSED', 'CONNECTION_TIMEOUT']);

/**
 * The channel an outbox write notifies on commit. Notifications stay within one database, so each service's relays
 * (one per replica) hear their own service's events only.
 */
export const OUTBOX_CHANNEL = 'outbox';

/**
 * The outbox row and its NOTIFY in one statement. PostgreSQL delivers the notification when the transaction commits
 * (none if it rolls back) and folds the identical notifications of one transaction into one, so a transaction that
 * writes several events wakes the relays once.
 */
const INSERT_AND_NOTIFY = `WITH e AS (INSERT INTO outbox (id, subject, payload, headers) VALUES ($1, $2, $3, $4) RETURNING 1)
  SELECT pg_notify('${OUTBOX_CHANNEL}', '') FROM e`;
const INSERT_ONLY = 'INSERT INTO outbox (id, subject, payload, headers) VALUES ($1, $2, $3, $4)';

/**
 * A NOTIFY makes its commit take a lock that every notifying commit of the PostgreSQL server waits for, held through
 * the commit's flush: notifying commits are written one at a time. With synchronous commit, 8 clients inserting
 * outbox rows make about 1,700-2,100 commits/s without NOTIFY and 400-800 with one in every transaction. So a process
 * notifies with at most one write per interval: while it writes, every replica's relay is woken at least that often
 * and publishes whatever has committed by then; the writer's own relay is kicked in-process after its commits, and
 * the slow poll is the last resort (a notifying transaction that rolls back leaves its interval without one).
 */
let notifyIntervalMs = 100;
let lastNotifyAt = Number.NEGATIVE_INFINITY;

/** How often this process's outbox writes notify by default (ms; 0: every write). Mostly for tests. */
export function setOutboxNotifyInterval(ms: number): void {
  notifyIntervalMs = Math.max(0, ms);
  lastNotifyAt = Number.NEGATIVE_INFINITY;
}

function notifyNow(option: boolean | undefined): boolean {
  if (option !== undefined) return option;
  const now = performance.now();
  if (now - lastNotifyAt < notifyIntervalMs) return false;
  lastNotifyAt = now;
  return true;
}

/**
 * An event as an outbox row, for a statement of the caller's that writes it with other rows (a data-modifying CTE
 * `INSERT INTO outbox (OUTBOX_COLUMNS) SELECT $a, $b, $c, $d ...`): its envelope, the row's four values in the order of
 * OUTBOX_COLUMNS, and whether the statement should also `SELECT pg_notify(OUTBOX_CHANNEL, '')` (at most one write per
 * interval of this process notifies, as with enqueueEvent). The caller kicks its relay after the commit.
 */
export function outboxRow<T>(
  event: { type: string; clientId: string; data: T; id?: string; occurredAt?: Date },
  options: { notify?: boolean } = {},
): { envelope: DomainEvent<T>; values: [string, string, string, string | null]; notify: boolean } {
  const envelope: DomainEvent<T> = {
    id: event.id ?? randomUUID(),
    type: event.type,
    occurredAt: (event.occurredAt ?? new Date()).toISOString(),
    clientId: event.clientId,
    data: event.data,
  };
  const trace = traceCarrier();
  return { envelope, values: [envelope.id, envelope.type, JSON.stringify(envelope), trace ? JSON.stringify(trace) : null], notify: notifyNow(options.notify) };
}

/** The outbox's columns, in the order of outboxRow's values. */
export const OUTBOX_COLUMNS = 'id, subject, payload, headers';

/**
 * Writes an event in the caller's transaction; the relay publishes it after commit. The same statement may notify the
 * service's relays (every replica's), which then wake at commit instead of waiting for their poll: by default at most
 * one write per `setOutboxNotifyInterval` (100 ms) of this process notifies; `notify: true` always, `false` never.
 */
export async function enqueueEvent<T>(
  tx: Queryable,
  event: { type: string; clientId: string; data: T; id?: string; occurredAt?: Date },
  options: { notify?: boolean } = {},
): Promise<DomainEvent<T>> {
  const row = outboxRow(event, options);
  await tx.query(row.notify ? INSERT_AND_NOTIFY : INSERT_ONLY, row.values);
  return row.envelope;
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

const publishedTotal = () => counter({ name: 'outbox_published_total', help: 'Outbox events published to NATS' });

export interface OutboxRelayOptions {
  pool: Pool;
  js: JetStreamClient;
  log: Logger;
  /**
   * How often the relay looks for events without being woken: the fallback for a notification lost with its
   * connection, and what brings back events put off after a refusal. Default 2000 ms while listening, 200 ms without.
   */
  pollMs?: number;
  batchSize?: number;
  retainMs?: number;
  /** How long a wake-up waits for others to share its pass; default 5 ms. */
  coalesceMs?: number;
  /**
   * Wake on the NOTIFY of `enqueueEvent` (on a connection of its own, outside the pool), so a commit in any replica
   * of the service wakes every replica's relay; default true.
   */
  listen?: boolean;
  /**
   * After a pass that published, the next one comes at the latest this soon (default 200 ms): it finds the events
   * whose writes did not notify (one write per interval does) and whose writer did not kick this relay. An idle
   * relay waits for the poll.
   */
  followUpMs?: number;
  /** The first wait before a lost LISTEN connection is opened again, doubling up to 5 s; default 100 ms. */
  reconnectMs?: number;
}

/**
 * Publishes committed outbox rows to JetStream in order, with Nats-Msg-Id = event id, and marks them
 * published. A crash between publish and mark republishes the same id, which the stream deduplicates.
 *
 * A pass runs when an event commits (the NOTIFY of `enqueueEvent`, heard by every replica, or the in-process kick),
 * right after a full batch or a wake-up that came while a pass was running, and otherwise at the slow poll. A LISTEN
 * connection that drops is opened again, and the pass that follows finds what was committed in between.
 */
export class OutboxRelay {
  private running = false;
  private loop?: Promise<void>;
  private wake?: () => void;
  /** A wake-up came while a pass was running: the events it announces may have committed after the pass's read. */
  private pending = false;
  private lastCleanup = 0;
  private kickTimer?: NodeJS.Timeout;
  private listener?: Client;
  private listening = false;
  private listenFailures = 0;
  private reconnectTimer?: NodeJS.Timeout;
  private listeningWaiters: Array<() => void> = [];
  private readonly publishedCounter = publishedTotal();

  constructor(private readonly deps: OutboxRelayOptions) {}

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.run();
    if (this.deps.listen !== false) this.listen();
  }

  /**
   * Asks for a pass soon instead of at the next poll. Kicks within a few milliseconds share one pass, so a
   * busy service relays its events in batches rather than one transaction per event.
   */
  kick(): void {
    if (this.kickTimer) return;
    this.kickTimer = setTimeout(() => {
      this.kickTimer = undefined;
      this.pending = true;
      this.wake?.();
    }, this.deps.coalesceMs ?? 5);
  }

  /** Resolves once the relay listens for the outbox's notifications (at once if it does). */
  whenListening(): Promise<void> {
    if (this.listening) return Promise.resolve();
    return new Promise((resolve) => this.listeningWaiters.push(resolve));
  }

  async stop(): Promise<void> {
    this.running = false;
    clearTimeout(this.kickTimer);
    this.kickTimer = undefined;
    clearTimeout(this.reconnectTimer);
    this.reconnectTimer = undefined;
    const listener = this.listener;
    this.listener = undefined;
    this.listening = false;
    this.wake?.();
    await Promise.all([this.loop, listener?.end().catch(() => undefined)]);
  }

  /**
   * Opens the LISTEN connection; when it fails or drops, opens it again after a wait (100 ms, doubling up to 5 s).
   * Once listening, it asks for a pass: nobody heard what committed while no connection listened.
   */
  private listen(): void {
    if (!this.running) return;
    const client = new Client(this.deps.pool.options as ClientConfig);
    this.listener = client;
    let lost = false;
    const retry = (err: unknown) => {
      if (lost) return;
      lost = true;
      client.removeAllListeners('notification');
      if (this.listener === client) {
        this.listener = undefined;
        this.listening = false;
      }
      void client.end().catch(() => undefined);
      if (!this.running) return;
      const delayMs = Math.min(5000, (this.deps.reconnectMs ?? 100) * 2 ** this.listenFailures);
      this.listenFailures++;
      this.deps.log.warn({ err, delayMs }, 'outbox listener connection lost; listening again');
      this.reconnectTimer = setTimeout(() => {
        this.reconnectTimer = undefined;
        this.listen();
      }, delayMs);
    };
    client.on('error', retry);
    client.on('end', () => retry(new Error('outbox listener connection ended')));
    client.on('notification', (message: Notification) => {
      if (message.channel === OUTBOX_CHANNEL) this.kick();
    });
    client
      .connect()
      .then(() => client.query(`LISTEN ${OUTBOX_CHANNEL}`))
      .then(() => {
        if (lost || this.listener !== client) return;
        this.listenFailures = 0;
        this.listening = true;
        for (const resolve of this.listeningWaiters.splice(0)) resolve();
        this.kick();
      }, retry);
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
    const pollMs = this.deps.pollMs ?? (this.deps.listen === false ? 200 : 2000);
    const batchSize = this.deps.batchSize ?? 100;
    const followUpMs = this.deps.followUpMs ?? 200;
    let failures = 0;
    while (this.running) {
      let published = 0;
      this.pending = false;
      try {
        published = await this.relayOnce();
        failures = 0;
        await this.cleanup();
      } catch (error) {
        failures++;
        this.deps.log.warn({ err: error }, 'outbox relay pass failed; will retry');
      }
      // A full batch means more may be waiting, and so does a wake-up during the pass; otherwise the next wake-up or
      // poll brings the next pass.
      if ((published >= batchSize || this.pending) && failures === 0) continue;
      // Stopped during the pass: its wake-up found no sleep to end.
      if (!this.running) break;
      await new Promise<void>((resolve) => {
        const waitMs = failures > 0 ? Math.min(5000, pollMs * 2 ** failures) : published > 0 ? Math.min(pollMs, followUpMs) : pollMs;
        const timer = setTimeout(resolve, waitMs);
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
