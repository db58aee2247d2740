import { randomUUID } from 'node:crypto';
import { MerchantCache } from '../../src/modules/merchants/app/merchantCache';
import type { MerchantForCharge } from '../../src/shared/ports';
import { cardCharge, cardNumberEnding, createMerchant, failureOf, providerIdOf, startCharges, type RunningCharges } from '../support/charges';

/**
 * The service keeps merchants as charges need them in memory; this suite gives the copy a lifetime longer than any
 * test, so that only the invalidation by the merchant use cases can make a change visible to the next charge.
 */
let running: RunningCharges;

beforeAll(async () => {
  running = await startCharges({ MERCHANT_CACHE_TTL_MS: '300000' });
});

afterAll(async () => {
  await running.stop();
});

describe('a change to a merchant is seen by the next charge of the same process', () => {
  it('after a provider update (its priority)', async () => {
    const clientId = randomUUID();
    const merchant = await createMerchant(running.client, clientId, [
      { name: 'first', priority: 1 },
      { name: 'second', priority: 2 },
    ]);
    const before = await running.client.createCharge(cardCharge(clientId, merchant.id, cardNumberEnding('1')));
    expect(before.providerId).toBe(providerIdOf(merchant, 'first'));

    await running.client.updateProvider({ clientId, id: providerIdOf(merchant, 'first'), priority: 3 });

    const after = await running.client.createCharge(cardCharge(clientId, merchant.id, cardNumberEnding('1')));
    expect(after.providerId).toBe(providerIdOf(merchant, 'second'));
  });

  it('after a provider update (its credentials: a type with no adapter is failed over)', async () => {
    const clientId = randomUUID();
    const merchant = await createMerchant(running.client, clientId, [
      { name: 'first', priority: 1 },
      { name: 'second', priority: 2 },
    ]);
    await running.client.createCharge(cardCharge(clientId, merchant.id, cardNumberEnding('1')));

    await running.client.updateProvider({ clientId, id: providerIdOf(merchant, 'first'), credentials: { type: 'SUBACQUIRER', apiKey: 'sk' } });

    const after = await running.client.createCharge(cardCharge(clientId, merchant.id, cardNumberEnding('1')));
    expect(after.transactionRequests.map((r) => [r.providerId, r.requestStatus])).toEqual([
      [providerIdOf(merchant, 'first'), 'failed'],
      [providerIdOf(merchant, 'second'), 'success'],
    ]);
  });

  it('after a flow is created and replaced', async () => {
    const clientId = randomUUID();
    const merchant = await createMerchant(running.client, clientId, [
      { name: 'first', priority: 1 },
      { name: 'second', priority: 2 },
    ]);
    const [first, second] = [providerIdOf(merchant, 'first'), providerIdOf(merchant, 'second')];
    expect((await running.client.createCharge(cardCharge(clientId, merchant.id, cardNumberEnding('1')))).providerId).toBe(first);

    const flow = await running.client.createFlow({ clientId, merchantId: merchant.id, name: 'flow', paymentMethod: 'credit', rules: [], defaultRoute: [second] });
    expect((await running.client.createCharge(cardCharge(clientId, merchant.id, cardNumberEnding('1')))).providerId).toBe(second);

    await running.client.replaceFlow({ clientId, id: flow.id, name: 'flow', paymentMethod: 'credit', rules: [], defaultRoute: [first] });
    expect((await running.client.createCharge(cardCharge(clientId, merchant.id, cardNumberEnding('1')))).providerId).toBe(first);
  });

  it('after a platform fee change', async () => {
    const clientId = randomUUID();
    const merchant = await createMerchant(running.client, clientId);
    // The platform fee is paid by split charges only.
    const split = { amount: 10_000, splitRules: [{ sellerId: randomUUID(), percentage: 10_000, processingFee: false, chargeRemainderFee: false, liable: false }] };
    const before = await running.client.createCharge(cardCharge(clientId, merchant.id, cardNumberEnding('1'), split));

    await running.client.replacePlatformFee({ clientId, merchantId: merchant.id, rules: [{ paymentMethod: 'default', fixedAmount: 50 }] });
    await running.client.setPlatformFeeEnabled({ clientId, merchantId: merchant.id, enabled: true });

    const after = await running.client.createCharge(cardCharge(clientId, merchant.id, cardNumberEnding('1'), split));
    const feeOf = async (id: string) =>
      (await running.pool.query<{ platform_fee: unknown }>('SELECT platform_fee FROM charges WHERE client_id = $1 AND id = $2', [clientId, id])).rows[0]?.platform_fee;
    expect(await feeOf(before.id)).toBeNull();
    expect(await feeOf(after.id)).toMatchObject({ amount: 50 });
  });

  it('after the merchant is deleted', async () => {
    const clientId = randomUUID();
    const merchant = await createMerchant(running.client, clientId);
    await running.client.createCharge(cardCharge(clientId, merchant.id, cardNumberEnding('1')));

    await running.client.deleteMerchant({ clientId, id: merchant.id });

    expect(await failureOf(running.client.createCharge(cardCharge(clientId, merchant.id, cardNumberEnding('1'))))).toMatchObject({ kind: 'not_found' });
  });
});

