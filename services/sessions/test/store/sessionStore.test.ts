import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { createLogger, createPool, KIT_MIGRATIONS_DIR, migrate, toPage, type Pool } from '@platform/kit';
import { createTestDatabase } from '@platform/testkit';
import { newSession, type Session } from '../../src/domain/session';
import { createSessionStore } from '../../src/store/sessionStore';

const log = createLogger({ name: 'sessions-store-test', level: 'silent' });
const store = createSessionStore();
const now = new Date('2026-05-01T10:00:00.000Z');
let pool: Pool;

beforeAll(async () => {
  pool = createPool({ url: await createTestDatabase('sessions_store'), log });
  await migrate(pool, [KIT_MIGRATIONS_DIR, path.join(__dirname, '..', '..', 'migrations')], log);
});

afterAll(async () => {
  await pool.end();
});

async function stored(clientId: string, maxPayments?: number): Promise<Session> {
  const session = newSession(
    {
      id: randomUUID(),
      clientId,
      merchantId: randomUUID(),
      name: 'Mugs',
      orderId: 'o-1',
      currency: 'BRL',
      maxPayments,
      paymentMethods: [{ paymentType: 'credit', installments: 1 }],
      items: [
        { name: 'Mug', unitPrice: 1000, quantity: 2, description: 'blue' },
        { name: 'Box', unitPrice: 500, quantity: 1, description: '' },
      ],
      splitRules: [],
      statementDescriptor: '',
    },
    now,
  );
  await store.insert(pool, session, 'ab'.repeat(32));
  return session;
}

describe('session store', () => {
  it('reads back a session with its items in order, for its client only', async () => {
    const clientId = randomUUID();
    const session = await stored(clientId);
    expect(await store.findById(pool, clientId, session.id)).toEqual(session);
    expect(await store.findById(pool, randomUUID(), session.id)).toBeNull();
    expect(await store.findById(pool, clientId, "' OR '1'='1")).toBeNull();
    expect(await store.publicKeyHash(pool, randomUUID(), session.id)).toBeNull();
  });

  it('reserves places up to the maximum in one statement, and not for another client', async () => {
    const clientId = randomUUID();
    const session = await stored(clientId, 2);
    expect(await store.reservePlace(pool, randomUUID(), session.id, now)).toBeNull();
    const places = await Promise.all(Array.from({ length: 6 }, () => store.reservePlace(pool, clientId, session.id, now)));
    expect(places.filter((p) => p !== null)).toHaveLength(2);
    expect(await store.settlePlace(pool, clientId, session.id, 'released', now)).toMatchObject({ paymentCount: 0, pendingCount: 1 });
    expect(await store.settlePlace(pool, clientId, session.id, 'paid', now)).toMatchObject({ paymentCount: 1, pendingCount: 0 });
    expect(await store.reservePlace(pool, clientId, session.id, now)).toMatchObject({ paymentCount: 1, pendingCount: 1 });
    expect(await store.reservePlace(pool, clientId, session.id, now)).toBeNull();
  });

  it('takes one place for a 1:1 session and none past the due date', async () => {
    const clientId = randomUUID();
    const oneToOne = await stored(clientId);
    expect(await store.reservePlace(pool, clientId, oneToOne.id, now)).not.toBeNull();
    expect(await store.reservePlace(pool, clientId, oneToOne.id, now)).toBeNull();
    const due = await stored(clientId, -1);
    await store.update(pool, { ...due, dueDate: new Date(now.getTime() + 1000) });
    expect(await store.reservePlace(pool, clientId, due.id, new Date(now.getTime() + 1000))).toBeNull();
    expect(await store.reservePlace(pool, clientId, due.id, now)).not.toBeNull();
  });

  it('lists by filter within the client, newest first', async () => {
    const clientId = randomUUID();
    const a = await stored(clientId, -1);
    const b = await stored(clientId);
    await store.update(pool, { ...b, isActive: false });
    await stored(randomUUID());
    const all = await store.list(pool, clientId, {}, toPage({}));
    expect(all.total).toBe(2);
    expect((await store.list(pool, clientId, { isActive: false }, toPage({}))).items.map((s) => s.id)).toEqual([b.id]);
    expect((await store.list(pool, clientId, { multiplePaymentsStatus: 'enabled' }, toPage({}))).items.map((s) => s.id)).toEqual([a.id]);
    expect((await store.list(pool, clientId, { id: 'nope' }, toPage({}))).total).toBe(0);
  });

  it('keeps one 1:N payment record per charge and action', async () => {
    const clientId = randomUUID();
    const session = await stored(clientId, 5);
    const record = { sessionId: session.id, clientId, merchantId: session.merchantId, status: 'created' as const, action: 'paymentPending', actions: ['paymentPending'], diff: { chargeId: 'c1' }, dedupeKey: 'paymentPending:c1', createdAt: now };
    expect(await store.addHistory(pool, { ...record, id: randomUUID() })).toBe(true);
    expect(await store.addHistory(pool, { ...record, id: randomUUID() })).toBe(false);
    expect(await store.history(pool, clientId, session.id)).toHaveLength(1);
    expect(await store.history(pool, randomUUID(), session.id)).toEqual([]);
  });
});
