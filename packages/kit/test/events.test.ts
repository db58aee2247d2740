import { randomUUID } from 'node:crypto';
import { connect, type NatsConnection } from 'nats';
import { testNatsUrl } from '@platform/testkit';
import { z } from 'zod';
import { enqueueEvent, ensureEventStream, eventSchema, EVENTS_STREAM, OutboxRelay, startConsumer, withTransaction, type DomainEvent, type Pool, type Queryable } from '../src';
import { kitDatabase, silentLog } from './helpers';

async function eventsFor(nc: NatsConnection, subject: string, count: number): Promise<DomainEvent[]> {
  const js = nc.jetstream();
  const consumer = await js.consumers.get(EVENTS_STREAM, { filterSubjects: subject });
  const out: DomainEvent[] = [];
  const messages = await consumer.fetch({ max_messages: count + 5, expires: 2000 });
  for await (const m of messages) out.push(JSON.parse(Buffer.from(m.data).toString()) as DomainEvent);
  return out;
}

describe('outbox and consumers', () => {
  let pool: Pool;
  let nc: NatsConnection;

  beforeAll(async () => {
    pool = await kitDatabase('events');
    nc = await connect({ servers: testNatsUrl() });
    await ensureEventStream(nc);
  });
  afterAll(async () => {
    await nc.drain();
    await pool.end();
  });

  it('writes an event only when its transaction commits', async () => {
    const clientId = randomUUID();
    await expect(
      withTransaction(pool, async (tx) => {
        await enqueueEvent(tx, { type: 'customers.customer.created', clientId, data: { n: 1 } });
        throw new Error('change failed');
      }),
    ).rejects.toThrow('change failed');
    const { rows } = await pool.query(`SELECT count(*)::int AS n FROM outbox WHERE payload->>'clientId' = $1`, [clientId]);
    expect(rows[0].n).toBe(0);
  });

  it('relays committed events to JetStream with the event id as message id, once', async () => {
    const entity = `e${randomUUID().replace(/-/g, '')}`;
    const subject = `customers.${entity}.created`;
    const ids = await withTransaction(pool, async (tx) => {
      const a = await enqueueEvent(tx, { type: subject, clientId: randomUUID(), data: { n: 1 } });
      const b = await enqueueEvent(tx, { type: subject, clientId: randomUUID(), data: { n: 2 } });
      return [a.id, b.id];
    });
    const relay = new OutboxRelay({ pool, js: nc.jetstream(), log: silentLog });
    expect(await relay.relayOnce()).toBeGreaterThanOrEqual(2);
    // A crash after publishing but before marking would publish again: the stream must drop the copies.
    await pool.query('UPDATE outbox SET published_at = NULL WHERE id = ANY($1::uuid[])', [ids]);
    await relay.relayOnce();
    const events = await eventsFor(nc, subject, 2);
    expect(events.map((e) => e.id)).toEqual(ids);
    expect(events.map((e) => (e.data as { n: number }).n)).toEqual([1, 2]);
    const { rows } = await pool.query('SELECT count(*)::int AS n FROM outbox WHERE id = ANY($1::uuid[]) AND published_at IS NOT NULL', [ids]);
    expect(rows[0].n).toBe(2);
  });

  it('puts off an event no stream takes and publishes the ones behind it; subscriptions events have their stream', async () => {
    const entity = `e${randomUUID().replace(/-/g, '')}`;
    const ids = await withTransaction(pool, async (tx) => [
      (await enqueueEvent(tx, { type: `nowhere.${entity}.created`, clientId: randomUUID(), data: { n: 1 } })).id,
      (await enqueueEvent(tx, { type: `subscriptions.${entity}.created`, clientId: randomUUID(), data: { n: 2 } })).id,
      (await enqueueEvent(tx, { type: `payments.${entity}.created`, clientId: randomUUID(), data: { n: 3 } })).id,
    ]);
    const relay = new OutboxRelay({ pool, js: nc.jetstream(), log: silentLog });
    for (let pass = 0; pass < 3; pass++) await relay.relayOnce();
    const { rows } = await pool.query<{ id: string; published: boolean; failures: number; later: boolean }>(
      'SELECT id, published_at IS NOT NULL AS published, publish_failures AS failures, coalesce(retry_at > now(), false) AS later FROM outbox WHERE id = ANY($1::uuid[])',
      [ids],
    );
    const byId = new Map(rows.map((r) => [r.id, r]));
    expect(byId.get(ids[0]!)).toMatchObject({ published: false, failures: 1, later: true });
    expect([byId.get(ids[1]!)?.published, byId.get(ids[2]!)?.published]).toEqual([true, true]);
    expect((await eventsFor(nc, `subscriptions.${entity}.created`, 1)).map((e) => e.id)).toEqual([ids[1]]);
  });

  it('applies each event once even when JetStream delivers it again, and retries a failed handler', async () => {
    const entity = `e${randomUUID().replace(/-/g, '')}`;
    const subject = `payments.${entity}.authorized`;
    await pool.query('CREATE TABLE IF NOT EXISTS applied (event_id UUID, n INT)');
    const js = nc.jetstream();
    const event: DomainEvent = { id: randomUUID(), type: subject, occurredAt: new Date().toISOString(), clientId: randomUUID(), data: { n: 7 } };
    // The same event published twice with different message ids reaches the consumer twice.
    await js.publish(subject, Buffer.from(JSON.stringify(event)), { msgID: randomUUID() });
    await js.publish(subject, Buffer.from(JSON.stringify(event)), { msgID: randomUUID() });
    let failuresLeft = 1;
    let calls = 0;
    const consumer = await startConsumer({
      nc,
      pool,
      log: silentLog,
      durable: `test_${entity}`,
      filterSubject: subject,
      handle: async (e, tx) => {
        calls++;
        await tx.query('INSERT INTO applied (event_id, n) VALUES ($1, $2)', [e.id, (e.data as { n: number }).n]);
        if (failuresLeft-- > 0) throw new Error('transient');
      },
    });
    try {
      for (let i = 0; i < 100; i++) {
        const done = await pool.query(`SELECT count(*)::int AS n FROM processed_events WHERE consumer = $1`, [`test_${entity}`]);
        if (done.rows[0].n === 1 && calls >= 2) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      const applied = await pool.query('SELECT n FROM applied WHERE event_id = $1', [event.id]);
      expect(applied.rows).toEqual([{ n: 7 }]);
      expect(calls).toBe(2);
    } finally {
      await consumer.stop();
    }
  });
  const batches: number[] = [];

  async function applyTogether(poisoned: number | undefined, asBatch = false): Promise<Array<{ n: number; tx: string }>> {
    const entity = `e${randomUUID().replace(/-/g, '')}`;
    const subject = `payments.${entity}.captured`;
    await pool.query('CREATE TABLE IF NOT EXISTS applied_batch (event_id UUID, n INT, tx BIGINT, at SERIAL)');
    const js = nc.jetstream();
    const events: DomainEvent[] = Array.from({ length: 40 }, (_, n) => ({ id: randomUUID(), type: subject, occurredAt: new Date().toISOString(), clientId: randomUUID(), data: { n } }));
    for (const e of events) await js.publish(subject, Buffer.from(JSON.stringify(e)), { msgID: e.id });
    let poisonLeft = 1;
    const apply = async (e: DomainEvent, tx: Queryable) => {
      const n = (e.data as { n: number }).n;
      await tx.query('INSERT INTO applied_batch (event_id, n, tx) VALUES ($1, $2, txid_current())', [e.id, n]);
      if (n === poisoned && poisonLeft-- > 0) throw new Error('transient');
    };
    const consumer = await startConsumer({
      nc,
      pool,
      log: silentLog,
      durable: `test_${entity}`,
      filterSubject: subject,
      ...(asBatch
        ? {
            handleBatch: async (batch: DomainEvent[], tx: Queryable) => {
              batches.push(batch.length);
              for (const e of batch) await apply(e, tx);
            },
          }
        : { handle: apply }),
    });
    try {
      for (let i = 0; i < 100; i++) {
        const done = await pool.query('SELECT count(*)::int AS n FROM processed_events WHERE consumer = $1', [`test_${entity}`]);
        if (done.rows[0].n === 40) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      const { rows } = await pool.query<{ n: number; tx: string }>('SELECT n, tx FROM applied_batch WHERE event_id = ANY($1::uuid[]) ORDER BY at', [events.map((e) => e.id)]);
      return rows;
    } finally {
      await consumer.stop();
    }
  }

  it('applies events that arrive together in one transaction, once each and in order', async () => {
    const rows = await applyTogether(undefined);
    expect(rows.map((r) => r.n)).toEqual(Array.from({ length: 40 }, (_, n) => n));
    expect(new Set(rows.map((r) => r.tx)).size).toBeLessThan(40);
  });

  it('hands the events that arrived together to a batch handler in one call, once each and in order', async () => {
    batches.length = 0;
    const rows = await applyTogether(undefined, true);
    expect(rows.map((r) => r.n)).toEqual(Array.from({ length: 40 }, (_, n) => n));
    expect(batches.reduce((a, b) => a + b, 0)).toBe(40);
    expect(Math.max(...batches)).toBeGreaterThan(1);
  });

  it('applies once an event that comes twice in the same batch', async () => {
    const entity = `e${randomUUID().replace(/-/g, '')}`;
    const subject = `payments.${entity}.refunded`;
    const js = nc.jetstream();
    const events: DomainEvent[] = Array.from({ length: 10 }, (_, n) => ({ id: randomUUID(), type: subject, occurredAt: new Date().toISOString(), clientId: randomUUID(), data: { n } }));
    for (const e of [...events, ...events]) await js.publish(subject, Buffer.from(JSON.stringify(e)), { msgID: randomUUID() });
    const applied: number[] = [];
    const consumer = await startConsumer({
      nc,
      pool,
      log: silentLog,
      durable: `test_${entity}`,
      filterSubject: subject,
      handleBatch: async (batch) => {
        for (const e of batch) applied.push((e.data as { n: number }).n);
      },
    });
    try {
      for (let i = 0; i < 100 && applied.length < 10; i++) await new Promise((r) => setTimeout(r, 100));
      await new Promise((r) => setTimeout(r, 300));
      expect(applied).toEqual(Array.from({ length: 10 }, (_, n) => n));
    } finally {
      await consumer.stop();
    }
  });

  it('drops an event its schema refuses, unhandled and never redelivered, and goes on with the next', async () => {
    const entity = `e${randomUUID().replace(/-/g, '')}`;
    const subject = `payments.${entity}.paid`;
    const durable = `test_${entity}`;
    const js = nc.jetstream();
    const bad = { id: randomUUID(), type: subject, occurredAt: new Date().toISOString(), clientId: randomUUID(), data: { n: 'seven' } };
    const good: DomainEvent = { id: randomUUID(), type: subject, occurredAt: new Date().toISOString(), clientId: randomUUID(), data: { n: 8 } };
    for (const e of [bad, good]) await js.publish(subject, Buffer.from(JSON.stringify(e)), { msgID: e.id });
    const handled: unknown[] = [];
    const consumer = await startConsumer({
      nc,
      pool,
      log: silentLog,
      durable,
      filterSubject: subject,
      parse: eventSchema(z.object({ n: z.number().int() })).parse,
      handle: async (e) => {
        handled.push(e.data.n);
      },
    });
    try {
      for (let i = 0; i < 100 && handled.length < 1; i++) await new Promise((r) => setTimeout(r, 100));
      const info = await (await nc.jetstreamManager()).consumers.info(EVENTS_STREAM, durable);
      expect(handled).toEqual([8]);
      expect(info.num_ack_pending).toBe(0);
      expect(info.num_pending).toBe(0);
      const { rows } = await pool.query<{ event_id: string }>('SELECT event_id FROM processed_events WHERE consumer = $1', [durable]);
      expect(rows.map((r) => r.event_id)).toEqual([good.id]);
    } finally {
      await consumer.stop();
    }
  });

  it('refuses a consumer with neither handle nor handleBatch, or both', async () => {
    await expect(startConsumer({ nc, pool, log: silentLog, durable: 'test_none' })).rejects.toThrow('give handle or handleBatch');
    await expect(startConsumer({ nc, pool, log: silentLog, durable: 'test_both', handle: async () => {}, handleBatch: async () => {} })).rejects.toThrow(
      'give handle or handleBatch',
    );
  });

  it('rolls back a batch in which one event fails, then applies its events one by one: each once, in order', async () => {
    const rows = await applyTogether(30);
    expect(rows.map((r) => r.n)).toEqual(Array.from({ length: 40 }, (_, n) => n));
  });
});
