import { withSnapshot, withTransaction, type Pool } from '../src';
import { kitDatabase } from './helpers';

describe('withSnapshot', () => {
  let pool: Pool;
  beforeAll(async () => {
    pool = await kitDatabase('snapshot');
    await pool.query('CREATE TABLE parents (id int PRIMARY KEY, state text NOT NULL)');
    await pool.query('CREATE TABLE children (parent_id int NOT NULL, n int NOT NULL)');
    await pool.query("INSERT INTO parents VALUES (1, 'pending')");
  });
  afterAll(async () => {
    await pool.end();
  });

  it('reads a parent and its children from one snapshot while a write that changes both commits between the two reads', async () => {
    const seen = await withSnapshot(pool, async (tx) => {
      const parent = (await tx.query<{ state: string }>('SELECT state FROM parents WHERE id = 1')).rows[0]!.state;
      // A write of both, committed between the two reads (another connection): the snapshot sees neither half.
      await withTransaction(pool, async (other) => {
        await other.query('INSERT INTO children VALUES (1, 1)');
        await other.query("UPDATE parents SET state = 'done' WHERE id = 1");
      });
      const children = (await tx.query('SELECT n FROM children WHERE parent_id = 1')).rows.length;
      return { parent, children };
    });
    expect(seen).toEqual({ parent: 'pending', children: 0 });
    // Outside it, both halves show.
    expect((await pool.query('SELECT count(*)::int AS n FROM children')).rows[0].n).toBe(1);
  });

  it('refuses a write inside it and gives its connection back', async () => {
    await expect(withSnapshot(pool, (tx) => tx.query("UPDATE parents SET state = 'x'"))).rejects.toThrow(/read-only transaction/);
    expect(pool.totalCount - pool.idleCount).toBe(0);
  });
});
