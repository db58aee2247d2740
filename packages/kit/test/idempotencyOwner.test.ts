import { randomUUID } from 'node:crypto';
import { createTestDatabase, eventually } from '@platform/testkit';
import {
  createPool,
  instanceKeyOf,
  KIT_MIGRATIONS_DIR,
  migrate,
  registerInstance,
  startInstance,
  withIdempotency,
  type IdempotencyCodec,
  type Instance,
  type Pool,
  type PoolClient,
} from '../src';
import { silentLog } from './helpers';

const json: IdempotencyCodec<{ id: string }> = {
  encode: (v) => Buffer.from(JSON.stringify(v)),
  decode: (b) => JSON.parse(Buffer.from(b).toString()) as { id: string },
};

/** A promise the test settles by hand, to hold a step where it is. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

/** Two replicas of one service: each its own pool and its own instance lock, on one database. */
describe('withIdempotency across replicas: an in-flight record whose process died', () => {
  let url: string;
  let admin: Pool;
  let a: { pool: Pool; instance: Instance };
  let b: { pool: Pool; instance: Instance };
  const spare: Pool[] = [];

  const replica = async () => {
    const pool = createPool({ url, log: silentLog, size: 5 });
    const instance = await startInstance({ databaseUrl: url, log: silentLog, name: 'replica', reconnectMs: 50 });
    registerInstance(pool, instance);
    return { pool, instance };
  };

  beforeAll(async () => {
    url = await createTestDatabase('idem_owner');
    admin = createPool({ url, log: silentLog, size: 3 });
    await migrate(admin, [KIT_MIGRATIONS_DIR], silentLog);
    await admin.query('CREATE TABLE things (id UUID PRIMARY KEY, client_id UUID)');
  });
  beforeEach(async () => {
    a = await replica();
    b = await replica();
  });
  afterEach(async () => {
    for (const r of [a, b]) {
      await r.pool.end();
      await r.instance.stop();
    }
  });
  afterAll(async () => {
    await Promise.all(spare.map((p) => p.end()));
    await admin.end();
  });

  const count = async (clientId: string) => (await admin.query('SELECT count(*)::int AS n FROM things WHERE client_id = $1', [clientId])).rows[0].n;
  const ownerOf = async (clientId: string, key: string) =>
    (await admin.query<{ owner: string | null }>('SELECT owner_instance::text AS owner FROM idempotency_keys WHERE client_id = $1 AND key = $2', [clientId, key]))
      .rows[0]?.owner;

  /** A two-step create whose prepare can be held open, recording whether each run was a takeover. */
  const creator = (clientId: string, key: string, takeovers: boolean[]) => {
    const started = gate();
    const held = gate();
    const run = (pool: Pool, wait: boolean) =>
      withIdempotency(
        pool,
        { clientId, key, operation: 'things.create', request: { a: 1 }, codec: json },
        {
          prepare: async ({ takeover }) => {
            takeovers.push(takeover);
            if (wait) {
              started.open();
              await held.opened;
            }
            return randomUUID();
          },
          commit: async (tx: PoolClient, id: string) => {
            await tx.query('INSERT INTO things (id, client_id) VALUES ($1, $2)', [id, clientId]);
            return { id };
          },
        },
      );
    return { run, started, held };
  };

  it('records the claiming process and takes nothing over while it lives: the other replica answers 409', async () => {
    const clientId = randomUUID();
    const takeovers: boolean[] = [];
    const { run, started, held } = creator(clientId, 'alive', takeovers);
    const first = run(a.pool, true);
    await started.opened;
    expect(await ownerOf(clientId, 'alive')).toBe(a.instance.key());
    await expect(run(b.pool, false)).rejects.toMatchObject({ kind: 'conflict', key: 'idempotency_request_in_progress' });
    await expect(run(b.pool, false)).rejects.toMatchObject({ kind: 'conflict', key: 'idempotency_request_in_progress' });
    // The replica that claimed it answers 409 to its own retry as well.
    await expect(run(a.pool, false)).rejects.toMatchObject({ kind: 'conflict', key: 'idempotency_request_in_progress' });
    held.open();
    const answer = await first;
    expect(await run(b.pool, false)).toEqual(answer);
    expect(takeovers).toEqual([false]);
    expect(await count(clientId)).toBe(1);
  });

  it('lets another replica take over at once when the claiming process is gone, and refuses the late commit', async () => {
    const clientId = randomUUID();
    const takeovers: boolean[] = [];
    const { run, started, held } = creator(clientId, 'dead', takeovers);
    const first = run(a.pool, true);
    await started.opened;
    // The process dies: its lock connection closes (the claim is seconds old, far from the in-flight timeout).
    await a.instance.stop();
    const retried = await run(b.pool, false);
    expect(takeovers).toEqual([false, true]);
    expect(await ownerOf(clientId, 'dead')).toBe(b.instance.key());
    // Had the first run somehow gone on, its commit is refused: the retry's answer is the answer.
    held.open();
    await expect(first).rejects.toMatchObject({ kind: 'conflict', key: 'idempotency_request_in_progress' });
    expect(await count(clientId)).toBe(1);
    expect(await run(b.pool, false)).toEqual(retried);
  });

  it('takes over once when several retries find the dead owner together', async () => {
    const clientId = randomUUID();
    const takeovers: boolean[] = [];
    const { run, started, held } = creator(clientId, 'dead-burst', takeovers);
    const first = run(a.pool, true);
    await started.opened;
    await a.instance.stop();
    const results = await Promise.allSettled(Array.from({ length: 10 }, () => run(b.pool, false)));
    const ok = results.filter((r): r is PromiseFulfilledResult<{ id: string }> => r.status === 'fulfilled');
    expect(new Set(ok.map((r) => r.value.id)).size).toBe(1);
    for (const r of results) if (r.status === 'rejected') expect(r.reason).toMatchObject({ kind: 'conflict' });
    expect(takeovers.filter((t) => t)).toHaveLength(1);
    held.open();
    await expect(first).rejects.toMatchObject({ kind: 'conflict' });
    expect(await count(clientId)).toBe(1);
  });

  it('still takes over a live but stuck owner after the in-flight timeout', async () => {
    const clientId = randomUUID();
    const takeovers: boolean[] = [];
    const { run, started, held } = creator(clientId, 'stuck', takeovers);
    const first = run(a.pool, true);
    await started.opened;
    await expect(run(b.pool, false)).rejects.toMatchObject({ kind: 'conflict' });
    await admin.query(`UPDATE idempotency_keys SET updated_at = now() - interval '2 minutes' WHERE client_id = $1 AND key = 'stuck'`, [clientId]);
    await run(b.pool, false);
    expect(takeovers).toEqual([false, true]);
    held.open();
    await expect(first).rejects.toMatchObject({ kind: 'conflict' });
    expect(await count(clientId)).toBe(1);
  });

  it('answers 409 to a claim made without an instance lock until the in-flight timeout', async () => {
    const bare = createPool({ url, log: silentLog, size: 2 });
    spare.push(bare);
    expect(instanceKeyOf(bare)).toBeUndefined();
    const clientId = randomUUID();
    const takeovers: boolean[] = [];
    const { run, started, held } = creator(clientId, 'ownerless', takeovers);
    const first = run(bare, true);
    await started.opened;
    expect(await ownerOf(clientId, 'ownerless')).toBeNull();
    await expect(run(b.pool, false)).rejects.toMatchObject({ kind: 'conflict' });
    held.open();
    await first;
    expect(takeovers).toEqual([false]);
  });

  it('holds its lock again, on the same key, after its connection is cut', async () => {
    const key = a.instance.key();
    expect(key).toBeDefined();
    expect(b.instance.key()).not.toBe(key);
    const holder = async () =>
      (
        await admin.query<{ pid: number }>(
          `SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted AND objsubid = 1
             AND ((classid::bigint << 32) | objid::bigint) = $1::bigint`,
          [key],
        )
      ).rows[0]?.pid;
    const before = await holder();
    expect(before).toBeDefined();
    await admin.query('SELECT pg_terminate_backend($1)', [before]);
    const after = await eventually(async () => {
      const pid = await holder();
      return pid !== undefined && pid !== before && a.instance.key() === key ? pid : undefined;
    }, 'the lock to be held again', { timeoutMs: 10_000 });
    expect(after).not.toBe(before);
    // Held for real: another session cannot take it.
    const held = await admin.query<{ free: boolean }>('SELECT pg_try_advisory_lock($1::bigint) AS free', [key]);
    expect(held.rows[0]!.free).toBe(false);
  });
});
