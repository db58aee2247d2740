import { randomUUID } from 'node:crypto';
import type { sellers } from '@platform/contracts';
import { errors, type PromiseClient } from '@platform/kit';
import { createSellersPort } from '../../src/shared/sellersPort';
import { cardCharge, cardNumberEnding, chargeCount, createMerchant, failureOf, startCharges, type RunningCharges } from '../support/charges';
import { FakeSellers } from '../support/sellers';

let running: RunningCharges;
const sellersDirectory = new FakeSellers();

beforeAll(async () => {
  running = await startCharges({}, { sellers: sellersDirectory });
});

afterAll(async () => {
  await running.stop();
});

const rule = (sellerId: string, percentage: number) => ({ sellerId, percentage, processingFee: false, chargeRemainderFee: false, liable: false });

describe('CreateCharge: the sellers of a split are checked with sellers-and-reviews', () => {
  it('asks about every seller of the split, for the caller and the merchant, before anything is stored', async () => {
    const clientId = randomUUID();
    const merchant = await createMerchant(running.client, clientId, [{ name: 'sandbox', priority: 1 }]);
    const [a, b] = [randomUUID(), randomUUID()];
    const charge = await running.client.createCharge(cardCharge(clientId, merchant.id, cardNumberEnding('1'), { amount: 10_000, splitRules: [rule(a, 6000), rule(b, 4000)] }));
    expect(charge.status).toBe('authorized');
    expect(sellersDirectory.asked.filter((q) => q.clientId === clientId)).toEqual([{ clientId, merchantId: merchant.id, sellerIds: [a, b] }]);
  });

  it('refuses a charge that splits to a seller who cannot receive, with the code naming it, and stores nothing', async () => {
    const clientId = randomUUID();
    const merchant = await createMerchant(running.client, clientId, [{ name: 'sandbox', priority: 1 }]);
    const blocked = randomUUID();
    sellersDirectory.refuse(blocked, 'split_seller_blocked');
    const failure = await failureOf(
      running.client.createCharge(cardCharge(clientId, merchant.id, cardNumberEnding('1'), { amount: 10_000, splitRules: [rule(randomUUID(), 5000), rule(blocked, 5000)] })),
    );
    expect(failure).toMatchObject({ kind: 'business_rule', businessCode: 'split_seller_blocked' });
    expect(failure.message).toContain(blocked);
    expect(await chargeCount(running.pool, clientId)).toBe(0);
  });

  it('does not ask when the charge has no split', async () => {
    const clientId = randomUUID();
    const merchant = await createMerchant(running.client, clientId, [{ name: 'sandbox', priority: 1 }]);
    await running.client.createCharge(cardCharge(clientId, merchant.id, cardNumberEnding('1'), { amount: 1_000 }));
    expect(sellersDirectory.asked.filter((q) => q.clientId === clientId)).toEqual([]);
  });
});

describe('the gRPC sellers port', () => {
  it('asks CheckSplitReceivers scoped by the caller and passes its refusal on', async () => {
    const calls: sellers.CheckSplitReceiversRequest[] = [];
    const client = {
      checkSplitReceivers: async (request: sellers.CheckSplitReceiversRequest) => {
        calls.push(request);
        if (request.sellerIds.includes('s2')) throw errors.businessRule('split_seller_inactive', 'seller s2 of the split rules is inactive');
        return { sellerIds: request.sellerIds };
      },
    } as unknown as PromiseClient<typeof sellers.SellersServiceService>;
    const directory = createSellersPort(client);
    await directory.checkSplitReceivers('c1', 'm1', ['s1']);
    expect(await failureOf(directory.checkSplitReceivers('c1', 'm1', ['s1', 's2']))).toMatchObject({ businessCode: 'split_seller_inactive' });
    await directory.checkSplitReceivers('c1', 'm1', []);
    expect(calls).toEqual([
      { clientId: 'c1', merchantId: 'm1', sellerIds: ['s1'] },
      { clientId: 'c1', merchantId: 'm1', sellerIds: ['s1', 's2'] },
    ]);
  });
});