describe('MerchantCache', () => {
  const merchant = (mcc: string): MerchantForCharge => ({ id: 'm', clientId: 'c', mcc, platformFeeEnabled: false, platformFeeRules: [], providers: [] });

  it('loads once per client, merchant and payment method until the entry expires', async () => {
    let now = 0;
    const cache = new MerchantCache({ ttlMs: 1000, now: () => now });
    const load = jest.fn(async () => merchant('1'));
    await cache.get('c', 'm', 'credit', load);
    await cache.get('c', 'M', 'credit', load);
    expect(load).toHaveBeenCalledTimes(1);
    await cache.get('c', 'm', 'pix', load);
    expect(load).toHaveBeenCalledTimes(2);
    now = 1000;
    await cache.get('c', 'm', 'credit', load);
    expect(load).toHaveBeenCalledTimes(3);
  });

  it('drops every payment method of the merchant it is told about, and no other merchant', async () => {
    const cache = new MerchantCache({ ttlMs: 60_000 });
    await cache.get('c', 'm', 'credit', async () => merchant('1'));
    await cache.get('c', 'm', 'pix', async () => merchant('1'));
    await cache.get('c', 'other', 'credit', async () => merchant('1'));
    cache.invalidate('c', 'M');
    expect(cache.size).toBe(1);
    expect((await cache.get('c', 'm', 'credit', async () => merchant('2'))).mcc).toBe('2');
  });

  it('does not keep a load that an invalidation overtook: it may have read the rows before the change committed', async () => {
    const cache = new MerchantCache({ ttlMs: 60_000 });
    let finish: (m: MerchantForCharge) => void = () => undefined;
    const slow = cache.get('c', 'm', 'credit', () => new Promise<MerchantForCharge>((resolve) => (finish = resolve)));
    cache.invalidate('c', 'm');
    finish(merchant('old'));
    expect((await slow).mcc).toBe('old');
    expect((await cache.get('c', 'm', 'credit', async () => merchant('new'))).mcc).toBe('new');
  });

  it('keeps nothing that failed, and nothing at all with a lifetime of 0', async () => {
    const cache = new MerchantCache({ ttlMs: 60_000 });
    await expect(cache.get('c', 'm', 'credit', async () => Promise.reject(new Error('not found')))).rejects.toThrow('not found');
    expect(cache.size).toBe(0);
    const off = new MerchantCache({ ttlMs: 0 });
    const load = jest.fn(async () => merchant('1'));
    await off.get('c', 'm', 'credit', load);
    await off.get('c', 'm', 'credit', load);
    expect(load).toHaveBeenCalledTimes(2);
  });
});
