import { randomUUID } from 'node:crypto';
import { payments } from '@platform/contracts';
import { failureOf, startSessions, type RunningSessions } from '../support';

let running: RunningSessions;

beforeAll(async () => {
  running = await startSessions();
});

afterAll(async () => {
  await running.stop();
});

const rule = (sellerId: string) => ({ sellerId, percentage: 10_000, processingFee: true, chargeRemainderFee: true, liable: true });

function create(clientId: string, merchantId: string, sellerId: string) {
  return running.client.createSession({
    clientId,
    merchantId,
    name: 'Split mugs',
    orderId: '',
    currency: 'BRL',
    paymentMethods: [payments.PaymentMethod.fromPartial({ paymentType: 'credit', installments: 1 })],
    items: [{ name: 'Mug', unitPrice: 2500, quantity: 2, description: '' }],
    splitRules: [rule(sellerId)],
    statementDescriptor: '',
  });
}

describe('CreateSession: the sellers of its split are checked with sellers-and-reviews', () => {
  it('asks about the sellers for the caller and the merchant, and keeps the split of a session they can receive', async () => {
    const clientId = randomUUID();
    const merchantId = running.payments.addMerchant(clientId);
    const sellerId = randomUUID();
    const session = await create(clientId, merchantId, sellerId);
    expect(session.splitRules.map((r) => r.sellerId)).toEqual([sellerId]);
    expect(running.sellers.asked.filter((q) => q.clientId === clientId)).toEqual([{ clientId, merchantId, sellerIds: [sellerId] }]);
  });

  it('refuses a session whose split names a seller that cannot receive, and stores nothing', async () => {
    const clientId = randomUUID();
    const merchantId = running.payments.addMerchant(clientId);
    const unknown = randomUUID();
    running.sellers.refused.set(unknown, 'split_seller_not_found');
    expect(await failureOf(create(clientId, merchantId, unknown))).toMatchObject({ kind: 'business_rule', businessCode: 'split_seller_not_found' });
    const { rows } = await running.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM sessions WHERE client_id = $1', [clientId]);
    expect(rows[0]!.n).toBe(0);
  });
});
