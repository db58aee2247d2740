import { randomUUID } from 'node:crypto';
import { type AppError, errors, withIdempotency, type IdempotencyCodec, type Pool } from '../src';
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
