import { randomUUID } from 'node:crypto';
import { toPage, withTransaction, type Pool } from '@platform/kit';
import { createFlowStore } from '../../src/modules/flows/store/flowStore';
import { createMerchantStore, type MerchantStore } from '../../src/modules/merchants/store/merchantStore';
import { startStoreDatabase } from '../support/fixtures';

const store: MerchantStore = createMerchantStore();
let pool: Pool;

beforeAll(async () => {
  pool = await startStoreDatabase('payments_merchant_store');
});

afterAll(async () => {
  await pool.end();
});

let second = 0;
function nextInstant(): Date {
  second += 1;
  return new Date(Date.UTC(2025, 0, 1, 0, 0, second));
}

async function seedMerchant(clientId: string, providers: Array<{ priority: number; type?: string; name?: string }> = [{ priority: 1 }]) {
  const id = randomUUID();
  const at = nextInstant();
  await withTransaction(pool, async (tx) => {
    await store.insertMerchant(tx, { id, clientId, mcc: '5411', name: 'Loja', merchantName: 'LOJA', merchantUrl: '', createdAt: at });
    for (const p of providers) {
      await store.insertProvider(tx, {
        id: randomUUID(),
        clientId,
        merchantId: id,
        name: p.name ?? `provider ${p.priority}`,
        priority: p.priority,
        credentialsType: p.type ?? 'SANDBOX',
        credentialsSealed: Buffer.from(`sealed-${p.priority}`),
        options: { region: 'br' },
        createdAt: at,
      });
    }
  });
  return (await store.findMerchant(pool, clientId, id))!;
}

