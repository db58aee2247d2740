import { cardNumberEnding } from '@platform/testkit';
import { payoutsWorld, startTestPlatform, type apiClient, type Credentials, type TestPlatform } from './platform';

interface Balance {
  available: number;
  receivable: number;
}
interface Batch {
  id: string;
  sellerId: string | null;
}
interface Order {
  id: string;
  chargeId: string;
  paymentBatchId: string;
  sellerId: string | null;
}
interface Receivables {
  receivables: Array<{ settlementDate: string }>;
}
interface ErrorBody {
  error: { code: number; businessCode?: string; details?: Array<{ field: string; message: string }> };
}

/**
 * Three money defects through the gateway, on the whole platform: credit charges of 13 to 24 installments paid no
 * platform fee; a refund's own split was ignored by the ledger (and could take more from a seller than it held);
 * payment batches and orders listed without sellerId showed every seller's rows.
 */
describe('money defects of payouts, through the gateway', () => {
  let platform: TestPlatform;
  let api: ReturnType<typeof apiClient>;
  let client: Credentials;
  let merchantId: string;
  let alice: string;
  let bob: string;
  let splitChargeId: string;

  let get: Awaited<ReturnType<typeof payoutsWorld>>['get'];
  let until: Awaited<ReturnType<typeof payoutsWorld>>['until'];
  const balanceOf = (sellerId?: string) => get<Balance>(sellerId ? `/v1/payouts/balance?sellerId=${sellerId}` : '/v1/payouts/balance');
  const card = () => ({
    sourceType: 'card',
    card: { cardHolderName: 'Ana Souza', cardNumber: cardNumberEnding(0), cardCvv: '870', cardExpirationDate: `12/${new Date().getUTCFullYear() + 5}` },
  });
  const creditCharge = async (installments: number, splitRules: unknown[] = []) => {
    const res = await api<{ id: string; status: string }>('POST', '/v1/charges', {
      auth: client,
      body: { merchantId, amount: 10_000, paymentMethod: { paymentType: 'credit', installments }, paymentSource: card(), splitRules },
    });
    expect(res.status).toBe(201);
    expect(res.body.status).toBe('authorized');
    return res.body.id;
  };

  beforeAll(async () => {
    platform = await startTestPlatform('e2emoneydefects');
    ({ api, client, merchantId, alice, bob, get, until } = await payoutsWorld(platform, 'Money Defects Store'));
  }, 120_000);

  afterAll(async () => {
    await platform?.stop();
  });

  it('takes the default plan fee from credit charges in 13 and 24 installments (4.49 % and 4.99 %, not 0)', async () => {
    await creditCharge(13);
    // All to the main account: 10,000 less 449.
    expect(await until(() => balanceOf(), (b) => b.receivable > 0, 'the 13-installment charge in the ledger')).toEqual({ available: 0, receivable: 9_551 });
    await creditCharge(24);
    expect(await until(() => balanceOf(), (b) => b.receivable > 9_551, 'the 24-installment charge in the ledger')).toEqual({ available: 0, receivable: 9_551 + 9_501 });
  });

  it('refuses a plan whose fees stop at 12 installments, naming the gap', async () => {
    const res = await api<ErrorBody>('POST', '/v1/subacquirer/plans', {
      auth: client,
      body: {
        name: 'Short',
        fees: [
          { paymentType: 'credit', installmentsFrom: 1, installmentsTo: 12, percentage: 399 },
          { paymentType: 'debit', installmentsFrom: 1, installmentsTo: 1, percentage: 199 },
          { paymentType: 'pix', installmentsFrom: 1, installmentsTo: 1, percentage: 99 },
          { paymentType: 'boleto', installmentsFrom: 1, installmentsTo: 1, fixedAmount: 349 },
          { paymentType: 'voucher', installmentsFrom: 1, installmentsTo: 1, percentage: 499 },
        ],
      },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.details).toEqual([{ field: 'fees', message: 'no fee covers credit in 13 to 24 installments' }]);
  });

  it("takes a refund from the sellers its own split names: all 1,000 from Bob on a 7,000/3,000 split, none from Alice", async () => {
    splitChargeId = await creditCharge(3, [
      { sellerId: alice, amount: 7_000, liable: true },
      { sellerId: bob, amount: 3_000 },
    ]);
    // Alice: 7,000 gross, fee 244, net 6,756; Bob: 3,000 gross, fee 104, net 2,896.
    expect(await until(() => balanceOf(alice), (b) => b.receivable > 0, 'the split charge in the ledger')).toEqual({ available: 0, receivable: 6_756 });
    expect(await balanceOf(bob)).toEqual({ available: 0, receivable: 2_896 });
    const refund = await api<{ refundedAmount: number }>('POST', `/v1/charges/${splitChargeId}/void`, {
      auth: client,
      body: { amount: 1_000, splitRules: [{ sellerId: bob, amount: 1_000 }] },
    });
    expect(refund.status).toBe(201);
    expect(refund.body.refundedAmount).toBe(1_000);
    // Bob gives back his whole installment 3 (gross 1,000, net 966); Alice keeps everything.
    expect(await until(() => balanceOf(bob), (b) => b.receivable < 2_896, 'the refund in the ledger')).toEqual({ available: 0, receivable: 2_896 - 966 });
    expect(await balanceOf(alice)).toEqual({ available: 0, receivable: 6_756 });
  });

  it('refuses with 422 a refund split taking more from a seller than it still holds, and refunds nothing', async () => {
    // Bob holds 2,000 of the charge after the refund above.
    const refused = await api<ErrorBody>('POST', `/v1/charges/${splitChargeId}/void`, {
      auth: client,
      body: { amount: 2_001, splitRules: [{ sellerId: bob, amount: 2_001 }] },
    });
    expect(refused.status).toBe(422);
    expect(refused.body.error.businessCode).toBe('refund_split_exceeds_receiver_share');
    const charge = await get<{ refundedAmount: number; transactionRequests: Array<{ requestType: string }> }>(`/v1/charges/${splitChargeId}`);
    expect(charge.refundedAmount).toBe(1_000);
    expect(charge.transactionRequests.filter((r) => r.requestType === 'refund')).toHaveLength(1);
    const exact = await api<{ refundedAmount: number }>('POST', `/v1/charges/${splitChargeId}/void`, { auth: client, body: { amount: 2_000, splitRules: [{ sellerId: bob, amount: 2_000 }] } });
    expect(exact.status).toBe(201);
    expect(await until(() => balanceOf(bob), (b) => b.receivable === 0, 'the second refund in the ledger')).toEqual({ available: 0, receivable: 0 });
    expect(await balanceOf(alice)).toEqual({ available: 0, receivable: 6_756 });
  });

  it("lists without sellerId only the main account's batches and orders, as documented; a seller's with sellerId", async () => {
    const first = (await get<Receivables>(`/v1/subacquirer/prepayment/receivables?sellerId=${alice}`)).receivables[0]!.settlementDate;
    const advanced = await api<{ batches: Batch[] }>('POST', '/v1/payouts/sandbox/advance', { auth: client, body: { date: first } });
    expect(advanced.status).toBe(200);
    const receivers = new Set(advanced.body.batches.map((b) => b.sellerId));
    expect(receivers.has(null)).toBe(true);
    expect(receivers.has(alice)).toBe(true);

    const batches = await get<{ items: Batch[] }>('/v1/payouts/payment-batches');
    expect(batches.items.length).toBeGreaterThan(0);
    expect(batches.items.every((b) => b.sellerId === null)).toBe(true);
    const aliceBatches = await get<{ items: Batch[] }>(`/v1/payouts/payment-batches?sellerId=${alice}`);
    expect(aliceBatches.items.map((b) => b.sellerId)).toEqual([alice]);

    const orders = await get<{ items: Order[] }>('/v1/payouts/orders');
    expect(orders.items.length).toBeGreaterThan(0);
    expect(orders.items.every((o) => o.sellerId === null)).toBe(true);
    // The split charge paid the main account nothing: its orders without sellerId are none.
    expect((await get<{ items: Order[] }>(`/v1/payouts/orders?chargeId=${splitChargeId}`)).items).toEqual([]);
    const aliceOrders = await get<{ items: Order[] }>(`/v1/payouts/orders?chargeId=${splitChargeId}&sellerId=${alice}`);
    expect(aliceOrders.items.map((o) => o.sellerId)).toEqual([alice]);
  });
});
