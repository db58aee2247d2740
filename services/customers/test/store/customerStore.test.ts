import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { createLogger, createPool, KIT_MIGRATIONS_DIR, migrate, toPage, withTransaction, type Pool } from '@platform/kit';
import { createTestDatabase } from '@platform/testkit';
import type { Customer } from '../../src/domain/customer';
import { createCustomerStore } from '../../src/store/customerStore';

const log = createLogger({ name: 'customers-store-test', level: 'silent' });
const store = createCustomerStore();
let pool: Pool;

beforeAll(async () => {
  pool = createPool({ url: await createTestDatabase('customers_store'), log });
  await migrate(pool, [KIT_MIGRATIONS_DIR, path.join(__dirname, '..', '..', 'migrations')], log);
});

afterAll(async () => {
  await pool.end();
});

let counter = 0;
function newCustomer(clientId: string, overrides: Partial<Customer> = {}): Customer {
  counter += 1;
  const at = new Date(Date.UTC(2024, 0, 1, 0, 0, counter));
  return {
    id: randomUUID(),
    clientId,
    name: `Customer ${counter}`,
    email: `customer${counter}@example.com`,
    phoneNumber: '+55 11 99999-0000',
    document: { type: 'cpf', number: String(10_000_000_000 + counter), country: 'BR' },
    address: { city: 'Recife', zipCode: '50000-000' },
    createdAt: at,
    updatedAt: at,
    deletedAt: null,
    ...overrides,
  };
}

