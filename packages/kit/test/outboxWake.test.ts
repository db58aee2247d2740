import { randomUUID } from 'node:crypto';
import type { JetStreamClient } from 'nats';
import { Client, type PoolClient } from 'pg';
import { createPool, enqueueEvent, OutboxRelay, OUTBOX_CHANNEL, setOutboxNotifyInterval, withTransaction, type Pool } from '../src';
import { kitDatabase, silentLog } from './helpers';

/** A JetStream stand-in that accepts every publish and lets a test wait for a given event's. */
function fakeJetStream() {
  const published = new Set<string>();
  const waiters = new Map<string, () => void>();
  const js = {
    publish: (_subject: string, _data: Uint8Array, options: { msgID: string }) => {
      published.add(options.msgID);
      waiters.get(options.msgID)?.();
      return Promise.resolve({ stream: 'EVENTS', seq: published.size, duplicate: false });
    },
  } as unknown as JetStreamClient;
  const publishedOf = (id: string) =>
    published.has(id) ? Promise.resolve() : new Promise<void>((resolve) => waiters.set(id, resolve));
  return { js, publishedOf, published };
}

const AN_HOUR = 3600_000;

/** The pool as the relay sees it, each statement of its transactions going through `around`. */
function wrappedPool(pool: Pool, around: (run: () => Promise<unknown>, text: unknown) => Promise<unknown>): Pool {
  return {
    options: pool.options,
    query: pool.query.bind(pool),
    connect: async (): Promise<PoolClient> => {
      const client = await pool.connect();
      const query = client.query.bind(client) as (...args: unknown[]) => Promise<unknown>;
      return new Proxy(client, {
        get(target, key, receiver) {
          if (key !== 'query') return Reflect.get(target, key, receiver) as unknown;
          return (...args: unknown[]) => around(() => query(...args), args[0]);
        },
      });
    },
  } as unknown as Pool;
}

async function writeEvent(pool: Pool): Promise<string> {
  const event = await withTransaction(pool, (tx) => enqueueEvent(tx, { type: 'customers.wake.created', clientId: randomUUID(), data: {} }));
  return event.id;
}

