import { createHash } from 'node:crypto';
import type { Pool, PoolClient } from 'pg';
import { withTransaction } from './db';
import { instanceKeyOf } from './instance';
import { AppError, errors, type ErrorKind } from './errors';

/**
 * A first attempt that has not finished after this long is taken as abandoned, even if its process still holds
 * its instance lock (a live but stuck process). One whose process died is taken over at once (see `run`).
 */
const IN_FLIGHT_TIMEOUT_MS = 60_000;
/** Records are replayed for 24 hours. */
const RETENTION_MS = 24 * 3600_000;

export function requestHash(operation: string, request: unknown): string {
  return createHash('sha256').update(operation).update('\0').update(JSON.stringify(request)).digest('hex');
}

interface StoredError {
  kind: ErrorKind;
  message: string;
  businessCode?: string;
  declinedCode?: string;
  key?: string;
}

export interface IdempotencyCodec<T> {
  encode(value: T): Uint8Array;
  decode(bytes: Uint8Array): T;
}

/**
 * A codec for answers that are plain data: JSON, with Dates and Buffers given back as Dates and Buffers. An answer
 * whose wire message is at hand can use that message's encode and decode instead.
 */
export function jsonCodec<T>(): IdempotencyCodec<T> {
  return {
    encode: (value) =>
      Buffer.from(
        JSON.stringify(value, function (this: Record<string, unknown>, key, replaced: unknown) {
          const raw = this[key];
          if (raw instanceof Date) return { $date: raw.toISOString() };
          if (Buffer.isBuffer(raw)) return { $bytes: raw.toString('base64') };
          return replaced;
        }),
      ),
    decode: (bytes) =>
      JSON.parse(Buffer.from(bytes).toString('utf8'), (_key, value: unknown) => {
        if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
        const tagged = value as { $date?: unknown; $bytes?: unknown };
        if (Object.keys(value).length !== 1) return value;
        if (typeof tagged.$date === 'string') return new Date(tagged.$date);
        if (typeof tagged.$bytes === 'string') return Buffer.from(tagged.$bytes, 'base64');
        return value;
      }) as T,
  };
}

export interface IdempotencyOptions<T> {
  clientId: string;
  key: string | undefined;
  operation: string;
  request: unknown;
  codec: IdempotencyCodec<T>;
}

/** A change made in two steps, so that slow calls to other systems never run inside a database transaction. */
export interface IdempotentSteps<P, T> {
  /**
   * Runs once the key is claimed, with no transaction open. `takeover` is true when this run took over the
   * record of a first attempt that never finished (its process died, or it outlived the in-flight timeout):
   * work that attempt committed on its own may be found and carried on.
   */
  prepare: (attempt: { takeover: boolean }) => Promise<P>;
  /** Runs in the transaction that completes the record, so the change and its answer commit together. */
  commit: (tx: PoolClient, prepared: P) => Promise<T>;
}

const RELEASES_KEY = Symbol('releasesIdempotencyKey');

/**
 * Runs a read-only check that asks another service, before the request changes anything. When that service does
 * not answer (`unavailable`), the claim on the idempotency key is given up instead of recorded, so a retry with the
 * same key runs the request again: nothing was done, and a 503 replayed for a day would help no one. Any other
 * failure is recorded as usual.
 */
export async function checkBeforeChange<T>(check: () => Promise<T>): Promise<T> {
  try {
    return await check();
  } catch (error) {
    if (error instanceof AppError && error.kind === 'unavailable') Object.defineProperty(error, RELEASES_KEY, { value: true });
    throw error;
  }
}

/**
 * Failures that give the key up rather than being recorded: a dependency that did not answer a check made before any
 * change (see checkBeforeChange), and not_found. A 404 changed nothing, and its message may name an id that is not the
 * caller's, which the caller's idempotency record must not keep; a retry asks again.
 */
function releasesKey(error: unknown): boolean {
  if (!(error instanceof AppError)) return false;
  return error.kind === 'not_found' || (error as unknown as Record<symbol, unknown>)[RELEASES_KEY] === true;
}

const inProgress = () => errors.conflict('A request with this X-Idempotency-Key is still being processed', 'idempotency_request_in_progress');

/**
 * Runs a change at most once per (client, key). The record is claimed first, then completed in the same
 * transaction as the change, so a retry either replays the committed answer or runs the change itself:
 * never both. The same key with another request is refused (422), and one still in flight answers 409.
 * Failures are recorded and replayed too.
 *
 * The change is a function of the transaction, or `{ prepare, commit }` steps: `prepare` runs with no
 * transaction (and no pooled connection) held, `commit` in the transaction that completes the record.
 *
 * A claim records the process that made it (its instance lock key, see ./instance.ts, when one is registered
 * for the pool). A retry that finds the record in flight takes it over at once if that process has died (its
 * advisory lock is free: PostgreSQL released it when the process's connection closed), so a crash costs a
 * retry no wait; while the process lives the retry answers 409, until the in-flight timeout, which still
 * bounds a live but stuck run. The record is completed only by the run that holds it, so a late first run
 * rolls its change back and answers 409.
 */