describe('customer store', () => {
  it('stores and reads back a customer', async () => {
    const clientId = randomUUID();
    const customer = newCustomer(clientId);
    expect(await store.insert(pool, customer)).toEqual(customer);
    expect(await store.findById(pool, clientId, customer.id)).toEqual(customer);
  });

  it('stores a customer without address', async () => {
    const clientId = randomUUID();
    const customer = newCustomer(clientId, { address: null });
    await store.insert(pool, customer);
    expect((await store.findById(pool, clientId, customer.id))?.address).toBeNull();
  });

  it('answers null for a malformed id instead of a database error', async () => {
    const clientId = randomUUID();
    await expect(store.findById(pool, clientId, 'not-a-uuid')).resolves.toBeNull();
    await expect(store.softDelete(pool, clientId, "x' OR '1'='1", new Date())).resolves.toBeNull();
    await expect(store.list(pool, clientId, { id: 'nope' }, toPage({}))).resolves.toEqual({ items: [], totalItems: 0 });
  });

  it('pages newest first, or oldest first when asked', async () => {
    const clientId = randomUUID();
    const created = [];
    for (let i = 0; i < 5; i++) created.push(await store.insert(pool, newCustomer(clientId)));
    const newest = await store.list(pool, clientId, {}, toPage({ page: 1, limit: 2 }));
    expect(newest.totalItems).toBe(5);
    expect(newest.items.map((c) => c.id)).toEqual([created[4]!.id, created[3]!.id]);
    const oldest = await store.list(pool, clientId, {}, toPage({ page: 3, limit: 2, sort: 'asc' }));
    expect(oldest.items.map((c) => c.id)).toEqual([created[4]!.id]);
  });

  it('keeps insertion order between customers created in the same instant', async () => {
    const clientId = randomUUID();
    const at = new Date('2024-06-01T12:00:00Z');
    const first = await store.insert(pool, newCustomer(clientId, { createdAt: at, updatedAt: at }));
    const second = await store.insert(pool, newCustomer(clientId, { createdAt: at, updatedAt: at }));
    const page = await store.list(pool, clientId, {}, toPage({}));
    expect(page.items.map((c) => c.id)).toEqual([second.id, first.id]);
  });

  it('reports e-mail and document in use only among customers not deleted', async () => {
    const clientId = randomUUID();
    const customer = await store.insert(pool, newCustomer(clientId));
    expect(await store.emailInUse(pool, clientId, customer.email)).toBe(true);
    expect(await store.documentInUse(pool, clientId, 'cpf', customer.document.number)).toBe(true);
    expect(await store.documentInUse(pool, clientId, 'cnpj', customer.document.number)).toBe(false);
    const deleted = await store.softDelete(pool, clientId, customer.id, new Date());
    expect(deleted?.deletedAt).toBeInstanceOf(Date);
    expect(await store.emailInUse(pool, clientId, customer.email)).toBe(false);
    expect(await store.documentInUse(pool, clientId, 'cpf', customer.document.number)).toBe(false);
    expect(await store.findById(pool, clientId, customer.id)).toBeNull();
    expect(await store.softDelete(pool, clientId, customer.id, new Date())).toBeNull();
  });

  it('updates name, phone number and address', async () => {
    const clientId = randomUUID();
    const customer = await store.insert(pool, newCustomer(clientId));
    const at = new Date('2025-01-01T00:00:00Z');
    const changed = { ...customer, name: 'Renamed', phoneNumber: '12345678', address: { street: 'Rua Nova' }, updatedAt: at };
    expect(await store.update(pool, changed)).toEqual(changed);
    expect(await store.findById(pool, clientId, customer.id)).toEqual(changed);
  });

  it('holds the identity lock until the transaction ends', async () => {
    const clientId = randomUUID();
    const identity = { email: 'locked@example.com', documentType: 'cpf' as const, documentNumber: '11122233344' };
    const order: string[] = [];
    let releaseFirst!: () => void;
    const firstMayCommit = new Promise<void>((resolve) => (releaseFirst = resolve));
    let firstLocked!: () => void;
    const firstHasLock = new Promise<void>((resolve) => (firstLocked = resolve));
    const first = withTransaction(pool, async (tx) => {
      await store.lockIdentity(tx, clientId, identity);
      firstLocked();
      await firstMayCommit;
      order.push('first commits');
    });
    await firstHasLock;
    const second = withTransaction(pool, async (tx) => {
      await store.lockIdentity(tx, clientId, { ...identity, documentNumber: '99988877766' });
      order.push('second locked');
    });
    // The second transaction waits on the e-mail lock; let the first go only once the second is queued behind it.
    for (;;) {
      const { rows } = await pool.query<{ waiting: number }>(
        `SELECT count(*)::int AS waiting FROM pg_locks WHERE locktype = 'advisory' AND NOT granted AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
      );
      if (rows[0]!.waiting > 0) break;
      await new Promise((resolve) => setImmediate(resolve));
    }
    releaseFirst();
    await Promise.all([first, second]);
    expect(order).toEqual(['first commits', 'second locked']);
  });
});

describe('customer store scoping by client', () => {
  const clientA = randomUUID();
  const clientB = randomUUID();
  let customerOfA: Customer;

  beforeAll(async () => {
    customerOfA = await store.insert(pool, newCustomer(clientA));
  });

  it('never finds client A customer for client B', async () => {
    expect(await store.findById(pool, clientB, customerOfA.id)).toBeNull();
    expect(await store.findById(pool, clientB, customerOfA.id, { forUpdate: true })).toBeNull();
  });

  it('never lists client A customers for client B, whatever the filters', async () => {
    const page = toPage({ limit: 100 });
    expect(await store.list(pool, clientB, {}, page)).toEqual({ items: [], totalItems: 0 });
    expect(await store.list(pool, clientB, { id: customerOfA.id }, page)).toEqual({ items: [], totalItems: 0 });
    expect(await store.list(pool, clientB, { email: customerOfA.email }, page)).toEqual({ items: [], totalItems: 0 });
    expect(
      await store.list(pool, clientB, { documentType: 'cpf', documentNumber: customerOfA.document.number }, page),
    ).toEqual({ items: [], totalItems: 0 });
    expect((await store.list(pool, clientA, { id: customerOfA.id }, page)).items).toEqual([customerOfA]);
  });

  it('does not count client A e-mail or document as in use for client B', async () => {
    expect(await store.emailInUse(pool, clientB, customerOfA.email)).toBe(false);
    expect(await store.documentInUse(pool, clientB, 'cpf', customerOfA.document.number)).toBe(false);
  });

  it('never updates or deletes client A customer for client B', async () => {
    expect(await store.update(pool, { ...customerOfA, clientId: clientB, name: 'Hijacked' })).toBeNull();
    expect(await store.softDelete(pool, clientB, customerOfA.id, new Date())).toBeNull();
    expect(await store.findById(pool, clientA, customerOfA.id)).toEqual(customerOfA);
  });
});
