import { isUuid, JOBS_SCHEMA } from '@platform/kit';
import type { Page, Queryable } from '@platform/kit';
import { isDeliveryStatus, type Delivery, type DeliveryAttempt, type DeliveryStatus } from '../domain/delivery';
import type { SecretSlots } from '../domain/signatures';
import { secretSlotsOf, type SecretsRow } from './webhookStore';

/** The columns of a `TargetRow`, from `deliveries d` joined with `webhooks w`. */
const TARGET_COLUMNS = `d.id, d.client_id, d.event_id, d.body, d.status, d.failures, d.retry_after_attempts, d.round, d.created_at,
  w.id AS webhook_id, w.endpoint, w.active, w.sealed_private_key, w.sealed_secret, w.sealed_previous_secret, w.previous_secret_expires_at`;

/** A delivery with what an attempt needs of its webhook: where, whether active, its sealed key and secrets. */
interface TargetRow extends SecretsRow {
  id: string;
  client_id: string;
  event_id: string;
  body: string;
  status: string;
  failures: number;
  retry_after_attempts: number;
  round: number;
  created_at: Date;
  webhook_id: string;
  endpoint: string;
  active: boolean;
  sealed_private_key: Buffer;
}

interface DeliveryRow {
  id: string;
  client_id: string;
  webhook_id: string;
  event_id: string;
  event: string;
  status: string;
  next_attempt_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

interface AttemptRow {
  delivery_id: string;
  attempted_at: Date;
  status_code: number | null;
  duration_ms: number;
  error: string | null;
}

const COLUMNS = 'id, client_id, webhook_id, event_id, event, status, next_attempt_at, created_at, updated_at';

function toDelivery(row: DeliveryRow, attempts: DeliveryAttempt[]): Delivery {
  if (!isDeliveryStatus(row.status)) throw new Error(`delivery ${row.id} has unknown status ${row.status}`);
  return {
    id: row.id,
    webhookId: row.webhook_id,
    eventId: row.event_id,
    event: row.event,
    status: row.status,
    attempts,
    nextAttemptAt: row.next_attempt_at,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

function toAttempt(row: AttemptRow): DeliveryAttempt {
  return { attemptedAt: row.attempted_at, statusCode: row.status_code, durationMs: row.duration_ms, error: row.error };
}

async function withAttempts(db: Queryable, rows: DeliveryRow[]): Promise<Delivery[]> {
  if (rows.length === 0) return [];
  const { rows: attempts } = await db.query<AttemptRow>(
    'SELECT delivery_id, attempted_at, status_code, duration_ms, error FROM delivery_attempts WHERE delivery_id = ANY($1::uuid[]) ORDER BY seq',
    [rows.map((r) => r.id)],
  );
  return rows.map((row) => toDelivery(row, attempts.filter((a) => a.delivery_id === row.id).map(toAttempt)));
}

function toTarget(row: TargetRow): DeliveryTarget {
  if (!isDeliveryStatus(row.status)) throw new Error(`delivery ${row.id} has unknown status ${row.status}`);
  return {
    id: row.id,
    clientId: row.client_id,
    eventId: row.event_id,
    body: row.body,
    status: row.status,
    failures: row.failures,
    retryAfterAttempts: row.retry_after_attempts,
    round: row.round,
    createdAt: row.created_at,
    webhook: {
      id: row.webhook_id,
      endpoint: row.endpoint,
      active: row.active,
      sealedPrivateKey: row.sealed_private_key,
      secrets: secretSlotsOf(row),
    },
  };
}

/** Everything one attempt needs, read in one query. */
export interface DeliveryTarget {
  id: string;
  clientId: string;
  eventId: string;
  body: string;
  status: DeliveryStatus;
  failures: number;
  /** Attempts of this round whose wait the receiver set with Retry-After. */
  retryAfterAttempts: number;
  round: number;
  /** When the delivery was created (its event reached this service). */
  createdAt: Date;
  /** The webhook, with its sealed key and sealed secrets (those in force at an attempt sign it). */
  webhook: { id: string; endpoint: string; active: boolean; sealedPrivateKey: Buffer; secrets: SecretSlots<Buffer> };
}

export interface NewDelivery {
  id: string;
  clientId: string;
  webhookId: string;
  eventId: string;
  event: string;
  body: string;
  at: Date;
}

/** How an attempt leaves the delivery. */
export interface Settlement {
  status: DeliveryStatus;
  failures: number;
  /** Unchanged when absent. */
  retryAfterAttempts?: number;
  nextAttemptAt: Date | null;
  at: Date;
}

/**
 * What `claim` found: the delivery (null when it does not exist), whether this attempt now holds it, and when not,
 * until when another attempt holds it and when it is next due.
 */
export interface ClaimedTarget {
  target: DeliveryTarget;
  claimed: boolean;
  heldUntil: Date | null;
  nextAttemptAt: Date | null;
}

/**
 * The outcome of a first attempt made right after the fan-out (see `settleFirstAttempts`). Without `settlement` the
 * delivery is only released (its attempt was not made), and its job delivers it at the job's time.
 */
export interface FirstAttemptOutcome {
  clientId: string;
  id: string;
  /** The delivery's job; completed with a final outcome, moved to `nextAttemptAt` with a retry. */
  jobId: string | null;
  attempt: DeliveryAttempt | null;
  settlement: Settlement | null;
}

/** The deliveries of one webhook created within [since, until], the walk of a recovery. */
export interface RecoveryWindow {
  clientId: string;
  webhookId: string;
  since: Date;
  until: Date;
}

/**
 * Where a recovery's walk stands: the last delivery it went past, in (created_at, seq) order. The time is in
 * microseconds since the epoch, as PostgreSQL keeps it: a Date's milliseconds could stop short of the row.
 */
export interface RecoveryCursor {
  createdAtUs: string;
  seq: string;
}

/** One delivery a page of a recovery went past; `resent` holds the new round when it was started again. */
export interface RecoveredDelivery {
  id: string;
  cursor: RecoveryCursor;
  resent: { round: number; runAt: Date } | null;
}

/** SQL for deliveries and their attempts. Every query is scoped by client id. */
export interface DeliveryStore {
  /** False when the webhook already has a delivery of this event. */
  insert(tx: Queryable, delivery: NewDelivery): Promise<boolean>;
  /** Inserts many in one statement; answers the ids of those inserted (a webhook's delivery of an event is kept once). */
  insertMany(tx: Queryable, deliveries: readonly NewDelivery[]): Promise<Set<string>>;
  findById(db: Queryable, clientId: string, webhookId: string, id: string, options?: { forUpdate?: boolean }): Promise<Delivery | null>;
  list(db: Queryable, clientId: string, webhookId: string, page: Page): Promise<{ items: Delivery[]; totalItems: number }>;
  findTarget(db: Queryable, clientId: string, id: string): Promise<DeliveryTarget | null>;
  /**
   * Claims a pending delivery of that round for one attempt until `until`, in one statement: only when nobody holds
   * it (or the holder's claim expired at `now`) and it is due (its next attempt at most a second after `now`).
   */
  claim(db: Queryable, clientId: string, id: string, round: number, now: Date, until: Date): Promise<ClaimedTarget | null>;
  /** Gives up a claim taken until `until` without recording anything (the attempt was not made). */
  release(db: Queryable, clientId: string, id: string, until: Date): Promise<void>;
  /**
   * Claims the first attempt of many new deliveries until `until`, in one statement: those still pending in their
   * first round with no attempt yet, held by nobody; answers them (a delivery named twice comes once).
   */
  claimFirstAttempts(db: Queryable, refs: ReadonlyArray<{ clientId: string; id: string }>, now: Date, until: Date): Promise<DeliveryTarget[]>;
  /**
   * Records the first attempts claimed until `until` and applies their outcomes, in one statement: the attempts,
   * the deliveries (each released), and their jobs (completed when the delivery is done, moved to its next attempt
   * when it is retried). A delivery no longer held by that claim keeps its state. Answers the ids settled.
   */
  settleFirstAttempts(db: Queryable, outcomes: readonly FirstAttemptOutcome[], until: Date): Promise<Set<string>>;
  /** Completes jobs that have nothing left to do (not while a runner holds one). */
  completeJobs(db: Queryable, jobIds: readonly string[]): Promise<void>;
  recordAttempt(tx: Queryable, id: string, attempt: DeliveryAttempt): Promise<void>;
  /** Applies an attempt's outcome unless a manual retry started another round meanwhile; false then. */
  settle(tx: Queryable, clientId: string, id: string, round: number, settlement: Settlement): Promise<boolean>;
  /** Records an attempt and applies its outcome in one statement (both or neither); false as `settle`. */
  recordAndSettle(db: Queryable, clientId: string, id: string, round: number, attempt: DeliveryAttempt, settlement: Settlement): Promise<boolean>;
  /** Makes the delivery pending again from the start of the schedule, in a new round; returns that round. */
  restart(tx: Queryable, clientId: string, id: string, at: Date): Promise<number>;
  /** How many deliveries the window holds. */
  countInWindow(db: Queryable, window: RecoveryWindow): Promise<number>;
  /**
   * The next page of the window after `after`, oldest first, each started again in a new round (as `restart`) with
   * its attempt due at `start` plus `spacingMs` per place in the page; except a delivery already on its way (pending
   * with no failure in its round: waiting for its first attempt, or for the wait its receiver asked for), which is
   * left as it is. One statement, so two recoveries walking the same deliveries never send one twice.
   */
  restartPage(
    tx: Queryable,
    window: RecoveryWindow,
    page: { after: RecoveryCursor | null; limit: number; start: Date; spacingMs: number; at: Date },
  ): Promise<RecoveredDelivery[]>;
}

export function createDeliveryStore(): DeliveryStore {
  return {
    async insert(tx, d) {
      const result = await tx.query(
        `INSERT INTO deliveries (id, client_id, webhook_id, event_id, event, body, status, next_attempt_at, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, 'pending', $7, $7, $7)
         ON CONFLICT (webhook_id, event_id) DO NOTHING`,
        [d.id, d.clientId, d.webhookId, d.eventId, d.event, d.body, d.at],
      );
      return (result.rowCount ?? 0) > 0;
    },

    async insertMany(tx, deliveries) {
      if (deliveries.length === 0) return new Set();
      const { rows } = await tx.query<{ id: string }>(
        `INSERT INTO deliveries (id, client_id, webhook_id, event_id, event, body, status, next_attempt_at, created_at, updated_at)
         SELECT d.id, d.client_id, d.webhook_id, d.event_id, d.event, d.body, 'pending', d.at, d.at, d.at
         FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::uuid[], $5::text[], $6::text[], $7::timestamptz[]) WITH ORDINALITY
           AS d(id, client_id, webhook_id, event_id, event, body, at, n)
         ORDER BY d.n
         ON CONFLICT (webhook_id, event_id) DO NOTHING
         RETURNING id`,
        [
          deliveries.map((d) => d.id),
          deliveries.map((d) => d.clientId),
          deliveries.map((d) => d.webhookId),
          deliveries.map((d) => d.eventId),
          deliveries.map((d) => d.event),
          deliveries.map((d) => d.body),
          deliveries.map((d) => d.at),
        ],
      );
      return new Set(rows.map((r) => r.id));
    },

    async findById(db, clientId, webhookId, id, options = {}) {
      if (!isUuid(id) || !isUuid(webhookId)) return null;
      const { rows } = await db.query<DeliveryRow>(
        `SELECT ${COLUMNS} FROM deliveries WHERE client_id = $1 AND webhook_id = $2 AND id = $3${options.forUpdate ? ' FOR UPDATE' : ''}`,
        [clientId, webhookId, id],
      );
      return (await withAttempts(db, rows))[0] ?? null;
    },

    async list(db, clientId, webhookId, page) {
      if (!isUuid(webhookId)) return { items: [], totalItems: 0 };
      const counted = await db.query<{ total: number }>(
        'SELECT count(*)::int AS total FROM deliveries WHERE client_id = $1 AND webhook_id = $2',
        [clientId, webhookId],
      );
      const direction = page.direction === 'ASC' ? 'ASC' : 'DESC';
      const { rows } = await db.query<DeliveryRow>(
        `SELECT ${COLUMNS} FROM deliveries WHERE client_id = $1 AND webhook_id = $2
         ORDER BY created_at ${direction}, seq ${direction} LIMIT $3 OFFSET $4`,
        [clientId, webhookId, page.limit, page.offset],
      );
      return { items: await withAttempts(db, rows), totalItems: counted.rows[0]?.total ?? 0 };
    },

    async findTarget(db, clientId, id) {
      if (!isUuid(id)) return null;
      const { rows } = await db.query<TargetRow>(
        `SELECT ${TARGET_COLUMNS}
         FROM deliveries d JOIN webhooks w ON w.id = d.webhook_id AND w.client_id = d.client_id
         WHERE d.client_id = $1 AND d.id = $2`,
        [clientId, id],
      );
      return rows[0] ? toTarget(rows[0]) : null;
    },

    async claim(db, clientId, id, round, now, until) {
      if (!isUuid(id)) return null;
      // The claim re-checks the row as it is when locked; the join reads it as it was, so the claimed values win.
      const { rows } = await db.query<TargetRow & { claimed: boolean; held_until: Date | null; next_attempt_at: Date | null }>(
        `WITH claimed AS (
           UPDATE deliveries d SET claimed_until = $5
           WHERE d.client_id = $1 AND d.id = $2 AND d.status = 'pending' AND d.round = $3
             AND (d.claimed_until IS NULL OR d.claimed_until <= $4)
             AND (d.next_attempt_at IS NULL OR d.next_attempt_at <= $4::timestamptz + interval '1 second')
           RETURNING d.id, d.status, d.failures, d.retry_after_attempts, d.round
         )
         SELECT ${TARGET_COLUMNS.replace('d.status, d.failures, d.retry_after_attempts, d.round', 'coalesce(c.status, d.status) AS status, coalesce(c.failures, d.failures) AS failures, coalesce(c.retry_after_attempts, d.retry_after_attempts) AS retry_after_attempts, coalesce(c.round, d.round) AS round')},
                c.id IS NOT NULL AS claimed, d.claimed_until AS held_until, d.next_attempt_at
         FROM deliveries d JOIN webhooks w ON w.id = d.webhook_id AND w.client_id = d.client_id
           LEFT JOIN claimed c ON c.id = d.id
         WHERE d.client_id = $1 AND d.id = $2`,
        [clientId, id, round, now, until],
      );
      const row = rows[0];
      if (!row) return null;
      return { target: toTarget(row), claimed: row.claimed, heldUntil: row.held_until, nextAttemptAt: row.next_attempt_at };
    },

    async release(db, clientId, id, until) {
      await db.query('UPDATE deliveries SET claimed_until = NULL WHERE client_id = $1 AND id = $2 AND claimed_until = $3', [clientId, id, until]);
    },

    async claimFirstAttempts(db, refs, now, until) {
      if (refs.length === 0) return [];
      const { rows } = await db.query<TargetRow>(
        `UPDATE deliveries d SET claimed_until = $4
         FROM webhooks w, unnest($1::uuid[], $2::uuid[]) AS r(client_id, id)
         WHERE d.client_id = r.client_id AND d.id = r.id AND w.id = d.webhook_id AND w.client_id = d.client_id
           AND d.status = 'pending' AND d.round = 0 AND d.failures = 0 AND d.retry_after_attempts = 0
           AND d.claimed_until IS NULL AND d.next_attempt_at <= $3
         RETURNING ${TARGET_COLUMNS}`,
        [refs.map((r) => r.clientId), refs.map((r) => r.id), now, until],
      );
      return rows.map(toTarget);
    },

    async settleFirstAttempts(db, outcomes, until) {
      if (outcomes.length === 0) return new Set();
      const { rows } = await db.query<{ settled: string[] }>(
        `WITH input AS (
           SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::bigint[], $4::timestamptz[], $5::int[], $6::int[], $7::text[],
                                $8::text[], $9::int[], $10::int[], $11::timestamptz[], $12::timestamptz[])
             AS i(client_id, id, job_id, attempted_at, status_code, duration_ms, error, status, failures, retry_after_attempts, next_attempt_at, at)
         ), attempts AS (
           INSERT INTO delivery_attempts (delivery_id, attempted_at, status_code, duration_ms, error)
           SELECT d.id, i.attempted_at, i.status_code, i.duration_ms, i.error
           FROM input i JOIN deliveries d ON d.client_id = i.client_id AND d.id = i.id
           WHERE i.attempted_at IS NOT NULL
         ), settled AS (
           UPDATE deliveries d
           SET status = coalesce(i.status, d.status),
               failures = coalesce(i.failures, d.failures),
               retry_after_attempts = coalesce(i.retry_after_attempts, d.retry_after_attempts),
               next_attempt_at = CASE WHEN i.status IS NULL THEN d.next_attempt_at ELSE i.next_attempt_at END,
               updated_at = CASE WHEN i.status IS NULL THEN d.updated_at ELSE i.at END,
               claimed_until = NULL
           FROM input i
           WHERE d.client_id = i.client_id AND d.id = i.id AND d.round = 0 AND d.status = 'pending' AND d.claimed_until = $13
           RETURNING d.id, i.job_id, i.status, i.next_attempt_at
         ), completed AS (
           SELECT j.id FROM settled s, ${JOBS_SCHEMA}.complete_jobs(ARRAY[s.job_id]) j
           WHERE s.job_id IS NOT NULL AND s.status IN ('succeeded', 'failed')
         ), rescheduled AS (
           SELECT j.id FROM settled s, ${JOBS_SCHEMA}.reschedule_jobs(ARRAY[s.job_id], run_at => s.next_attempt_at) j
           WHERE s.job_id IS NOT NULL AND s.status = 'pending' AND s.next_attempt_at IS NOT NULL
         )
         SELECT (SELECT coalesce(array_agg(s.id), '{}') FROM settled s WHERE s.status IS NOT NULL) AS settled,
                (SELECT count(*) FROM completed)::int AS completed, (SELECT count(*) FROM rescheduled)::int AS rescheduled`,
        [
          outcomes.map((o) => o.clientId),
          outcomes.map((o) => o.id),
          outcomes.map((o) => o.jobId),
          outcomes.map((o) => o.attempt?.attemptedAt ?? null),
          outcomes.map((o) => o.attempt?.statusCode ?? null),
          outcomes.map((o) => o.attempt?.durationMs ?? null),
          outcomes.map((o) => o.attempt?.error ?? null),
          outcomes.map((o) => o.settlement?.status ?? null),
          outcomes.map((o) => o.settlement?.failures ?? null),
          outcomes.map((o) => o.settlement?.retryAfterAttempts ?? null),
          outcomes.map((o) => o.settlement?.nextAttemptAt ?? null),
          outcomes.map((o) => o.settlement?.at ?? null),
          until,
        ],
      );
      return new Set(rows[0]?.settled ?? []);
    },

    async completeJobs(db, jobIds) {
      if (jobIds.length === 0) return;
      await db.query(`SELECT count(*) FROM ${JOBS_SCHEMA}.complete_jobs($1::bigint[])`, [jobIds]);
    },

    async recordAttempt(tx, id, a) {
      await tx.query(
        'INSERT INTO delivery_attempts (delivery_id, attempted_at, status_code, duration_ms, error) VALUES ($1, $2, $3, $4, $5)',
        [id, a.attemptedAt, a.statusCode, a.durationMs, a.error],
      );
    },

    async settle(tx, clientId, id, round, s) {
      const result = await tx.query(
        `UPDATE deliveries SET status = $4, failures = $5, next_attempt_at = $6, updated_at = $7,
           retry_after_attempts = coalesce($8, retry_after_attempts), claimed_until = NULL
         WHERE client_id = $1 AND id = $2 AND round = $3 AND status = 'pending'`,
        [clientId, id, round, s.status, s.failures, s.nextAttemptAt, s.at, s.retryAfterAttempts ?? null],
      );
      return (result.rowCount ?? 0) > 0;
    },

    async recordAndSettle(db, clientId, id, round, a, s) {
      const { rows } = await db.query<{ settled: number }>(
        `WITH attempt AS (
           INSERT INTO delivery_attempts (delivery_id, attempted_at, status_code, duration_ms, error)
           SELECT id, $8, $9, $10, $11 FROM deliveries WHERE client_id = $1 AND id = $2
         ), settled AS (
           UPDATE deliveries SET status = $4, failures = $5, next_attempt_at = $6, updated_at = $7,
             retry_after_attempts = coalesce($12, retry_after_attempts), claimed_until = NULL
           WHERE client_id = $1 AND id = $2 AND round = $3 AND status = 'pending' RETURNING 1
         )
         SELECT count(*)::int AS settled FROM settled`,
        [clientId, id, round, s.status, s.failures, s.nextAttemptAt, s.at, a.attemptedAt, a.statusCode, a.durationMs, a.error, s.retryAfterAttempts ?? null],
      );
      return (rows[0]?.settled ?? 0) > 0;
    },

    async restart(tx, clientId, id, at) {
      const { rows } = await tx.query<{ round: number }>(
        `UPDATE deliveries SET status = 'pending', failures = 0, retry_after_attempts = 0, round = round + 1, next_attempt_at = $3, updated_at = $3
         WHERE client_id = $1 AND id = $2 RETURNING round`,
        [clientId, id, at],
      );
      if (!rows[0]) throw new Error(`delivery ${id} vanished during its retry`);
      return rows[0].round;
    },

    async countInWindow(db, w) {
      if (!isUuid(w.webhookId)) return 0;
      const { rows } = await db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM deliveries
         WHERE client_id = $1 AND webhook_id = $2 AND created_at >= $3 AND created_at <= $4`,
        [w.clientId, w.webhookId, w.since, w.until],
      );
      return rows[0]?.n ?? 0;
    },

    async restartPage(tx, w, page) {
      if (!isUuid(w.webhookId)) return [];
      const { rows } = await tx.query<{ id: string; created_us: string; seq: string; round: number | null; next_attempt_at: Date | null }>(
        `WITH page AS (
           SELECT id, created_at, seq, row_number() OVER (ORDER BY created_at, seq) AS n
           FROM deliveries
           WHERE client_id = $1 AND webhook_id = $2 AND created_at >= $3 AND created_at <= $4
             AND ($5::bigint IS NULL OR (created_at, seq) > (timestamptz 'epoch' + $5::bigint * interval '1 microsecond', $6::bigint))
           ORDER BY created_at, seq
           LIMIT $7
         ), restarted AS (
           UPDATE deliveries d
           SET status = 'pending', failures = 0, retry_after_attempts = 0, round = d.round + 1,
               next_attempt_at = $8::timestamptz + (page.n - 1) * $9::int * interval '1 millisecond', updated_at = $10
           FROM page
           WHERE d.id = page.id AND d.client_id = $1 AND NOT (d.status = 'pending' AND d.failures = 0)
           RETURNING d.id, d.round, d.next_attempt_at
         )
         SELECT page.id, (extract(epoch FROM page.created_at) * 1000000)::bigint::text AS created_us, page.seq::text AS seq,
                restarted.round, restarted.next_attempt_at
         FROM page LEFT JOIN restarted ON restarted.id = page.id
         ORDER BY page.created_at, page.seq`,
        [w.clientId, w.webhookId, w.since, w.until, page.after?.createdAtUs ?? null, page.after?.seq ?? null, page.limit, page.start, page.spacingMs, page.at],
      );
      return rows.map((row) => ({
        id: row.id,
        cursor: { createdAtUs: row.created_us, seq: row.seq },
        resent: row.round !== null && row.next_attempt_at !== null ? { round: row.round, runAt: row.next_attempt_at } : null,
      }));
    },
  };
}