export function withIdempotency<T>(pool: Pool, options: IdempotencyOptions<T>, change: (tx: PoolClient) => Promise<T>): Promise<T>;
export function withIdempotency<T, P>(pool: Pool, options: IdempotencyOptions<T>, steps: IdempotentSteps<P, T>): Promise<T>;
export function withIdempotency<T, P>(
  pool: Pool,
  options: IdempotencyOptions<T>,
  change: ((tx: PoolClient) => Promise<T>) | IdempotentSteps<P, T>,
): Promise<T> {
  if (typeof change === 'function') return run(pool, options, { prepare: async () => undefined, commit: (tx) => change(tx) });
  return run(pool, options, change);
}

/**
 * The stored answer given back. One that this release cannot read (stored in another format by an earlier release,
 * within the retention) is a clear 409, never a 500 and never a second run of the operation.
 */
function replay<T>(codec: IdempotencyCodec<T>, response: Uint8Array): T {
  try {
    return codec.decode(response);
  } catch {
    throw errors.conflict(
      'The answer stored for this X-Idempotency-Key was written by an earlier release and cannot be replayed; the operation ran once: look its result up instead of retrying',
      'idempotency_answer_unreadable',
    );
  }
}

async function run<T, P>(pool: Pool, options: IdempotencyOptions<T>, steps: IdempotentSteps<P, T>): Promise<T> {
  const { clientId, key, operation, codec } = options;
  if (!key) {
    const prepared = await steps.prepare({ takeover: false });
    return withTransaction(pool, (tx) => steps.commit(tx, prepared));
  }
  const hash = requestHash(operation, options.request);

  const claimed = await pool.query<{
    state: string;
    request_hash: string;
    operation: string;
    response: Buffer | null;
    error: StoredError | null;
    claimed_at: string | null;
    fresh: boolean;
    takeover: boolean;
  }>(
    `WITH prior AS (SELECT state FROM idempotency_keys WHERE client_id = $1 AND key = $2),
     ins AS (
       INSERT INTO idempotency_keys (client_id, key, operation, request_hash, state, owner_instance)
         VALUES ($1, $2, $3, $4, 'in_flight', $7::bigint)
       ON CONFLICT (client_id, key) DO UPDATE
         SET state = 'in_flight', operation = EXCLUDED.operation, request_hash = EXCLUDED.request_hash,
             response = NULL, error = NULL, owner_instance = EXCLUDED.owner_instance, created_at = now(), updated_at = now()
         WHERE (idempotency_keys.state = 'in_flight' AND idempotency_keys.request_hash = EXCLUDED.request_hash
                AND (idempotency_keys.updated_at < now() - ($5 || ' milliseconds')::interval
                     OR pg_try_advisory_xact_lock(idempotency_keys.owner_instance)))
            OR idempotency_keys.created_at < now() - ($6 || ' milliseconds')::interval
       RETURNING state, request_hash, operation, response, error, updated_at::text AS claimed_at)
     SELECT ins.*, true AS fresh, COALESCE((SELECT state = 'in_flight' FROM prior), false) AS takeover FROM ins
     UNION ALL
     SELECT state, request_hash, operation, response, error, NULL, false, false FROM idempotency_keys
       WHERE client_id = $1 AND key = $2 AND NOT EXISTS (SELECT 1 FROM ins)`,
    [clientId, key, operation, hash, String(IN_FLIGHT_TIMEOUT_MS), String(RETENTION_MS), instanceKeyOf(pool) ?? null],
  );
  const row = claimed.rows[0];
  if (!row) throw errors.conflict('Request with this idempotency key is in progress', 'idempotency_request_in_progress');
  if (!row.fresh) {
    if (row.request_hash !== hash || row.operation !== operation) {
      throw errors.businessRule('idempotency_key_reused', 'This X-Idempotency-Key was used with a different request');
    }
    if (row.state === 'in_flight') throw inProgress();
    if (row.error) {
      throw new AppError(row.error.kind, row.error.message, row.error);
    }
    if (row.response) return replay(codec, row.response);
  }
  // The claim's timestamp tells this run's record from a later takeover's.
  const ours = `client_id = $1 AND key = $2 AND state = 'in_flight' AND updated_at = $3::timestamptz`;
  const claimedAt = row.claimed_at;

  try {
    const prepared = await steps.prepare({ takeover: row.takeover });
    return await withTransaction(pool, async (tx) => {
      const result = await steps.commit(tx, prepared);
      const completed = await tx.query(`UPDATE idempotency_keys SET state = 'done', response = $4, updated_at = now() WHERE ${ours}`, [
        clientId,
        key,
        claimedAt,
        Buffer.from(codec.encode(result)),
      ]);
      if (completed.rowCount === 0) throw inProgress();
      return result;
    });
  } catch (error) {
    if (releasesKey(error)) {
      const released = await pool.query(`DELETE FROM idempotency_keys WHERE ${ours}`, [clientId, key, claimedAt]);
      if (released.rowCount === 0) throw inProgress();
      throw error;
    }
    // The first answer is the answer, 5xx included (the compatible contract): a failure is recorded and replayed.
    const app = error instanceof AppError ? error : new AppError('internal', 'Internal error', { cause: error });
    const stored: StoredError = {
      kind: app.kind,
      message: app.message,
      businessCode: app.businessCode,
      declinedCode: app.declinedCode,
      key: app.key,
    };
    const recorded = await pool.query(`UPDATE idempotency_keys SET state = 'done', error = $4, updated_at = now() WHERE ${ours}`, [
      clientId,
      key,
      claimedAt,
      JSON.stringify(stored),
    ]);
    // Another run took the record over: its answer, not this one, is the answer to the key.
    if (recorded.rowCount === 0) throw inProgress();
    throw error;
  }
}
