import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createLogger, createPool, KIT_MIGRATIONS_DIR, migrate, pendingMigrations } from '@platform/kit';
import { createTestDatabase } from '@platform/testkit';

const silentLogger = createLogger({ name: 'payments-test', level: 'silent' });

const MIGRATIONS = path.join(__dirname, '..', '..', 'migrations');
const renamed = JSON.parse(readFileSync(path.join(MIGRATIONS, 'renamed.json'), 'utf8')) as Record<string, string[]>;

/** The payments migrations as the release before named them (two files numbered 002), in a folder of their own. */
function earlierMigrations(): string {
  const dir = path.join(mkdtempSync(path.join(os.tmpdir(), 'payments-mig-')), 'payments', 'migrations');
  mkdirSync(dir, { recursive: true });
  for (const file of readdirSync(MIGRATIONS).filter((f) => f.endsWith('.sql'))) copyFileSync(path.join(MIGRATIONS, file), path.join(dir, renamed[file]?.[0] ?? file));
  return dir;
}

describe('payments migrations', () => {
  it('are numbered once each', () => {
    const numbers = readdirSync(MIGRATIONS)
      .filter((f) => f.endsWith('.sql'))
      .map((f) => f.slice(0, 3));
    expect(new Set(numbers).size).toBe(numbers.length);
  });

  it('leave nothing to run on a database migrated under the earlier names, and record the new names beside them', async () => {
    const earlier = earlierMigrations();
    expect(readdirSync(earlier).filter((f) => f.startsWith('002_'))).toHaveLength(2);
    const pool = createPool({ url: await createTestDatabase('paymig'), log: silentLogger });
    try {
      await migrate(pool, [KIT_MIGRATIONS_DIR, earlier], silentLogger);
      expect(await pendingMigrations(pool, [KIT_MIGRATIONS_DIR, MIGRATIONS])).toEqual([]);
      expect(await migrate(pool, [KIT_MIGRATIONS_DIR, MIGRATIONS], silentLogger)).toEqual([]);
      const { rows } = await pool.query<{ name: string }>("SELECT name FROM schema_migrations WHERE name LIKE 'payments/%'");
      const names = new Set(rows.map((r) => r.name));
      for (const [file, before] of Object.entries(renamed)) {
        expect([file, names.has(`payments/${file}`), names.has(`payments/${before[0]}`)]).toEqual([file, true, true]);
      }
    } finally {
      await pool.end();
    }
  });
});
