import { randomUUID } from 'node:crypto';
import { type AppError, checkBeforeChange, errors, jsonCodec, withIdempotency, type IdempotencyCodec, type Pool, type PoolClient } from '../src';
import { kitDatabase } from './helpers';

const json: IdempotencyCodec<{ id: string }> = {
  encode: (v) => Buffer.from(JSON.stringify(v)),
  decode: (b) => JSON.parse(Buffer.from(b).toString()) as { id: string },
};

describe('withIdempotency', () => {
  let pool: Pool;
  beforeAll(async () => {
    pool = await kitDatabase('idem');
    await pool.query('CREATE TABLE things (id UUID PRIMARY KEY, client_id UUID)');
  });
  afterAll(async () => {
    await pool.end();
  });

  const create = (clientId: string, key: string | undefined, request: unknown) =>
    withIdempotency(pool, { clientId, key, operation: 'things.create', request, codec: json }, async (tx) => {
      const id = randomUUID();
      await tx.query('INSERT INTO things (id, client_id) VALUES ($1, $2)', [id, clientId]);
      return { id };
    });

  const count = async (clientId: string) => (await pool.query('SELECT count(*)::int AS n FROM things WHERE client_id = $1', [clientId])).rows[0].n;

  it('replays the first answer for the same key and body, and refuses another body', async () => {
    const clientId = randomUUID();
    const first = await create(clientId, 'k1', { a: 1 });
    expect(await create(clientId, 'k1', { a: 1 })).toEqual(first);
    await expect(create(clientId, 'k1', { a: 2 })).rejects.toMatchObject({ kind: 'business_rule', businessCode: 'idempotency_key_reused' });
    expect(await count(clientId)).toBe(1);
    // Keys belong to a client: another client's identical key is a new request.
    const other = randomUUID();
    expect((await create(other, 'k1', { a: 1 })).id).not.toBe(first.id);
  });

  it('answers 409 idempotency_answer_unreadable, and runs nothing again, for an answer stored in a format this release cannot read', async () => {
    const clientId = randomUUID();
    await create(clientId, 'k-old', { a: 1 });
    // As an earlier release left it: protobuf bytes where this release stores JSON.
    await pool.query("UPDATE idempotency_keys SET response = '\\x0a2431'::bytea WHERE client_id = $1 AND key = 'k-old'", [clientId]);
    await expect(create(clientId, 'k-old', { a: 1 })).rejects.toMatchObject({ kind: 'conflict', key: 'idempotency_answer_unreadable' });
    expect(await count(clientId)).toBe(1);
  });

  it('makes exactly one change when 20 identical requests arrive at once', async () => {
    const clientId = randomUUID();
    const results = await Promise.allSettled(Array.from({ length: 20 }, () => create(clientId, 'burst', { a: 1 })));
    expect(await count(clientId)).toBe(1);
    const ok = results.filter((r): r is PromiseFulfilledResult<{ id: string }> => r.status === 'fulfilled');
    expect(new Set(ok.map((r) => r.value.id)).size).toBe(1);
    for (const r of results) if (r.status === 'rejected') expect((r.reason as AppError).kind).toBe('conflict');
    expect(await create(clientId, 'burst', { a: 1 })).toEqual(ok[0]!.value);
  });

  it('records a business error and replays it without running the change again', async () => {
    const clientId = randomUUID();
    let runs = 0;
    const failing = () =>
      withIdempotency(pool, { clientId, key: 'fail', operation: 'things.create', request: {}, codec: json }, async () => {
        runs++;
        throw errors.businessRule('session_disabled', 'Session is disabled');
      });
    await expect(failing()).rejects.toMatchObject({ businessCode: 'session_disabled' });
    await expect(failing()).rejects.toMatchObject({ kind: 'business_rule', businessCode: 'session_disabled' });
    expect(runs).toBe(1);
  });

  it('runs normally without a key', async () => {
    const clientId = randomUUID();
    await create(clientId, undefined, {});
    await create(clientId, undefined, {});
    expect(await count(clientId)).toBe(2);
  });
});