describe('merchant store', () => {
  it('stores a merchant with its providers sorted by priority', async () => {
    const clientId = randomUUID();
    const merchant = await seedMerchant(clientId, [{ priority: 2 }, { priority: 1 }, { priority: 1, type: 'SANDBOX_ANTIFRAUD', name: 'af' }]);
    expect(merchant).toMatchObject({ clientId, mcc: '5411', name: 'Loja', status: 'active', platformFeeEnabled: false, platformFeeRules: [] });
    expect(merchant.providers.map((p) => [p.priority, p.credentialsType])).toEqual([
      [1, 'SANDBOX'],
      [1, 'SANDBOX_ANTIFRAUD'],
      [2, 'SANDBOX'],
    ]);
    expect(merchant.providers[0]).toMatchObject({ merchantId: merchant.id, options: { region: 'br' } });
    expect(Object.keys(merchant.providers[0]!)).not.toContain('credentialsSealed');
  });

  it('refuses two active payment providers with one priority', async () => {
    const clientId = randomUUID();
    const merchant = await seedMerchant(clientId);
    await expect(
      store.insertProvider(pool, {
        id: randomUUID(),
        clientId,
        merchantId: merchant.id,
        name: 'dup',
        priority: 1,
        credentialsType: 'SUBACQUIRER',
        credentialsSealed: Buffer.from('x'),
        options: {},
        createdAt: new Date(),
      }),
    ).rejects.toMatchObject({ code: '23505', constraint: 'providers_payment_priority' });
  });

  it('answers null for malformed ids instead of a database error', async () => {
    const clientId = randomUUID();
    await expect(store.findMerchant(pool, clientId, 'nope')).resolves.toBeNull();
    await expect(store.findProvider(pool, clientId, "' OR 1=1 --")).resolves.toBeNull();
    await expect(store.softDeleteMerchant(pool, clientId, 'nope', new Date())).resolves.toBeNull();
    await expect(store.setPlatformFee(pool, clientId, 'nope', { enabled: true }, new Date())).resolves.toBeNull();
    await expect(store.findForCharge(pool, clientId, 'nope', 'credit')).resolves.toBeNull();
  });

  it('pages newest first, or oldest first when asked', async () => {
    const clientId = randomUUID();
    const created = [];
    for (let i = 0; i < 5; i++) created.push(await seedMerchant(clientId));
    const newest = await store.listMerchants(pool, clientId, toPage({ page: 1, limit: 2 }));
    expect(newest.totalItems).toBe(5);
    expect(newest.items.map((m) => m.id)).toEqual([created[4]!.id, created[3]!.id]);
    expect(newest.items[0]!.providers).toHaveLength(1);
    const oldest = await store.listMerchants(pool, clientId, toPage({ page: 1, limit: 2, sort: 'ASC' }));
    expect(oldest.items.map((m) => m.id)).toEqual([created[0]!.id, created[1]!.id]);
  });

  it('updates and sets the platform fee', async () => {
    const clientId = randomUUID();
    const merchant = await seedMerchant(clientId);
    const at = new Date('2025-03-01T00:00:00Z');
    const updated = await store.updateMerchant(pool, { ...merchant, mcc: '1234', name: 'Outra', updatedAt: at });
    expect(updated).toMatchObject({ mcc: '1234', name: 'Outra', updatedAt: at });
    const rules = [{ paymentMethod: 'credit', percentage: 100 }];
    const withRules = await store.setPlatformFee(pool, clientId, merchant.id, { rules }, at);
    expect(withRules).toMatchObject({ platformFeeEnabled: false, platformFeeRules: rules });
    const enabled = await store.setPlatformFee(pool, clientId, merchant.id, { enabled: true }, at);
    expect(enabled).toMatchObject({ platformFeeEnabled: true, platformFeeRules: rules });
  });

  it('hides a deleted merchant and its providers everywhere', async () => {
    const clientId = randomUUID();
    const merchant = await seedMerchant(clientId);
    const deleted = await store.softDeleteMerchant(pool, clientId, merchant.id, new Date());
    expect(deleted?.status).toBe('deleted');
    expect(await store.findMerchant(pool, clientId, merchant.id)).toBeNull();
    expect(await store.findProvider(pool, clientId, merchant.providers[0]!.id)).toBeNull();
    expect(await store.findForCharge(pool, clientId, merchant.id, 'credit')).toBeNull();
    expect((await store.listMerchants(pool, clientId, toPage({}))).totalItems).toBe(0);
    expect(await store.softDeleteMerchant(pool, clientId, merchant.id, new Date())).toBeNull();
  });

  it('reads a merchant for a charge with its sealed credentials and the flow of that payment method only', async () => {
    const clientId = randomUUID();
    const merchant = await seedMerchant(clientId, [{ priority: 2 }, { priority: 1 }]);
    const [first, secondProvider] = merchant.providers;
    const at = new Date();
    await createFlowStore().insert(pool, {
      id: randomUUID(),
      clientId,
      merchantId: merchant.id,
      name: '',
      paymentMethod: 'debit',
      rules: [{ when: { amountGte: 1 }, route: [secondProvider!.id] }],
      defaultRoute: [first!.id],
      createdAt: at,
      updatedAt: at,
    });
    const credit = await store.findForCharge(pool, clientId, merchant.id, 'credit');
    expect(credit?.providers.map((p) => [p.priority, p.credentialsSealed.toString()])).toEqual([
      [1, 'sealed-1'],
      [2, 'sealed-2'],
    ]);
    expect(credit?.flow).toBeUndefined();
    const debit = await store.findForCharge(pool, clientId, merchant.id, 'debit');
    expect(debit?.flow).toMatchObject({ rules: [{ when: { amountGte: 1 }, route: [secondProvider!.id] }], defaultRoute: [first!.id] });
  });

  it('tells whether a priority is taken and whether a flow names a provider', async () => {
    const clientId = randomUUID();
    const merchant = await seedMerchant(clientId, [{ priority: 1 }, { priority: 2 }, { priority: 3, type: 'SANDBOX_ANTIFRAUD' }]);
    const [p1, p2, antifraud] = merchant.providers;
    expect(await store.paymentPriorityTaken(pool, merchant.id, 2, p1!.id)).toBe(true);
    expect(await store.paymentPriorityTaken(pool, merchant.id, 2, p2!.id)).toBe(false);
    expect(await store.paymentPriorityTaken(pool, merchant.id, 3, p1!.id)).toBe(false);
    expect(antifraud?.credentialsType).toBe('SANDBOX_ANTIFRAUD');
    const at = new Date();
    await createFlowStore().insert(pool, {
      id: randomUUID(),
      clientId,
      merchantId: merchant.id,
      name: '',
      paymentMethod: 'credit',
      rules: [{ when: {}, route: [p2!.id] }],
      defaultRoute: [p1!.id],
      createdAt: at,
      updatedAt: at,
    });
    expect(await store.providerInFlow(pool, clientId, merchant.id, p1!.id)).toBe(true);
    expect(await store.providerInFlow(pool, clientId, merchant.id, p2!.id)).toBe(true);
    expect(await store.providerInFlow(pool, clientId, merchant.id, antifraud!.id)).toBe(false);
  });
});

describe('merchant store scoping by client', () => {
  const clientA = randomUUID();
  const clientB = randomUUID();

  it("never shows, changes or deletes client A's merchant or provider for client B", async () => {
    const merchant = await seedMerchant(clientA);
    const provider = merchant.providers[0]!;
    expect(await store.findMerchant(pool, clientB, merchant.id)).toBeNull();
    expect(await store.findMerchant(pool, clientB, merchant.id, { forUpdate: true })).toBeNull();
    expect(await store.listMerchants(pool, clientB, toPage({ limit: 100 }))).toEqual({ items: [], totalItems: 0 });
    expect(await store.findProvider(pool, clientB, provider.id)).toBeNull();
    expect(await store.findForCharge(pool, clientB, merchant.id, 'credit')).toBeNull();
    expect(await store.updateMerchant(pool, { ...merchant, clientId: clientB, name: 'Hijacked' })).toBeNull();
    expect(await store.updateProvider(pool, { ...provider, clientId: clientB, name: 'Hijacked' })).toBeNull();
    expect(await store.setPlatformFee(pool, clientB, merchant.id, { enabled: true }, new Date())).toBeNull();
    expect(await store.softDeleteMerchant(pool, clientB, merchant.id, new Date())).toBeNull();
    expect(await store.findMerchant(pool, clientA, merchant.id)).toEqual(merchant);
  });
});
