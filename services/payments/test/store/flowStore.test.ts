import { randomUUID } from 'node:crypto';
import { toPage, withTransaction, type Pool } from '@platform/kit';
import type { Flow } from '../../src/modules/flows/domain/flow';
import { createFlowStore } from '../../src/modules/flows/store/flowStore';
import { createMerchantStore } from '../../src/modules/merchants/store/merchantStore';
import { startStoreDatabase } from '../support/fixtures';

const flows = createFlowStore();
const merchants = createMerchantStore();
let pool: Pool;

beforeAll(async () => {
  pool = await startStoreDatabase('payments_flow_store');
});

afterAll(async () => {
  await pool.end();
});

async function seedMerchant(clientId: string): Promise<{ id: string; providerId: string }> {
  const id = randomUUID();
  const providerId = randomUUID();
  await withTransaction(pool, async (tx) => {
    await merchants.insertMerchant(tx, { id, clientId, mcc: '5411', name: '', merchantName: '', merchantUrl: '', createdAt: new Date() });
    await merchants.insertProvider(tx, {
      id: providerId,
      clientId,
      merchantId: id,
      name: 'sandbox',
      priority: 1,
      credentialsType: 'SANDBOX',
      credentialsSealed: Buffer.from('x'),
      options: {},
      createdAt: new Date(),
    });
  });
  return { id, providerId };
}

let second = 0;
function newFlow(clientId: string, merchantId: string, providerId: string, overrides: Partial<Flow> = {}): Flow {
  second += 1;
  const at = new Date(Date.UTC(2025, 0, 1, 0, 0, second));
  return {
    id: randomUUID(),
    clientId,
    merchantId,
    name: 'flow',
    paymentMethod: 'credit',
    rules: [{ when: { amountGte: 100, cardBrand: 'visa' }, route: [providerId] }],
    defaultRoute: [providerId],
    createdAt: at,
    updatedAt: at,
    ...overrides,
  };
}

describe('flow store', () => {
  it('stores and reads back a flow', async () => {
    const clientId = randomUUID();
    const m = await seedMerchant(clientId);
    const flow = newFlow(clientId, m.id, m.providerId);
    expect(await flows.insert(pool, flow)).toEqual(flow);
    expect(await flows.findById(pool, clientId, flow.id)).toEqual(flow);
  });

  it('refuses a second flow for one merchant and payment method', async () => {
    const clientId = randomUUID();
    const m = await seedMerchant(clientId);
    await flows.insert(pool, newFlow(clientId, m.id, m.providerId));
    await expect(flows.insert(pool, newFlow(clientId, m.id, m.providerId))).rejects.toMatchObject({ kind: 'conflict', key: 'flow_exists' });
    await expect(flows.insert(pool, newFlow(clientId, m.id, m.providerId, { paymentMethod: 'debit' }))).resolves.toMatchObject({ paymentMethod: 'debit' });
  });

  it('lists newest first, filtered by merchant', async () => {
    const clientId = randomUUID();
    const m1 = await seedMerchant(clientId);
    const m2 = await seedMerchant(clientId);
    const a = await flows.insert(pool, newFlow(clientId, m1.id, m1.providerId));
    const b = await flows.insert(pool, newFlow(clientId, m2.id, m2.providerId));
    const c = await flows.insert(pool, newFlow(clientId, m1.id, m1.providerId, { paymentMethod: 'pix' }));
    expect((await flows.list(pool, clientId, {}, toPage({}))).items.map((f) => f.id)).toEqual([c.id, b.id, a.id]);
    expect(await flows.list(pool, clientId, { merchantId: m1.id }, toPage({ sort: 'ASC' }))).toEqual({ items: [a, c], totalItems: 2 });
    expect(await flows.list(pool, clientId, { merchantId: 'bad' }, toPage({}))).toEqual({ items: [], totalItems: 0 });
  });

  it('replaces a flow wholly', async () => {
    const clientId = randomUUID();
    const m = await seedMerchant(clientId);
    const flow = await flows.insert(pool, newFlow(clientId, m.id, m.providerId));
    const replaced = { ...flow, name: 'new', paymentMethod: 'boleto' as const, rules: [], updatedAt: new Date('2025-02-01T00:00:00Z') };
    expect(await flows.replace(pool, replaced)).toEqual(replaced);
  });

  it('hides the flows of a deleted merchant', async () => {
    const clientId = randomUUID();
    const m = await seedMerchant(clientId);
    const flow = await flows.insert(pool, newFlow(clientId, m.id, m.providerId));
    await merchants.softDeleteMerchant(pool, clientId, m.id, new Date());
    expect(await flows.findById(pool, clientId, flow.id)).toBeNull();
    expect((await flows.list(pool, clientId, {}, toPage({}))).totalItems).toBe(0);
  });

  it("never shows or replaces client A's flow for client B", async () => {
    const clientA = randomUUID();
    const clientB = randomUUID();
    const m = await seedMerchant(clientA);
    const flow = await flows.insert(pool, newFlow(clientA, m.id, m.providerId));
    expect(await flows.findById(pool, clientB, flow.id)).toBeNull();
    expect(await flows.list(pool, clientB, {}, toPage({}))).toEqual({ items: [], totalItems: 0 });
    expect(await flows.list(pool, clientB, { merchantId: m.id }, toPage({}))).toEqual({ items: [], totalItems: 0 });
    expect(await flows.replace(pool, { ...flow, clientId: clientB, name: 'Hijacked' })).toBeNull();
    expect(await flows.findById(pool, clientA, flow.id)).toEqual(flow);
  });
});
