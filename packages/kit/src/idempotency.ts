import { createHash } from 'node:crypto';
import type { Pool, PoolClient } from 'pg';
import { withTransaction } from './db';
import { AppError, errors, type ErrorKind } from './errors';

/** A first attempt that has not finished after this long is taken as abandoned (its process died). */
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
 * Runs `change` at most once per (client, key). The record is claimed first, then completed in the same
 * transaction as the change, so a retry either replays the committed answer or runs the change itself:
 * never both. The same key with another request is refused (422), and one still in flight answers 409.
 * Failures are recorded and replayed too.
 */
export async function withIdempotency<T>(
  pool: Pool,
  options: { clientId: string; key: string | undefined; operation: string; request: unknown; codec: IdempotencyCodec<T> },
  change: (tx: PoolClient) => Promise<T>,
): Promise<T> {
  const { clientId, key, operation, codec } = options;
  if (!key) return withTransaction(pool, change);
  const hash = requestHash(operation, options.request);

  const claimed = await pool.query<{ state: string; request_hash: string; operation: string; response: Buffer | null; error: StoredError | null; fresh: boolean; stale: boolean }>(
    `WITH ins AS (
       INSERT INTO idempotency_keys (client_id, key, operation, request_hash, state) VALUES ($1, $2, $3, $4, 'in_flight')
       ON CONFLICT (client_id, key) DO UPDATE
         SET state = 'in_flight', operation = EXCLUDED.operation, request_hash = EXCLUDED.request_hash,
             response = NULL, error = NULL, created_at = now(), updated_at = now()
         WHERE (idempotency_keys.state = 'in_flight' AND idempotency_keys.updated_at < now() - ($5 || ' milliseconds')::interval
                AND idempotency_keys.request_hash = EXCLUDED.request_hash)
            OR idempotency_keys.created_at < now() - ($6 || ' milliseconds')::interval
       RETURNING state, request_hash, operation, response, error, true AS fresh, false AS stale)
     SELECT * FROM ins
     UNION ALL
     SELECT state, request_hash, operation, response, error, false AS fresh, false AS stale FROM idempotency_keys
       WHERE client_id = $1 AND key = $2 AND NOT EXISTS (SELECT 1 FROM ins)`,
    [clientId, key, operation, hash, String(IN_FLIGHT_TIMEOUT_MS), String(RETENTION_MS)],
  );
  const row = claimed.rows[0];
  if (!row) throw errors.conflict('Request with this idempotency key is in progress', 'idempotency_request_in_progress');
  if (!row.fresh) {
    if (row.request_hash !== hash || row.operation !== operation) {
      throw errors.businessRule('idempotency_key_reused', 'This X-Idempotency-Key was used with a different request');
    }
    if (row.state === 'in_flight') {
      throw errors.conflict('A request with this X-Idempotency-Key is still being processed', 'idempotency_request_in_progress');
    }
    if (row.error) {
      throw new AppError(row.error.kind, row.error.message, row.error);
    }
    if (row.response) return codec.decode(row.response);
  }

  try {
    return await withTransaction(pool, async (tx) => {
      const result = await change(tx);
      await tx.query(
        `UPDATE idempotency_keys SET state = 'done', response = $3, updated_at = now() WHERE client_id = $1 AND key = $2`,
        [clientId, key, Buffer.from(codec.encode(result))],
      );
      return result;
    });
  } catch (error) {
    // The first answer is the answer, 5xx included (the compatible contract): a failure is recorded and replayed.
    const app = error instanceof AppError ? error : new AppError('internal', 'Internal error', { cause: error });
    const stored: StoredError = {
      kind: app.kind,
      message: app.message,
      businessCode: app.businessCode,
      declinedCode: app.declinedCode,
      key: app.key,
    };
    await pool.query(
      `UPDATE idempotency_keys SET state = 'done', error = $3, updated_at = now() WHERE client_id = $1 AND key = $2`,
      [clientId, key, JSON.stringify(stored)],
    );
    throw error;
  }
}
