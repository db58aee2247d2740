import { cardNumberEnding } from '@platform/testkit';
import { apiClient, payoutsWorld, startTestPlatform, type Credentials, type TestPlatform } from './platform';

type Json = Record<string, unknown>;
interface Balance {
  available: number;
  receivable: number;
}
interface Batch {
  id: string;
  sellerId: string | null;
  amount: number;
  feeAmount: number;
  status: string;
  paymentDate: string;
}
interface Order {
  amount: number;
  grossAmount: number;
  totalFeeAmount: number;
  installment: number;
  type: string;
}
interface Receivables {
  summary: { availableAmount: number; receivableCount: number };
  receivables: Array<{ id: string; settlementDate: string; amount: number }>;
}
interface Prepayment {
  id: string;
  status: string;
  grossAmount: number;
  feeAmount: number;
  netAmount: number;
  paymentDate: string;
  items: Array<{ receivableId: string; amount: number; feeAmount: number; netAmount: number; days: number }>;
}

/**
 * The worked example of the README through the gateway, on the whole platform: a 10,000 credit charge in 3
 * installments split 7,000/3,000 between two sellers, its receivables, a partial refund, the settlement of the first
 * installment, and a prepayment of the rest.
 */
describe('payouts and prepayment through the gateway', () => {
  let platform: TestPlatform;
  let api: ReturnType<typeof apiClient>;
  let client: Credentials;
  let merchantId: string;
  let alice: string;
  let bob: string;
  let chargeId: string;

  let get: Awaited<ReturnType<typeof payoutsWorld>>['get'];
  let until: Awaited<ReturnType<typeof payoutsWorld>>['until'];
  const balanceOf = (sellerId: string) => get<Balance>(`/v1/payouts/balance?sellerId=${sellerId}`);

  beforeAll(async () => {
    platform = await startTestPlatform('e2epayouts');
    ({ api, client, merchantId, alice, bob, get, until } = await payoutsWorld(platform, 'Payouts Store'));
  }, 120_000);

  afterAll(async () => {
    await platform?.stop();
  });

  it('makes receivables of the charge: fees of the default plan, nets adding up to the charge less its fees', async () => {
    const charge = await api<{ id: string; status: string }>('POST', '/v1/charges', {
      auth: client,
      body: {
        merchantId,
        amount: 10_000,
        paymentMethod: { paymentType: 'credit', installments: 3 },
        paymentSource: { sourceType: 'card', card: { cardHolderName: 'Ana Souza', cardNumber: cardNumberEnding(0), cardCvv: '870', cardExpirationDate: `12/${new Date().getUTCFullYear() + 5}` } },
        splitRules: [
          { sellerId: alice, amount: 7_000, processingFee: true, chargeRemainderFee: true, liable: true },
          { sellerId: bob, amount: 3_000, processingFee: false, chargeRemainderFee: false, liable: false },
        ],
      },
    });
    expect(charge.status).toBe(201);
    expect(charge.body.status).toBe('authorized');
    chargeId = charge.body.id;
    // Alice: 7,000 gross, fee 3.49 % = 244, net 6,756; Bob: 3,000 gross, fee 104, net 2,896.
    expect(await until(() => balanceOf(alice), (b) => b.receivable > 0, 'the charge in the ledger')).toEqual({ available: 0, receivable: 6_756 });
    expect(await balanceOf(bob)).toEqual({ available: 0, receivable: 2_896 });
    const listed = await get<Receivables>(`/v1/subacquirer/prepayment/receivables?sellerId=${alice}`);
    expect(listed.receivables.map((r) => r.amount)).toEqual([2_252, 2_252, 2_252]);
    expect(listed.summary).toEqual({ availableAmount: 6_756, receivableCount: 3 });
  });

  it('takes a partial refund from the last installment of each seller, 7:3', async () => {
    const refund = await api<{ refundedAmount: number }>('POST', `/v1/charges/${chargeId}/void`, { auth: client, body: { amount: 1_000 } });
    expect(refund.status).toBe(201);
    // Alice gives 700 of gross from installment 3 (net 676), Bob 300 (net 290).
    expect(await until(() => balanceOf(alice), (b) => b.receivable < 6_756, 'the refund in the ledger')).toEqual({ available: 0, receivable: 6_080 });
    expect(await balanceOf(bob)).toEqual({ available: 0, receivable: 2_606 });
    const listed = await get<Receivables>(`/v1/subacquirer/prepayment/receivables?sellerId=${alice}`);
    expect(listed.receivables.map((r) => r.amount)).toEqual([2_252, 2_252, 1_576]);
  });

  it('after advance past the first settlement date, each seller has a paid batch whose orders add up to it', async () => {
    const first = (await get<Receivables>(`/v1/subacquirer/prepayment/receivables?sellerId=${alice}`)).receivables[0]!.settlementDate;
    const advanced = await api<{ batches: Batch[] }>('POST', '/v1/payouts/sandbox/advance', { auth: client, body: { date: first } });
    expect(advanced.status).toBe(200);
    const bySeller = new Map(advanced.body.batches.map((b) => [b.sellerId, b]));
    expect(bySeller.get(alice)).toMatchObject({ amount: 2_252, feeAmount: 82, status: 'paid', paymentDate: first });
    expect(bySeller.get(bob)).toMatchObject({ amount: 964, feeAmount: 36, status: 'paid', paymentDate: first });
    for (const batch of advanced.body.batches) {
      const orders = await get<{ items: Order[] }>(`/v1/payouts/payment-batches/${batch.id}/orders`);
      expect(orders.items.reduce((s, o) => s + o.amount, 0)).toBe(batch.amount);
      expect(orders.items.map((o) => [o.installment, o.type])).toEqual([[1, 'authorization']]);
    }
    const listed = await get<{ items: Batch[] }>(`/v1/payouts/payment-batches?sellerId=${alice}&status=paid`);
    expect(listed.items.map((b) => b.id)).toEqual([bySeller.get(alice)!.id]);
    // Without sellerId the orders are the main account's (none of this charge); each seller's with its id.
    expect((await get<{ items: Order[] }>(`/v1/payouts/orders?chargeId=${chargeId}`)).items).toHaveLength(0);
    for (const seller of [alice, bob]) expect((await get<{ items: Order[] }>(`/v1/payouts/orders?chargeId=${chargeId}&sellerId=${seller}`)).items).toHaveLength(1);
    expect(await balanceOf(alice)).toEqual({ available: 0, receivable: 6_080 - 2_252 });
  });

  it('prepays the rest: the simulation and its commit move the receivables to the payment date; a second commit answers 422', async () => {
    const simulate = () => api<Prepayment>('POST', '/v1/subacquirer/prepayment', { auth: client, body: { sellerId: alice, endDate: '2099-12-31' } });
    const first = await simulate();
    const second = await simulate();
    expect(first.status).toBe(201);
    expect(first.body.items.map((i) => i.amount)).toEqual([2_252, 1_576]);
    expect(first.body.grossAmount).toBe(3_828);
    expect(first.body.feeAmount).toBe(first.body.items.reduce((s, i) => s + i.feeAmount, 0));
    for (const item of first.body.items) expect(item.feeAmount).toBe(Math.floor((item.amount * 199 * item.days) / 300_000));
    expect(first.body.netAmount).toBe(first.body.grossAmount - first.body.feeAmount);
    const before = await balanceOf(alice);
    const committed = await api<Prepayment>('POST', `/v1/subacquirer/prepayment/${first.body.id}/commit`, { auth: client });
    expect(committed.status).toBe(200);
    expect(committed.body.status).toBe('committed');
    // At once: the committed receivables leave the future balance (the fee went to the platform, the net is in a
    // pending batch of the payment date, not yet available).
    expect(await balanceOf(alice)).toEqual({ available: before.available, receivable: before.receivable - first.body.grossAmount });
    const pending = (await get<{ items: Batch[] }>(`/v1/payouts/payment-batches?sellerId=${alice}&status=pending`)).items;
    expect(pending.map((b) => ({ amount: b.amount, status: b.status, paymentDate: b.paymentDate }))).toEqual([
      { amount: first.body.netAmount, status: 'pending', paymentDate: first.body.paymentDate },
    ]);
    const refused = await api<{ error: { businessCode: string } }>('POST', `/v1/subacquirer/prepayment/${second.body.id}/commit`, { auth: client });
    expect(refused.status).toBe(422);
    expect(refused.body.error.businessCode).toBe('receivables_unavailable');
    expect((await get<Receivables>(`/v1/subacquirer/prepayment/receivables?sellerId=${alice}`)).summary).toEqual({ availableAmount: 0, receivableCount: 0 });
    const advanced = await api<{ batches: Batch[] }>('POST', '/v1/payouts/sandbox/advance', { auth: client, body: { date: first.body.paymentDate } });
    const batch = advanced.body.batches.find((b) => b.sellerId === alice);
    // That same batch is paid on its date, not a second one.
    expect(batch).toMatchObject({ id: pending[0]!.id, amount: first.body.netAmount, status: 'paid', paymentDate: first.body.paymentDate });
    expect(advanced.body.batches.filter((b) => b.sellerId === alice)).toHaveLength(1);
    expect((await get<{ items: Batch[] }>(`/v1/payouts/payment-batches?sellerId=${alice}&status=pending`)).items).toEqual([]);
    expect(await balanceOf(alice)).toEqual({ available: 0, receivable: 0 });
  });

  it('answers I-403 to a client not enabled for prepayment, with the envelope and the fields of the description', async () => {
    const other = await apiClient(platform.adminUrl)<Credentials>('POST', '/admin/v1/clients', { body: { name: 'No Prepay', environment: 'sandbox' }, headers: { 'x-admin-token': platform.adminToken } });
    const res = await api<Json>('GET', '/v1/subacquirer/prepayment/receivables', { auth: { clientId: other.body.clientId, apiKey: other.body.apiKey } });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ code: 'I-403', networkDeniedMessage: expect.any(String), error: { code: 403, businessCode: 'I-403' } });
  });
});
