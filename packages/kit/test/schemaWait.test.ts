import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { customers } from '@platform/contracts';
import { createTestDatabase, eventually, testNatsUrl } from '@platform/testkit';
import {
  checkGrpcHealth,
  createLogger,
  createPool,
  createPromiseClient,
  implement,
  KIT_MIGRATIONS_DIR,
  migrateService,
  pendingMigrations,
  startService,
  type RunningService,
  type ServiceDefinitionOptions,
} from '../src';
import type { z } from 'zod';
import { silentLog } from './helpers';

const def = customers.CustomersServiceService;
const KIT_FILES = readdirSync(KIT_MIGRATIONS_DIR).filter((f) => f.endsWith('.sql')).length;

/** A service's migrations folder `<tmp>/widgets/migrations`: a table and the row its one method reads. */
function widgetMigrations(): string {
  const dir = path.join(mkdtempSync(path.join(os.tmpdir(), 'wait-')), 'widgets', 'migrations');
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, '001_widgets.sql'), 'CREATE TABLE widgets (id TEXT PRIMARY KEY, name TEXT NOT NULL);');
  writeFileSync(path.join(dir, '002_first_widget.sql'), "INSERT INTO widgets VALUES ('w1', 'first widget');");
  return dir;
}

/** A service whose getCustomer reads the table its migrations create: it can only answer on the migrated schema. */
function widgetService(migrationsDir: string): ServiceDefinitionOptions<z.ZodObject> {
  return {
    name: 'widgets',
    migrationsDir,
    wire: async ({ pool, log }) => {
      const customer = async (req: { id: string }) => {
        const { rows } = await pool.query<{ name: string }>('SELECT name FROM widgets WHERE id = $1', [req.id]);
        return { id: req.id, clientId: 'c', name: rows[0]?.name ?? '', email: '', phoneNumber: '' };
      };
      const implementation = implement(
        def,
        {
          getCustomer: customer,
          createCustomer: async () => customer({ id: 'new' }),
          listCustomers: async () => ({ items: [], meta: undefined }),
          updateCustomer: customer,
          deleteCustomer: customer,
          addCustomerCard: async () => ({}),
          listCustomerCards: async () => ({ items: [], meta: undefined }),
        },
        log,
      );
      return { services: [{ name: 'customers.v1.CustomersService', definition: def, implementation }] };
    },
  };
}

function capturingLog(): { log: ReturnType<typeof createLogger>; lines: Array<Record<string, unknown>> } {
  const lines: Array<Record<string, unknown>> = [];
  const log = createLogger({ name: 'widgets', level: 'info', destination: { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) } });
  return { log, lines };
}

function envFor(databaseUrl: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return {
    DATABASE_URL: databaseUrl,
    NATS_URL: testNatsUrl(),
    GRPC_HOST: '127.0.0.1',
    GRPC_PORT: '0',
    METRICS_ENABLED: 'false',
    LOG_LEVEL: 'info',
    ...extra,
  };
}

