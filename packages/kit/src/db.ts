import { readdirSync, readFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { Pool, type PoolClient, type QueryResultRow } from 'pg';
import { serializeError, type Logger } from './log';
import { addCollector, gauge, histogram } from './metrics';

export type { Pool, PoolClient };

/** Anything that runs a query: the pool, or the client of an open transaction. */
export interface Queryable {
  query<R extends QueryResultRow = QueryResultRow>(text: string, values?: unknown[]): Promise<{ rows: R[]; rowCount: number | null }>;
}

export function createPool(options: { url: string; size?: number; log: Logger; name?: string }): Pool {
  const pool = new Pool({
    connectionString: options.url,
    max: options.size ?? 10,
    application_name: options.name,
    idleTimeoutMillis: 30_000,
  });
  // An idle client that loses its connection emits here; without a handler the process would crash. Only the
  // error's own fields are logged: pg attaches the client, whose connection parameters must not reach a log.
  pool.on('error', (err) => options.log.warn({ err: serializeError(err) }, 'idle database connection failed'));
  timeQueries(pool);
  return pool;
}

const OPERATIONS = new Set(['SELECT', 'INSERT', 'UPDATE', 'DELETE', 'BEGIN', 'COMMIT', 'ROLLBACK']);

/** The statement's kind for the latency label: its first keyword, or OTHER (WITH, DDL, LISTEN...). */
export function operationOf(text: unknown): string {
  if (typeof text !== 'string') return 'OTHER';
  const match = /^\s*([A-Za-z]+)/.exec(text);
  const word = match?.[1]?.toUpperCase() ?? 'OTHER';
  return OPERATIONS.has(word) ? word : 'OTHER';
}

type QueryFn = (...args: unknown[]) => unknown;

/**
 * Query latency by statement kind, and the pool's clients (in use, idle, waited for) at scrape time. Each client's
 * `query` is timed as it connects: the pool's own `query` goes through it, with a callback, and transactions call it
 * directly. Streams (a cursor) pass through untimed.
 */
function timeQueries(pool: Pool): void {
  const seconds = histogram({ name: 'db_query_duration_seconds', help: 'PostgreSQL statement latency, by statement kind', labelNames: ['operation'] });
  // One child per statement kind, made once: observing through it skips hashing the labels on every statement.
  const timers = new Map<string, ReturnType<typeof seconds.labels>>();
  const timerOf = (operation: string) => {
    let timer = timers.get(operation);
    if (!timer) timers.set(operation, (timer = seconds.labels({ operation })));
    return timer;
  };
  pool.on('connect', (client) => {
    const original = client.query.bind(client) as QueryFn;
    const timed: QueryFn = (...args) => {
      const first = args[0] as { submit?: unknown; text?: unknown } | string | undefined;
      if (first && typeof first === 'object' && typeof first.submit === 'function') return original(...args);
      const timer = timerOf(operationOf(typeof first === 'object' ? first?.text : first));
      const started = performance.now();
      const done = () => timer.observe((performance.now() - started) / 1000);
      const last = args.length - 1;
      const callback = args[last];
      if (typeof callback === 'function') {
        args[last] = (...results: unknown[]) => {
          done();
          return (callback as QueryFn)(...results);
        };
        return original(...args);
      }
      const result = original(...args);
      if (result && typeof (result as Promise<unknown>).then === 'function') (result as Promise<unknown>).then(done, done);
      return result;
    };
    (client as unknown as { query: QueryFn }).query = timed;
  });
  const clients = gauge({ name: 'db_pool_clients', help: 'PostgreSQL pool clients: total, idle, and requests waiting for one', labelNames: ['state'] });
  const max = gauge({ name: 'db_pool_max_clients', help: 'The most clients the PostgreSQL pool opens' });
  const remove = addCollector(async () => {
    // A pool that was ended (its service stopped) is no longer reported.
    if ((pool as unknown as { ending?: boolean }).ending) {
      remove();
      return;
    }
    clients.set({ state: 'total' }, pool.totalCount);
    clients.set({ state: 'idle' }, pool.idleCount);
    clients.set({ state: 'waiting' }, pool.waitingCount);
    max.set(pool.options.max ?? 10);
  });
}

export async function withTransaction<T>(pool: Pool, fn: (tx: PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await fn(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

/** The kit's own tables (outbox, processed events, jobs, idempotency records), applied before a service's. */
export const KIT_MIGRATIONS_DIR = path.join(__dirname, '..', 'migrations');

/**
 * Applies the committed SQL files of each folder in name order, once each, under an advisory lock so that
 * replicas starting together do not race. Each file runs in its own transaction.
 */
export async function migrate(pool: Pool, dirs: string[], log: Logger): Promise<string[]> {
  const client = await pool.connect();
  const applied: string[] = [];
  try {
    await client.query("SELECT pg_advisory_lock(hashtext('schema_migrations'))");
    await client.query(
      'CREATE TABLE IF NOT EXISTS schema_migrations (name TEXT PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())',
    );
    const done = new Set((await client.query<{ name: string }>('SELECT name FROM schema_migrations')).rows.map((r) => r.name));
    for (const dir of dirs) {
      if (!existsSync(dir)) continue;
      const scope = path.basename(path.dirname(dir));
      const files = readdirSync(dir).filter((f) => f.endsWith('.sql')).sort();
      for (const file of files) {
        const name = `${scope}/${file}`;
        if (done.has(name)) continue;
        const sql = readFileSync(path.join(dir, file), 'utf8');
        try {
          await client.query('BEGIN');
          await client.query(sql);
          await client.query('INSERT INTO schema_migrations (name) VALUES ($1)', [name]);
          await client.query('COMMIT');
        } catch (error) {
          await client.query('ROLLBACK').catch(() => undefined);
          throw new Error(`migration ${name} failed: ${(error as Error).message}`, { cause: error });
        }
        applied.push(name);
        log.info({ migration: name }, 'migration applied');
      }
    }
  } finally {
    await client.query("SELECT pg_advisory_unlock(hashtext('schema_migrations'))").catch(() => undefined);
    client.release();
  }
  return applied;
}