describe('outbox relay wake-ups', () => {
  let pool: Pool;
  /** Another process's pool on the same database: its writes never kick this relay in-process. */
  let other: Pool;
  const relays: OutboxRelay[] = [];

  beforeAll(async () => {
    pool = await kitDatabase('outboxwake');
    other = createPool({ url: pool.options.connectionString!, log: silentLog, size: 2 });
    // Every write notifies, but in the test of the default interval.
    setOutboxNotifyInterval(0);
  });
  afterEach(async () => {
    await Promise.all(relays.splice(0).map((r) => r.stop()));
    await pool.query('UPDATE outbox SET published_at = now() WHERE published_at IS NULL');
  });
  afterAll(async () => {
    setOutboxNotifyInterval(100);
    await other.end();
    await pool.end();
  });

  function relay(options: Partial<ConstructorParameters<typeof OutboxRelay>[0]> = {}) {
    const { js, publishedOf } = fakeJetStream();
    const r = new OutboxRelay({ pool, js, log: silentLog, pollMs: AN_HOUR, followUpMs: AN_HOUR, reconnectMs: 10, ...options });
    relays.push(r);
    return { relay: r, publishedOf };
  }

  /** The outbox notifications `write` causes, in commit order; a marker sent after it ends the count. */
  async function notificationsOf(write: () => Promise<void>): Promise<string[]> {
    const listener = new Client({ connectionString: pool.options.connectionString });
    await listener.connect();
    try {
      const payloads: string[] = [];
      let marker: () => void = () => undefined;
      const markerSeen = new Promise<void>((resolve) => (marker = resolve));
      listener.on('notification', (n) => {
        if (n.channel !== OUTBOX_CHANNEL) return;
        if (n.payload === 'marker') marker();
        else payloads.push(n.payload ?? '');
      });
      await listener.query(`LISTEN ${OUTBOX_CHANNEL}`);
      await write();
      await other.query(`SELECT pg_notify($1, 'marker')`, [OUTBOX_CHANNEL]);
      await markerSeen;
      return payloads;
    } finally {
      await listener.end();
    }
  }

  const write = (options?: { notify?: boolean }) =>
    withTransaction(other, (tx) => enqueueEvent(tx, { type: 'customers.wake.created', clientId: randomUUID(), data: {} }, options));

  it('notifies once per committed transaction, and not at all for one rolled back', async () => {
    const payloads = await notificationsOf(async () => {
      await expect(
        withTransaction(other, async (tx) => {
          await enqueueEvent(tx, { type: 'customers.wake.created', clientId: randomUUID(), data: {} });
          throw new Error('rolled back');
        }),
      ).rejects.toThrow('rolled back');
      await withTransaction(other, async (tx) => {
        for (let i = 0; i < 3; i++) await enqueueEvent(tx, { type: 'customers.wake.created', clientId: randomUUID(), data: { i } });
      });
      await write({ notify: false });
    });
    expect(payloads).toEqual(['']);
  });

  it('notifies with one write per interval by default, and always when asked', async () => {
    try {
      setOutboxNotifyInterval(AN_HOUR);
      const payloads = await notificationsOf(async () => {
        for (let i = 0; i < 3; i++) await write();
        await write({ notify: true });
      });
      expect(payloads).toEqual(['', '']);
    } finally {
      setOutboxNotifyInterval(0);
    }
  });

  it('is woken by a commit in another process, the poll an hour away', async () => {
    const { relay: r, publishedOf } = relay();
    r.start();
    await r.whenListening();
    // The start's pass and the one after LISTEN may take one event each; the third needs the notification.
    for (let i = 0; i < 3; i++) await publishedOf(await writeEvent(other));
  });

  it('listens again after its LISTEN connection is terminated, and finds what committed meanwhile', async () => {
    const { relay: r, publishedOf } = relay();
    r.start();
    await r.whenListening();
    await publishedOf(await writeEvent(other));
    const { rowCount } = await pool.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND query = $1 AND pid <> pg_backend_pid()`,
      [`LISTEN ${OUTBOX_CHANNEL}`],
    );
    expect(rowCount).toBeGreaterThanOrEqual(1);
    // Written while the listener may be down: the pass after the new LISTEN finds it.
    await publishedOf(await writeEvent(other));
    await r.whenListening();
    // These need the new connection's notifications.
    for (let i = 0; i < 3; i++) await publishedOf(await writeEvent(other));
  });

  it('runs another pass for a wake-up that comes while a pass is running', async () => {
    // The first pass is held after its read until the test has committed an event and kicked the relay.
    let reached: () => void = () => undefined;
    const readDone = new Promise<void>((resolve) => (reached = resolve));
    let open: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (open = resolve));
    let held = false;
    const gated = wrappedPool(pool, async (run, text) => {
      const result = await run();
      if (!held && typeof text === 'string' && text.includes('SKIP LOCKED')) {
        held = true;
        reached();
        await gate;
      }
      return result;
    });
    const { relay: r, publishedOf } = relay({ pool: gated, listen: false, coalesceMs: 0 });
    r.start();
    await readDone;
    const id = await writeEvent(pool);
    r.kick();
    // The kick's timer (0 ms, set first) fires before this one: the wake-up arrives during the pass.
    await new Promise((resolve) => setTimeout(resolve, 0));
    open();
    await publishedOf(id);
  });

  it('stops during a pass without waiting for the poll', async () => {
    let reached: () => void = () => undefined;
    const readDone = new Promise<void>((resolve) => (reached = resolve));
    let open: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const gated = wrappedPool(pool, async (run, text) => {
      const result = await run();
      if (typeof text === 'string' && text.includes('SKIP LOCKED')) {
        reached();
        await gate;
      }
      return result;
    });
    const r = new OutboxRelay({ pool: gated, js: fakeJetStream().js, log: silentLog, pollMs: AN_HOUR, listen: false });
    r.start();
    await readDone;
    const stopped = r.stop();
    open();
    await stopped;
  });

  it('looks again soon after a pass that published, for writes that did not notify', async () => {
    // The first pass is held after reading the first event until the second, neither notified nor kicked, commits.
    let reached: () => void = () => undefined;
    const readDone = new Promise<void>((resolve) => (reached = resolve));
    let open: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (open = resolve));
    let held = false;
    const gated = wrappedPool(pool, async (run, text) => {
      const result = await run();
      if (!held && typeof text === 'string' && text.includes('SKIP LOCKED')) {
        held = true;
        reached();
        await gate;
      }
      return result;
    });
    const { relay: r, publishedOf } = relay({ pool: gated, listen: false, followUpMs: 0 });
    const first = await writeEvent(pool);
    r.start();
    await readDone;
    const second = await withTransaction(other, (tx) => enqueueEvent(tx, { type: 'customers.wake.created', clientId: randomUUID(), data: {} }, { notify: false }));
    open();
    await publishedOf(first);
    // The poll is an hour away: the follow-up of the pass that published finds it.
    await publishedOf(second.id);
  });

  it('publishes a batch with one read and one update, whatever its size', async () => {
    const { js, publishedOf } = fakeJetStream();
    const ids: string[] = [];
    await withTransaction(other, async (tx) => {
      for (let i = 0; i < 25; i++) ids.push((await enqueueEvent(tx, { type: 'customers.wake.created', clientId: randomUUID(), data: { i } })).id);
    });
    const statements: string[] = [];
    const counted = wrappedPool(pool, (run, text) => {
      statements.push(String(text).trim().split(/\s+/)[0]!.toUpperCase());
      return run();
    });
    const counting = new OutboxRelay({ pool: counted, js, log: silentLog, listen: false });
    expect(await counting.relayOnce()).toBe(25);
    await Promise.all(ids.map(publishedOf));
    expect(statements).toEqual(['BEGIN', 'SELECT', 'UPDATE', 'COMMIT']);
    const { rows } = await pool.query('SELECT count(*)::int AS n FROM outbox WHERE id = ANY($1::uuid[]) AND published_at IS NOT NULL', [ids]);
    expect(rows[0].n).toBe(25);
  });
});