describe('a start with MIGRATE_ON_START=false', () => {
  it('waits on an unmigrated database, NOT_SERVING, saying which migrations it waits for, and serves once they are applied', async () => {
    const migrationsDir = widgetMigrations();
    const databaseUrl = await createTestDatabase('wait');
    const { log, lines } = capturingLog();
    const abandon = new AbortController();
    let service: RunningService | undefined;
    const starting = startService(widgetService(migrationsDir), envFor(databaseUrl, { MIGRATE_ON_START: 'false', MIGRATION_WAIT_POLL_MS: '20' }), {
      log,
      signal: abandon.signal,
    }).then((s) => (service = s));
    try {
      const waiting = await eventually(() => lines.find((l) => typeof l.msg === 'string' && l.msg.startsWith('waiting for migrations')), 'the waiting line');
      expect(waiting.msg).toMatch(new RegExp(`^waiting for migrations: ${KIT_FILES + 2} pending: kit/001_kit\\.sql .*widgets/001_widgets\\.sql widgets/002_first_widget\\.sql`));
      expect(waiting.msg).toMatch(/MIGRATE_ON_START is false/);
      expect(waiting.level).toBe('warn');
      const listening = lines.find((l) => l.msg === 'gRPC server listening');
      expect(listening).toMatchObject({ serving: false });
      const address = `127.0.0.1:${listening!.port as number}`;

      // Listening but not ready: readiness (the kubelet's gRPC probe) fails, the service's methods are not there.
      expect(await checkGrpcHealth(address)).toBe('NOT_SERVING');
      expect(await checkGrpcHealth(address, 'customers.v1.CustomersService')).toBe('SERVICE_UNKNOWN');
      expect(service).toBeUndefined();
      // Nothing was migrated by the waiting start: not even the migrations table.
      const pool = createPool({ url: databaseUrl, log: silentLog });
      try {
        expect(await pendingMigrations(pool, [KIT_MIGRATIONS_DIR, migrationsDir])).toHaveLength(KIT_FILES + 2);
      } finally {
        await pool.end();
      }

      // The migrate command (the chart's Job) runs; the waiting start notices at its next look and serves.
      const applied = await migrateService(widgetService(migrationsDir), { DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent' });
      expect(applied).toHaveLength(KIT_FILES + 2);
      const started = await starting;
      expect(started.port).toBe(listening!.port);
      expect(await checkGrpcHealth(address)).toBe('SERVING');
      expect(await checkGrpcHealth(address, 'customers.v1.CustomersService')).toBe('SERVING');
      const client = createPromiseClient(def, customers.CustomersServiceClient, address);
      try {
        expect((await client.getCustomer({ clientId: 'c', id: 'w1' })).name).toBe('first widget');
      } finally {
        client.close();
      }
      // Said again only when what it waits for changes (a look during the Job's run may see it half done), never at
      // every look: 20 ms polls over the whole wait would otherwise have written dozens of lines.
      const said = lines.filter((l) => typeof l.msg === 'string' && l.msg.startsWith('waiting for migrations')).map((l) => l.msg);
      expect(new Set(said).size).toBe(said.length);
      expect(said.length).toBeLessThanOrEqual(KIT_FILES + 2);
    } finally {
      abandon.abort();
      await starting.catch(() => undefined);
      await service?.stop();
    }
  });

  it('serves at once when the schema is up to date, without migrating or waiting', async () => {
    const migrationsDir = widgetMigrations();
    const databaseUrl = await createTestDatabase('wait');
    await migrateService(widgetService(migrationsDir), { DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent' });
    const { log, lines } = capturingLog();
    const service = await startService(widgetService(migrationsDir), envFor(databaseUrl, { MIGRATE_ON_START: 'false' }), { log });
    try {
      expect(await checkGrpcHealth(`127.0.0.1:${service.port}`, 'customers.v1.CustomersService')).toBe('SERVING');
      expect(lines.some((l) => typeof l.msg === 'string' && l.msg.startsWith('waiting for migrations'))).toBe(false);
    } finally {
      await service.stop();
    }
  });

  it('gives up a wait when its signal aborts, closing its port', async () => {
    const migrationsDir = widgetMigrations();
    const databaseUrl = await createTestDatabase('wait');
    const { log, lines } = capturingLog();
    const abandon = new AbortController();
    const starting = startService(widgetService(migrationsDir), envFor(databaseUrl, { MIGRATE_ON_START: 'false', MIGRATION_WAIT_POLL_MS: '60000' }), {
      log,
      signal: abandon.signal,
    });
    const listening = await eventually(() => lines.find((l) => l.msg === 'gRPC server listening'), 'the listening line');
    abandon.abort();
    await expect(starting).rejects.toThrow(/abandoned while it waited for its migrations/);
    expect(await checkGrpcHealth(`127.0.0.1:${listening.port as number}`, '', 300)).toBe('UNREACHABLE');
  });

  it('migrates at start by default, as local runs and tests do', async () => {
    const migrationsDir = widgetMigrations();
    const databaseUrl = await createTestDatabase('wait');
    const service = await startService(widgetService(migrationsDir), envFor(databaseUrl, { LOG_LEVEL: 'silent' }));
    try {
      expect(await pendingMigrations(service.runtime.pool, [KIT_MIGRATIONS_DIR, migrationsDir])).toEqual([]);
    } finally {
      await service.stop();
    }
  });
});

describe('the migrate command', () => {
  /** `node <entry> migrate` for a main.ts like every service's, on the built kit, with only `env`. */
  function runMigrateCommand(migrationsDir: string, env: NodeJS.ProcessEnv, args = ['migrate']): Promise<{ code: number; stdout: string; stderr: string }> {
    const entry = path.join(mkdtempSync(path.join(os.tmpdir(), 'migrate-cmd-')), 'main.js');
    writeFileSync(
      entry,
      `const { runService } = require(${JSON.stringify(path.join(__dirname, '..', 'dist'))});\n` +
        `runService({ name: 'widgets', migrationsDir: ${JSON.stringify(migrationsDir)}, wire: async () => { throw new Error('the migrate command never wires the service'); } });\n`,
    );
    return new Promise((resolve) => {
      execFile(process.execPath, [entry, ...args], { env: { PATH: process.env.PATH, ...env }, timeout: 30_000 }, (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
        resolve({ code, stdout, stderr });
      });
    });
  }

  it('applies the kit and service migrations with nothing but DATABASE_URL, exits 0, and finds nothing to do the second time', async () => {
    const migrationsDir = widgetMigrations();
    const databaseUrl = await createTestDatabase('migcmd');
    const first = await runMigrateCommand(migrationsDir, { DATABASE_URL: databaseUrl });
    expect(first).toMatchObject({ code: 0, stderr: '' });
    expect(first.stdout).toContain(`${KIT_FILES + 2} migrations applied`);
    const pool = createPool({ url: databaseUrl, log: silentLog });
    try {
      expect(await pendingMigrations(pool, [KIT_MIGRATIONS_DIR, migrationsDir])).toEqual([]);
      expect((await pool.query("SELECT name FROM widgets WHERE id = 'w1'")).rows).toEqual([{ name: 'first widget' }]);
    } finally {
      await pool.end();
    }
    const second = await runMigrateCommand(migrationsDir, { DATABASE_URL: databaseUrl });
    expect(second.code).toBe(0);
    expect(second.stdout).toContain('no migration pending');
  });

  it('exits 1 naming the migration that failed, and 2 on an unknown command', async () => {
    const migrationsDir = widgetMigrations();
    writeFileSync(path.join(migrationsDir, '003_broken.sql'), 'SELECT * FROM no_such_table;');
    const databaseUrl = await createTestDatabase('migcmd');
    const failed = await runMigrateCommand(migrationsDir, { DATABASE_URL: databaseUrl });
    expect(failed.code).toBe(1);
    expect(failed.stderr).toMatch(/widgets migrations failed: Error: migration widgets\/003_broken\.sql failed/);
    const unknown = await runMigrateCommand(migrationsDir, { DATABASE_URL: databaseUrl }, ['migrat']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/usage/);
  });
});
