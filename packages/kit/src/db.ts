import { readdirSync, readFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { Pool, type PoolClient, type QueryResultRow } from 'pg';
import { serializeError, type Logger } from './log';
import { addCollector, gauge, histogram } from './metrics';
import { sleep } from './time';

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
  return inTransaction(pool, 'BEGIN', fn);
}

/**
 * Several reads that must agree with each other (rows and their children, a page and its count), in one read-only
 * REPEATABLE READ transaction: every statement sees the same snapshot, so a write committed between two of them
 * cannot show in one and not the other.
 */
export function withSnapshot<T>(pool: Pool, fn: (tx: PoolClient) => Promise<T>): Promise<T> {
  return inTransaction(pool, 'BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY', fn);
}

async function inTransaction<T>(pool: Pool, begin: string, fn: (tx: PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query(begin);
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

export interface MigrateOptions {
  /**
   * lock_timeout of every migration statement, in ms: a statement that waits longer for a lock (an ALTER TABLE behind
   * a long transaction of live traffic, with every later query of that table queued behind the ALTER) fails the
   * migration, which is rolled back and can be run again, instead of stalling the table. 0: wait as long as it takes.
   */
  lockTimeoutMs?: number;
  /** statement_timeout of every migration statement, in ms; 0: none. */
  statementTimeoutMs?: number;
  /** How often a migration waiting for another process's migration lock tries again; it says so every ~10 s. */
  lockPollMs?: number;
  /** How the waits pass (tests inject a fake). */
  sleep?: (ms: number) => Promise<void>;
}

/**
 * One committed migration file: its name in schema_migrations (`<scope>/<file>`), where it is, and the names it was
 * recorded under before a rename (from the folder's `renamed.json`).
 */
interface MigrationFile {
  name: string;
  file: string;
  earlier: string[];
}

/**
 * The folder's `renamed.json`, when there is one: each file renamed after it was released, with the names it had
 * (`{ "003_merchants_vault.sql": ["002_merchants_vault.sql"] }`). A database that applied a file under an earlier name
 * has applied it: migrate() records the new name beside the old one instead of running the file again.
 */
export const RENAMED_MIGRATIONS_FILE = 'renamed.json';

function renamedIn(dir: string): Record<string, string[]> {
  const file = path.join(dir, RENAMED_MIGRATIONS_FILE);
  if (!existsSync(file)) return {};
  const parsed = JSON.parse(readFileSync(file, 'utf8')) as unknown;
  const valid =
    parsed !== null &&
    typeof parsed === 'object' &&
    !Array.isArray(parsed) &&
    Object.values(parsed).every((names) => Array.isArray(names) && names.every((name) => typeof name === 'string' && name.endsWith('.sql')));
  if (!valid) throw new Error(`${file}: expected { "<file>.sql": ["<earlier name>.sql", ...] }`);
  const renamed = parsed as Record<string, string[]>;
  // A name that matches no file, or an earlier name that is still a file, would run a migration twice or never.
  for (const [name, earlier] of Object.entries(renamed)) {
    if (!existsSync(path.join(dir, name))) throw new Error(`${file}: ${name} is not a file of the folder`);
    const present = earlier.find((old) => existsSync(path.join(dir, old)));
    if (present) throw new Error(`${file}: ${present}, an earlier name of ${name}, is still a file of the folder`);
  }
  return renamed;
}

const MIGRATION_LOCK = "hashtext('schema_migrations')";
const LOCK_NOT_AVAILABLE = '55P03';
const QUERY_CANCELED = '57014';
const LOCK_WAIT_LOG_MS = 10_000;

/** The committed SQL files of each folder in name order, named `<scope>/<file>` (the scope is the folder's parent). */
function migrationFiles(dirs: string[]): MigrationFile[] {
  const files: MigrationFile[] = [];
  for (const dir of dirs) {
    if (!existsSync(dir)) continue;
    const scope = path.basename(path.dirname(dir));
    const renamed = renamedIn(dir);
    for (const file of readdirSync(dir).filter((f) => f.endsWith('.sql')).sort()) {
      files.push({ name: `${scope}/${file}`, file: path.join(dir, file), earlier: (renamed[file] ?? []).map((name) => `${scope}/${name}`) });
    }
  }
  return files;
}

/** The names in schema_migrations; none when the table does not exist yet. */
async function appliedMigrations(db: Queryable): Promise<Set<string>> {
  const table = await db.query<{ t: string | null }>("SELECT to_regclass('schema_migrations')::text AS t");
  if (!table.rows[0]?.t) return new Set();
  return new Set((await db.query<{ name: string }>('SELECT name FROM schema_migrations')).rows.map((r) => r.name));
}

/**
 * The committed migrations of `dirs` that the database has not applied, in the order migrate() would apply them: what
 * a process that does not migrate at start waits for.
 */
export async function pendingMigrations(db: Queryable, dirs: string[]): Promise<string[]> {
  const applied = await appliedMigrations(db);
  return migrationFiles(dirs)
    .filter((m) => !isApplied(m, applied))
    .map((m) => m.name);
}

/** Applied under its name or under a name it had before a rename. */
function isApplied(migration: MigrationFile, applied: Set<string>): boolean {
  return applied.has(migration.name) || migration.earlier.some((name) => applied.has(name));
}

/** Who holds the migration lock (its pid and application name), for the log of a process waiting for it. */
async function migrationLockHolder(client: PoolClient): Promise<{ pid?: number; application?: string }> {
  const { rows } = await client.query<{ pid: number; application: string }>(
    `SELECT a.pid, a.application_name AS application FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
      WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 1 AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
        AND ((l.classid::bigint << 32) | l.objid::bigint) = ${MIGRATION_LOCK}::bigint
      LIMIT 1`,
  );
  const row = rows[0];
  return row ? { pid: row.pid, application: row.application || undefined } : {};
}

/**
 * Takes the migration lock, trying again every lockPollMs while another process (a replica, a migration Job) holds it,
 * and saying so about every 10 s: a migration waiting for another is visible, never a silent hang.
 */
async function takeMigrationLock(client: PoolClient, log: Logger, options: MigrateOptions): Promise<void> {
  const pollMs = Math.max(1, options.lockPollMs ?? 250);
  const pause = options.sleep ?? sleep;
  const logEvery = Math.max(1, Math.round(LOCK_WAIT_LOG_MS / pollMs));
  for (let attempt = 0; ; attempt++) {
    const { rows } = await client.query<{ ok: boolean }>(`SELECT pg_try_advisory_lock(${MIGRATION_LOCK}) AS ok`);
    if (rows[0]?.ok) {
      if (attempt > 0) log.info({ waitedMs: attempt * pollMs }, 'migration lock taken');
      return;
    }
    if (attempt % logEvery === 0) {
      const holder = await migrationLockHolder(client).catch(() => ({}));
      log.info({ holder, waitedMs: attempt * pollMs }, 'waiting for the migration lock: another process is migrating this database');
    }
    await pause(pollMs);
  }
}

/** A failed migration's error, saying plainly when it was a timeout and which setting bounds it. */
function migrationError(name: string, error: unknown, options: MigrateOptions): Error {
  const code = (error as { code?: unknown })?.code;
  const message = (error as Error)?.message ?? String(error);
  let why = message;
  if (code === LOCK_NOT_AVAILABLE) {
    why = `it waited more than ${options.lockTimeoutMs} ms for a lock that other sessions hold (MIGRATION_LOCK_TIMEOUT_MS): nothing was applied, run it again (the migration Job retries) or when the traffic holding the table is over (${message})`;
  } else if (code === QUERY_CANCELED && options.statementTimeoutMs) {
    why = `a statement ran longer than ${options.statementTimeoutMs} ms (MIGRATION_STATEMENT_TIMEOUT_MS): nothing was applied (${message})`;
  }
  return new Error(`migration ${name} failed: ${why}`, { cause: error });
}

/**
 * Applies the committed SQL files of each folder in name order, once each, under an advisory lock so that
 * replicas starting together do not race. Each file runs in its own transaction, under the lock and statement
 * timeouts of `options`.
 */
export async function migrate(pool: Pool, dirs: string[], log: Logger, options: MigrateOptions = {}): Promise<string[]> {
  const client = await pool.connect();
  const applied: string[] = [];
  let locked = false;
  try {
    await takeMigrationLock(client, log, options);
    locked = true;
    await client.query(`SET lock_timeout = ${Math.max(0, Math.trunc(options.lockTimeoutMs ?? 0))}`);
    await client.query(`SET statement_timeout = ${Math.max(0, Math.trunc(options.statementTimeoutMs ?? 0))}`);
    try {
      await client.query(
        'CREATE TABLE IF NOT EXISTS schema_migrations (name TEXT PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())',
      );
    } catch (error) {
      throw migrationError('schema_migrations', error, options);
    }
    const done = await appliedMigrations(client);
    for (const migration of migrationFiles(dirs)) {
      const { name, file } = migration;
      if (done.has(name)) continue;
      if (isApplied(migration, done)) {
        // Renamed after it was applied: recorded under its new name too, with the time it ran. The earlier name stays,
        // for the processes of the release before, still serving while this one rolls out.
        const earlier = migration.earlier.find((n) => done.has(n))!;
        await client.query(
          'INSERT INTO schema_migrations (name, applied_at) SELECT $1, applied_at FROM schema_migrations WHERE name = $2 ON CONFLICT (name) DO NOTHING',
          [name, earlier],
        );
        log.info({ migration: name, earlier }, 'migration applied under an earlier name; recorded under its new name');
        continue;
      }
      const sql = readFileSync(file, 'utf8');
      try {
        await client.query('BEGIN');
        await client.query(sql);
        await client.query('INSERT INTO schema_migrations (name) VALUES ($1)', [name]);
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw migrationError(name, error, options);
      }
      applied.push(name);
      log.info({ migration: name }, 'migration applied');
    }
  } finally {
    // The client goes back to the pool: it must not keep the migration's timeouts, nor the lock.
    await client.query('RESET lock_timeout').catch(() => undefined);
    await client.query('RESET statement_timeout').catch(() => undefined);
    if (locked) await client.query(`SELECT pg_advisory_unlock(${MIGRATION_LOCK})`).catch(() => undefined);
    client.release();
  }
  return applied;
}
