import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createTestDatabase } from '@platform/testkit';
import { createPool, migrate } from '../src';
import { silentLog } from './helpers';

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
});