describe('withIdempotency in two steps', () => {
  let pool: Pool;
  beforeAll(async () => {
    pool = await kitDatabase('idem_steps');
    await pool.query('CREATE TABLE things (id UUID PRIMARY KEY, client_id UUID)');
  });
  afterAll(async () => {
    await pool.end();
  });

  /** A promise the test settles by hand, to hold a step where it is. */
  function gate() {
    let open!: () => void;
    const opened = new Promise<void>((resolve) => (open = resolve));
    return { open, opened };
  }

  const checkedOut = () => pool.totalCount - pool.idleCount;
  const count = async (clientId: string) => (await pool.query('SELECT count(*)::int AS n FROM things WHERE client_id = $1', [clientId])).rows[0].n;
  const insert = async (tx: PoolClient, clientId: string, id: string) => {
    await tx.query('INSERT INTO things (id, client_id) VALUES ($1, $2)', [id, clientId]);
    return { id };
  };

  it('prepares with no connection held, answers 409 meanwhile, then commits once and replays', async () => {
    const clientId = randomUUID();
    const held = gate();
    const started = gate();
    let prepares = 0;
    let heldDuringPrepare = -1;
    const run = () =>
      withIdempotency(
        pool,
        { clientId, key: 'slow', operation: 'things.create', request: { a: 1 }, codec: json },
        {
          prepare: async ({ takeover }) => {
            prepares++;
            expect(takeover).toBe(false);
            heldDuringPrepare = checkedOut();
            started.open();
            await held.opened;
            return randomUUID();
          },
          commit: (tx, id) => insert(tx, clientId, id),
        },
      );
    const first = run();
    await started.opened;
    await expect(run()).rejects.toMatchObject({ kind: 'conflict', key: 'idempotency_request_in_progress' });
    expect(heldDuringPrepare).toBe(0);
    held.open();
    const answer = await first;
    expect(await run()).toEqual(answer);
    expect(prepares).toBe(1);
    expect(await count(clientId)).toBe(1);
  });

  it('gives the key up when a check of another service before any change is unavailable, so a retry runs again', async () => {
    const clientId = randomUUID();
    let checks = 0;
    const run = () =>
      withIdempotency(
        pool,
        { clientId, key: 'dependency-down', operation: 'things.create', request: { a: 1 }, codec: json },
        {
          prepare: async () => {
            await checkBeforeChange(async () => {
              checks++;
              if (checks === 1) throw errors.unavailable('A platform service is unavailable');
            });
            return randomUUID();
          },
          commit: (tx, id) => insert(tx, clientId, id),
        },
      );
    await expect(run()).rejects.toMatchObject({ kind: 'unavailable' });
    const answer = await run();
    expect(await run()).toEqual(answer);
    expect(checks).toBe(2);
    expect(await count(clientId)).toBe(1);
    // Any other failure of such a check is the answer, as before.
    const refused = () =>
      withIdempotency(pool, { clientId, key: 'refused', operation: 'things.create', request: {}, codec: json }, {
        prepare: () =>
          checkBeforeChange(async () => {
            checks++;
            throw errors.businessRule('split_seller_blocked', 'The seller cannot receive');
          }),
        commit: async () => ({ id: 'never' }),
      });
    await expect(refused()).rejects.toMatchObject({ kind: 'business_rule' });
    await expect(refused()).rejects.toMatchObject({ kind: 'business_rule' });
    expect(checks).toBe(3);
  });

  it('keeps no record of a not_found, whose message may name an id that is not the caller\'s: a retry asks again', async () => {
    const clientId = randomUUID();
    const foreignId = randomUUID();
    let asked = 0;
    const run = () =>
      withIdempotency(pool, { clientId, key: 'not-mine', operation: 'things.create', request: { foreignId }, codec: json }, {
        prepare: async () => {
          asked++;
          throw errors.notFound('Card', foreignId);
        },
        commit: async () => ({ id: 'never' }),
      });
    await expect(run()).rejects.toMatchObject({ kind: 'not_found', message: `Card ${foreignId} not found` });
    await expect(run()).rejects.toMatchObject({ kind: 'not_found' });
    expect(asked).toBe(2);
    const { rows } = await pool.query('SELECT * FROM idempotency_keys WHERE client_id = $1', [clientId]);
    expect(rows).toEqual([]);
  });

  it('records a failure of prepare and replays it without running either step again', async () => {
    const clientId = randomUUID();
    let prepares = 0;
    let commits = 0;
    const failing = () =>
      withIdempotency(
        pool,
        { clientId, key: 'fail', operation: 'things.create', request: {}, codec: json },
        {
          prepare: async () => {
            prepares++;
            throw errors.businessRule('provider_request_failed', 'The provider refused');
          },
          commit: async () => {
            commits++;
            return { id: randomUUID() };
          },
        },
      );
    await expect(failing()).rejects.toMatchObject({ businessCode: 'provider_request_failed' });
    await expect(failing()).rejects.toMatchObject({ kind: 'business_rule', businessCode: 'provider_request_failed' });
    expect([prepares, commits]).toEqual([1, 0]);
  });

  it('rolls back a commit that fails, and replays its failure', async () => {
    const clientId = randomUUID();
    let commits = 0;
    const failing = () =>
      withIdempotency(
        pool,
        { clientId, key: 'fail-commit', operation: 'things.create', request: {}, codec: json },
        {
          prepare: async () => randomUUID(),
          commit: async (tx, id) => {
            commits++;
            await insert(tx, clientId, id);
            throw errors.conflict('Duplicate thing', 'thing_exists');
          },
        },
      );
    await expect(failing()).rejects.toMatchObject({ kind: 'conflict', key: 'thing_exists' });
    await expect(failing()).rejects.toMatchObject({ kind: 'conflict', key: 'thing_exists' });
    expect(commits).toBe(1);
    expect(await count(clientId)).toBe(0);
  });

  it('lets a retry take over an abandoned run, and refuses that run its late commit', async () => {
    const clientId = randomUUID();
    const held = gate();
    const started = gate();
    const takeovers: boolean[] = [];
    const run = (wait: boolean) =>
      withIdempotency(
        pool,
        { clientId, key: 'abandoned', operation: 'things.create', request: { a: 1 }, codec: json },
        {
          prepare: async ({ takeover }) => {
            takeovers.push(takeover);
            if (wait) {
              started.open();
              await held.opened;
            }
            return randomUUID();
          },
          commit: (tx, id) => insert(tx, clientId, id),
        },
      );
    const first = run(true);
    await started.opened;
    await pool.query(`UPDATE idempotency_keys SET updated_at = now() - interval '2 minutes' WHERE client_id = $1 AND key = 'abandoned'`, [clientId]);
    const retried = await run(false);
    expect(takeovers).toEqual([false, true]);
    held.open();
    await expect(first).rejects.toMatchObject({ kind: 'conflict', key: 'idempotency_request_in_progress' });
    expect(await count(clientId)).toBe(1);
    expect(await run(false)).toEqual(retried);
  });

  it('prepares and commits without a key', async () => {
    const clientId = randomUUID();
    const steps = { prepare: async () => randomUUID(), commit: (tx: PoolClient, id: string) => insert(tx, clientId, id) };
    const one = await withIdempotency(pool, { clientId, key: undefined, operation: 'things.create', request: {}, codec: json }, steps);
    const two = await withIdempotency(pool, { clientId, key: undefined, operation: 'things.create', request: {}, codec: json }, steps);
    expect(one.id).not.toBe(two.id);
    expect(await count(clientId)).toBe(2);
  });
});

describe('jsonCodec', () => {
  it('gives back the same data, Dates and Buffers included', () => {
    const codec = jsonCodec<unknown>();
    const value = { at: new Date('2026-11-25T10:00:00.123Z'), nested: [{ when: new Date(0), bytes: Buffer.from([1, 2, 255]) }], n: 1, none: null, text: 'a' };
    expect(codec.decode(codec.encode(value))).toEqual(value);
    expect((codec.decode(codec.encode(value)) as { at: Date }).at).toBeInstanceOf(Date);
  });
});
