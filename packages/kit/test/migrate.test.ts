import { mkdtempSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createTestDatabase } from '@platform/testkit';
import { createLogger, createPool, migrate, pendingMigrations } from '../src';
import { silentLog } from './helpers';

/** A migrations folder `<tmp>/svc/migrations` with the given files. */
function migrationsDir(files: Record<string, string>): string {
  const dir = path.join(mkdtempSync(path.join(os.tmpdir(), 'mig-')), 'svc', 'migrations');
  mkdirSync(dir, { recursive: true });
  for (const [name, sql] of Object.entries(files)) writeFileSync(path.join(dir, name), sql);
  return dir;
}

/** A logger whose lines are kept, parsed. */
function capturingLog(): { log: ReturnType<typeof createLogger>; lines: Array<Record<string, unknown>> } {
  const lines: Array<Record<string, unknown>> = [];
  const log = createLogger({ name: 'test', level: 'info', destination: { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) } });
  return { log, lines };
}

describe('migrate', () => {
  it('applies each file once, in order, even when replicas start together', async () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'mig-'));
    const dir = path.join(root, 'svc', 'migrations');
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, '001_a.sql'), 'CREATE TABLE a (id INT PRIMARY KEY);');
    writeFileSync(path.join(dir, '002_b.sql'), 'INSERT INTO a VALUES (1);');
    const pool = createPool({ url: await createTestDatabase('mig'), log: silentLog });
    try {
      const results = await Promise.all([migrate(pool, [dir], silentLog), migrate(pool, [dir], silentLog), migrate(pool, [dir], silentLog)]);
      expect(results.flat().sort()).toEqual(['svc/001_a.sql', 'svc/002_b.sql']);
      expect((await pool.query('SELECT count(*)::int AS n FROM a')).rows[0].n).toBe(1);
      expect(await migrate(pool, [dir], silentLog)).toEqual([]);
    } finally {
      await pool.end();
    }
  });

  it('rolls back a failing file entirely and names it', async () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'mig-'));
    const dir = path.join(root, 'svc', 'migrations');
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, '001_bad.sql'), 'CREATE TABLE ok (id INT); SELECT * FROM missing_table;');
    const pool = createPool({ url: await createTestDatabase('mig'), log: silentLog });
    try {
      await expect(migrate(pool, [dir], silentLog)).rejects.toThrow(/svc\/001_bad\.sql/);
      const exists = await pool.query("SELECT to_regclass('ok') AS t");
      expect(exists.rows[0].t).toBeNull();
    } finally {
      await pool.end();
    }
  });

  it('fails a migration that waits for a table lock longer than lockTimeoutMs, applies nothing of it, and applies it once the lock is gone', async () => {
    const dir = migrationsDir({ '001_a.sql': 'CREATE TABLE a (id INT PRIMARY KEY);' });
    const pool = createPool({ url: await createTestDatabase('mig'), log: silentLog, size: 4 });
    const live = await pool.connect();
    try {
      await migrate(pool, [dir], silentLog);
      writeFileSync(path.join(dir, '002_b.sql'), 'ALTER TABLE a ADD COLUMN b INT;');
      // Live traffic: a transaction that read the table holds its ACCESS SHARE lock until it ends; the ALTER needs
      // ACCESS EXCLUSIVE and, without a lock timeout, would queue (and every later query of the table behind it).
      await live.query('BEGIN');
      await live.query('SELECT * FROM a');
      await expect(migrate(pool, [dir], silentLog, { lockTimeoutMs: 100 })).rejects.toThrow(
        /migration svc\/002_b\.sql failed: it waited more than 100 ms for a lock .*MIGRATION_LOCK_TIMEOUT_MS/,
      );
      expect(await pendingMigrations(pool, [dir])).toEqual(['svc/002_b.sql']);
      await live.query('COMMIT');
      // The pool's clients do not keep the migration's timeout.
      expect((await pool.query('SHOW lock_timeout')).rows[0].lock_timeout).toBe('0');
      expect(await migrate(pool, [dir], silentLog, { lockTimeoutMs: 100 })).toEqual(['svc/002_b.sql']);
      expect((await pool.query("SELECT count(*)::int AS n FROM information_schema.columns WHERE table_name = 'a' AND column_name = 'b'")).rows[0].n).toBe(1);
    } finally {
      await live.query('ROLLBACK').catch(() => undefined);
      live.release();
      await pool.end();
    }
  }, 20_000);

  it('fails a statement that runs longer than statementTimeoutMs and says which setting bounds it', async () => {
    const dir = migrationsDir({ '001_slow.sql': 'SELECT pg_sleep(30);' });
    const pool = createPool({ url: await createTestDatabase('mig'), log: silentLog });
    try {
      await expect(migrate(pool, [dir], silentLog, { statementTimeoutMs: 50 })).rejects.toThrow(/svc\/001_slow\.sql failed: .*MIGRATION_STATEMENT_TIMEOUT_MS/);
      expect(await pendingMigrations(pool, [dir])).toEqual(['svc/001_slow.sql']);
    } finally {
      await pool.end();
    }
  }, 20_000);

  it('says it waits, and for whom, while another process holds the migration lock, then migrates once it is free', async () => {
    const dir = migrationsDir({ '001_a.sql': 'CREATE TABLE a (id INT PRIMARY KEY);' });
    const url = await createTestDatabase('mig');
    const pool = createPool({ url, log: silentLog });
    const other = createPool({ url, log: silentLog, name: 'other-replica' });
    const holder = await other.connect();
    const { log, lines } = capturingLog();
    try {
      await holder.query("SELECT pg_advisory_lock(hashtext('schema_migrations'))");
      let pauses = 0;
      const applied = await migrate(pool, [dir], log, {
        lockPollMs: 1000,
        // The waits pass at once; the holder lets go at the third one.
        sleep: async () => {
          pauses += 1;
          if (pauses === 3) await holder.query("SELECT pg_advisory_unlock(hashtext('schema_migrations'))");
        },
      });
      expect(applied).toEqual(['svc/001_a.sql']);
      expect(pauses).toBe(3);
      const waiting = lines.filter((l) => typeof l.msg === 'string' && l.msg.startsWith('waiting for the migration lock'));
      expect(waiting.length).toBeGreaterThanOrEqual(1);
      expect(waiting[0]!.holder).toEqual({ pid: expect.any(Number), application: 'other-replica' });
      expect(lines.some((l) => l.msg === 'migration lock taken')).toBe(true);
    } finally {
      holder.release();
      await other.end();
      await pool.end();
    }
  });

  it('lists the committed files a database has not applied, all of them before the first migration', async () => {
    const dir = migrationsDir({ '001_a.sql': 'CREATE TABLE a (id INT);', '002_b.sql': 'CREATE TABLE b (id INT);' });
    const pool = createPool({ url: await createTestDatabase('mig'), log: silentLog });
    try {
      expect(await pendingMigrations(pool, [dir])).toEqual(['svc/001_a.sql', 'svc/002_b.sql']);
      await migrate(pool, [dir], silentLog);
      writeFileSync(path.join(dir, '003_c.sql'), 'CREATE TABLE c (id INT);');
      expect(await pendingMigrations(pool, [dir])).toEqual(['svc/003_c.sql']);
    } finally {
      await pool.end();
    }
  });

  it('takes a file renamed after it was applied as applied, and records its new name beside the earlier one', async () => {
    // Two files numbered 002, as a release shipped them; the next release numbers them once.
    const dir = migrationsDir({
      '001_a.sql': 'CREATE TABLE a (id INT);',
      '002_b.sql': 'CREATE TABLE b (id INT);',
      '002_c.sql': 'CREATE TABLE c (id INT);',
      '003_d.sql': 'CREATE TABLE d (id INT);',
    });
    const pool = createPool({ url: await createTestDatabase('mig'), log: silentLog });
    const fresh = createPool({ url: await createTestDatabase('mig'), log: silentLog });
    try {
      await migrate(pool, [dir], silentLog);
      const { rows: before } = await pool.query<{ name: string; applied_at: Date }>("SELECT name, applied_at FROM schema_migrations WHERE name = 'svc/002_c.sql'");
      renameSync(path.join(dir, '003_d.sql'), path.join(dir, '004_d.sql'));
      renameSync(path.join(dir, '002_c.sql'), path.join(dir, '003_c.sql'));
      writeFileSync(path.join(dir, '005_e.sql'), 'CREATE TABLE e (id INT);');
      writeFileSync(path.join(dir, 'renamed.json'), JSON.stringify({ '003_c.sql': ['002_c.sql'], '004_d.sql': ['003_d.sql'] }));

      // Only the new file is pending, and only it runs: running a renamed file again would fail (its table exists).
      expect(await pendingMigrations(pool, [dir])).toEqual(['svc/005_e.sql']);
      expect(await migrate(pool, [dir], silentLog)).toEqual(['svc/005_e.sql']);
      const { rows } = await pool.query<{ name: string; applied_at: Date }>('SELECT name, applied_at FROM schema_migrations ORDER BY name');
      // The earlier names stay for the release before, which still serves during the upgrade.
      expect(rows.map((r) => r.name)).toEqual(['svc/001_a.sql', 'svc/002_b.sql', 'svc/002_c.sql', 'svc/003_c.sql', 'svc/003_d.sql', 'svc/004_d.sql', 'svc/005_e.sql']);
      expect(rows.find((r) => r.name === 'svc/003_c.sql')!.applied_at).toEqual(before[0]!.applied_at);
      expect(await migrate(pool, [dir], silentLog)).toEqual([]);

      // A new database applies every file once, in the same order, under its new name only.
      expect(await migrate(fresh, [dir], silentLog)).toEqual(['svc/001_a.sql', 'svc/002_b.sql', 'svc/003_c.sql', 'svc/004_d.sql', 'svc/005_e.sql']);
      expect(await pendingMigrations(fresh, [dir])).toEqual([]);
    } finally {
      await pool.end();
      await fresh.end();
    }
  });

  it('refuses a renamed.json that does not map files of the folder to the names they had', async () => {
    const pool = createPool({ url: await createTestDatabase('mig'), log: silentLog });
    const refused = (renamed: unknown) =>
      migrate(pool, [migrationsDir({ '001_a.sql': 'CREATE TABLE a (id INT);', '002_b.sql': 'CREATE TABLE b (id INT);', 'renamed.json': JSON.stringify(renamed) })], silentLog);
    try {
      await expect(refused({ '001_a.sql': '000_a.sql' })).rejects.toThrow(/renamed\.json: expected/);
      await expect(refused({ '003_a.sql': ['001_a.sql'] })).rejects.toThrow(/renamed\.json: 003_a\.sql is not a file of the folder/);
      await expect(refused({ '002_b.sql': ['001_a.sql'] })).rejects.toThrow(/renamed\.json: 001_a\.sql, an earlier name of 002_b\.sql, is still a file/);
      expect((await pool.query("SELECT to_regclass('schema_migrations')::text AS t")).rows[0].t).toBe('schema_migrations');
      expect((await pool.query('SELECT count(*)::int AS n FROM schema_migrations')).rows[0].n).toBe(0);
    } finally {
      await pool.end();
    }
  });
});
