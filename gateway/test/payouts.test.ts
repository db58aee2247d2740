import { PLAN_LIMITS, PREPAYMENT_LIMITS } from '@platform/api-model';
import type { payouts, settings } from '@platform/contracts';
import { AppError } from '@platform/kit';
import request from 'supertest';
import { NETWORK_DENIED_MESSAGE } from '../src/http/errors';
import { auth, buildGateway, CLIENT_ID, CREATED_AT, fakeAuthenticate, LIVE_KEY, UPDATED_AT, upstreamCalls, type RecordedCall } from './helpers';

const PLAN_ID = '7f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b';
const BATCH_ID = '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d';
const ORDER_ID = '2b3c4d5e-6f7a-4b8c-9d0e-1f2a3b4c5d6e';
const SELLER_ID = '3c4d5e6f-7a8b-4c9d-8e1f-2a3b4c5d6e7f';
const CHARGE_ID = '4d5e6f7a-8b9c-4d0e-9f2a-3b4c5d6e7f80';
const PREPAYMENT_ID = '5e6f7a8b-9c0d-4e1f-8a3b-4c5d6e7f8091';
const RECEIVABLE_ID = '6f7a8b9c-0d1e-4f2a-9b4c-5d6e7f809112';
const EXPIRES_AT = new Date('2026-03-04T05:36:07.089Z');

/** Public keys limited to one resource of the payouts service each. */
const SCOPED_KEYS: Record<string, string[]> = { pk_payouts: ['payouts'], pk_plans: ['plans'], pk_prepayment: ['prepayment'] };

async function authenticate(request: settings.AuthenticateRequest): Promise<settings.AuthenticateResponse> {
  const scopes = SCOPED_KEYS[request.apiKey];
  if (!scopes) return fakeAuthenticate(request);
  const answer = await fakeAuthenticate({ ...request, apiKey: 'pk_all' });
  return { ...answer, scopes, keyId: `key-${request.apiKey}` };
}

function samplePlan(overrides: Partial<payouts.Plan> = {}): payouts.Plan {
  return {
    id: PLAN_ID,
    clientId: CLIENT_ID,
    name: 'Standard',
    isDefault: true,
    fees: [{ paymentType: 'credit', installmentsFrom: 1, installmentsTo: 12, percentage: 299, fixedAmount: 50 }],
    settlementDays: { credit: 30, debit: 1, pix: 1, boleto: 1, voucher: 30 },
    prepaymentMonthlyRate: 199,
    createdAt: CREATED_AT,
    updatedAt: UPDATED_AT,
    ...overrides,
  };
}

function sampleBatch(overrides: Partial<payouts.PaymentBatch> = {}): payouts.PaymentBatch {
  return {
    id: BATCH_ID,
    clientId: CLIENT_ID,
    sellerId: '',
    amount: 9_651,
    feeAmount: 349,
    refundAmount: 0,
    finalBalance: 0,
    paymentDate: '2026-04-06',
    status: 'paid',
    paymentMethod: 'bank_transfer',
    createdAt: CREATED_AT,
    updatedAt: UPDATED_AT,
    ...overrides,
  };
}

function sampleOrder(overrides: Partial<payouts.Order> = {}): payouts.Order {
  return {
    id: ORDER_ID,
    clientId: CLIENT_ID,
    chargeId: CHARGE_ID,
    paymentBatchId: BATCH_ID,
    sellerId: SELLER_ID,
    amount: 4_825,
    grossAmount: 5_000,
    totalFeeAmount: 175,
    installment: 1,
    totalInstallments: 2,
    paymentMethod: 'credit',
    type: 'authorization',
    paymentScheduledAt: '2026-04-06',
    createdAt: CREATED_AT,
    ...overrides,
  };
}

function samplePrepayment(overrides: Partial<payouts.Prepayment> = {}): payouts.Prepayment {
  return {
    id: PREPAYMENT_ID,
    clientId: CLIENT_ID,
    sellerId: SELLER_ID,
    status: 'pending',
    grossAmount: 10_000,
    netAmount: 9_801,
    feeAmount: 199,
    monthlyRate: 199,
    expiresAt: EXPIRES_AT,
    paymentDate: '2026-03-05',
    calendar: 'BR-national',
    feeConvention: 'simple-30',
    items: [{ receivableId: RECEIVABLE_ID, settlementDate: '2026-04-06', paymentArrangement: 'credit', amount: 10_000, days: 32, feeAmount: 199, netAmount: 9_801 }],
    createdAt: CREATED_AT,
    committedAt: undefined,
    ...overrides,
  };
}

const META = { itemCount: 1, totalItems: 1, itemsPerPage: 10, totalPages: 1, currentPage: 1 };

const BATCH_JSON = {
  id: BATCH_ID,
  sellerId: null,
  amount: 9_651,
  feeAmount: 349,
  refundAmount: 0,
  finalBalance: 0,
  paymentDate: '2026-04-06',
  status: 'paid',
  paymentMethod: 'bank_transfer',
  createdAt: CREATED_AT.toISOString(),
  updatedAt: UPDATED_AT.toISOString(),
};

const ORDER_JSON = {
  id: ORDER_ID,
  chargeId: CHARGE_ID,
  paymentBatchId: BATCH_ID,
  sellerId: SELLER_ID,
  amount: 4_825,
  grossAmount: 5_000,
  totalFeeAmount: 175,
  installment: 1,
  totalInstallments: 2,
  paymentMethod: 'credit',
  type: 'authorization',
  paymentScheduledAt: '2026-04-06',
  createdAt: CREATED_AT.toISOString(),
};

const PLAN_JSON = {
  id: PLAN_ID,
  name: 'Standard',
  isDefault: true,
  fees: [{ paymentType: 'credit', installmentsFrom: 1, installmentsTo: 12, percentage: 299, fixedAmount: 50 }],
  settlementDays: { credit: 30, debit: 1, pix: 1, boleto: 1, voucher: 30 },
  prepaymentMonthlyRate: 199,
  createdAt: CREATED_AT.toISOString(),
  updatedAt: UPDATED_AT.toISOString(),
};

const PREPAYMENT_JSON = {
  id: PREPAYMENT_ID,
  sellerId: SELLER_ID,
  status: 'pending',
  grossAmount: 10_000,
  netAmount: 9_801,
  feeAmount: 199,
  monthlyRate: 199,
  expiresAt: EXPIRES_AT.toISOString(),
  paymentDate: '2026-03-05',
  calendar: 'BR-national',
  feeConvention: 'simple-30',
  items: [{ receivableId: RECEIVABLE_ID, settlementDate: '2026-04-06', paymentArrangement: 'credit', amount: 10_000, days: 32, feeAmount: 199, netAmount: 9_801 }],
  createdAt: CREATED_AT.toISOString(),
  committedAt: null,
};

const payoutsFake = () => ({
  getBalance: async () => ({ available: 1_500, receivable: 98_000 }),
  listPaymentBatches: async () => ({ items: [sampleBatch()], meta: META }),
  getPaymentBatch: async () => sampleBatch(),
  listOrders: async () => ({ items: [sampleOrder()], meta: META }),
  getOrder: async () => sampleOrder(),
  advanceSettlement: async () => ({ batches: [sampleBatch(), sampleBatch({ id: 'b2', sellerId: SELLER_ID, status: 'pending' })] }),
  listPlans: async () => ({ items: [samplePlan()], meta: META }),
  createPlan: async () => samplePlan(),
  getPlan: async () => samplePlan(),
  updatePlan: async () => samplePlan(),
  listPrepaymentReceivables: async () => ({
    availableAmount: 10_000,
    receivableCount: 1,
    receivables: [{ id: RECEIVABLE_ID, settlementDate: '2026-04-06', paymentArrangement: 'credit', amount: 10_000 }],
  }),
  simulatePrepayment: async () => samplePrepayment(),
  getPrepayment: async () => samplePrepayment(),
  commitPrepayment: async () => samplePrepayment({ status: 'committed', committedAt: UPDATED_AT }),
});

function gateway(overrides: Partial<ReturnType<typeof payoutsFake>> = {}) {
  return buildGateway({ settings: { authenticate }, payoutsAndPrepayment: { ...payoutsFake(), ...overrides } });
}

/** The one upstream call a request made, besides authentication. */
function onlyCall(calls: RecordedCall[]): RecordedCall {
  const made = upstreamCalls(calls);
  expect(made).toHaveLength(1);
  return made[0]!;
}

function fieldsOf(res: request.Response): string[] {
  expect(res.status).toBe(400);
  expect(res.body.error).toMatchObject({ type: 'bad_request', code: 400 });
  return (res.body.error.details as Array<{ field: string }>).map((d) => d.field).sort();
}

describe('/v1/payouts', () => {
  it('GET /balance answers {available, receivable} of the main account, or of the seller given', async () => {
    const gw = gateway();
    const main = await request(gw.app).get('/v1/payouts/balance').set(auth());
    expect(main.status).toBe(200);
    expect(main.body).toEqual({ available: 1_500, receivable: 98_000 });
    expect(onlyCall(gw.payoutsAndPrepaymentCalls)).toMatchObject({ method: 'getBalance', request: { clientId: CLIENT_ID, sellerId: undefined } });
    await request(gw.app).get(`/v1/payouts/balance?sellerId=${SELLER_ID}`).set(auth());
    expect(upstreamCalls(gw.payoutsAndPrepaymentCalls)[1]!.request).toEqual({ clientId: CLIENT_ID, sellerId: SELLER_ID });
  });

  it('GET /payment-batches maps page, order, seller, statuses and dates (instants read as their Brasília date)', async () => {
    const gw = gateway();
    const res = await request(gw.app)
      .get('/v1/payouts/payment-batches')
      .query({ page: '2', limit: '5', order: 'asc', sellerId: SELLER_ID, status: 'pending,paid', startDate: '2026-05-01T02:00:00Z', endDate: '2026-05-31' })
      .set(auth());
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ items: [BATCH_JSON], meta: META });
    expect(onlyCall(gw.payoutsAndPrepaymentCalls)).toMatchObject({
      method: 'listPaymentBatches',
      request: { clientId: CLIENT_ID, page: { page: 2, limit: 5, sort: 'ASC' }, sellerId: SELLER_ID, status: ['pending', 'paid'], startDate: '2026-04-30', endDate: '2026-05-31' },
    });
  });

  it('GET /payment-batches defaults to the first page of 10, newest first, with no filter; accepts the house sort', async () => {
    const gw = gateway();
    await request(gw.app).get('/v1/payouts/payment-batches').set(auth());
    await request(gw.app).get('/v1/payouts/payment-batches?sort=ASC&startDate=2026-05-01T03:00:00.000Z&endDate=2026-05-01T23:30:00-03:00').set(auth());
    const [first, second] = upstreamCalls(gw.payoutsAndPrepaymentCalls);
    expect(first!.request).toEqual({ clientId: CLIENT_ID, page: { page: 1, limit: 10, sort: 'DESC' }, sellerId: undefined, status: [], startDate: undefined, endDate: undefined });
    expect(second!.request).toMatchObject({ page: { sort: 'ASC' }, startDate: '2026-05-01', endDate: '2026-05-01' });
  });

  it('GET /payment-batches names each bad filter in a 400 and asks nothing upstream', async () => {
    const gw = gateway();
    const res = await request(gw.app)
      .get('/v1/payouts/payment-batches')
      .query({ page: '0', limit: '101', order: 'up', status: 'pending,lost', startDate: 'yesterday', endDate: '2026-02-30' })
      .set(auth());
    expect(fieldsOf(res)).toEqual(['endDate', 'limit', 'order', 'page', 'startDate', 'status']);
    const reversed = await request(gw.app).get('/v1/payouts/payment-batches?startDate=2026-05-02&endDate=2026-05-01').set(auth());
    expect(reversed.body.error.details).toEqual([{ field: 'endDate', message: 'must not be before startDate' }]);
    expect(upstreamCalls(gw.payoutsAndPrepaymentCalls)).toEqual([]);
  });

  it('GET /payment-batches/{id} answers the batch; an unknown one is the upstream 404', async () => {
    const gw = gateway();
    const res = await request(gw.app).get(`/v1/payouts/payment-batches/${BATCH_ID}`).set(auth());
    expect(res.status).toBe(200);
    expect(res.body).toEqual(BATCH_JSON);
    expect(onlyCall(gw.payoutsAndPrepaymentCalls).request).toEqual({ clientId: CLIENT_ID, id: BATCH_ID });
    const missing = gateway({
      getPaymentBatch: async () => {
        throw new AppError('not_found', 'payment batch x not found', { key: 'not_found' });
      },
    });
    const notFound = await request(missing.app).get('/v1/payouts/payment-batches/x').set(auth());
    expect(notFound.status).toBe(404);
    expect(notFound.body).toEqual({ error: { type: 'invalid_request_error', code: 404, message: 'payment batch x not found', key: 'not_found' } });
  });

  it("GET /payment-batches/{id}/orders lists the batch's orders (ListOrders by payment batch), paged", async () => {
    const gw = gateway();
    const res = await request(gw.app).get(`/v1/payouts/payment-batches/${BATCH_ID}/orders?page=3&limit=20`).set(auth());
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ items: [ORDER_JSON], meta: META });
    expect(onlyCall(gw.payoutsAndPrepaymentCalls)).toMatchObject({
      method: 'listOrders',
      request: { clientId: CLIENT_ID, paymentBatchId: BATCH_ID, page: { page: 3, limit: 20, sort: 'DESC' } },
    });
    expect(fieldsOf(await request(gw.app).get(`/v1/payouts/payment-batches/${BATCH_ID}/orders?limit=0`).set(auth()))).toEqual(['limit']);
  });

  it('GET /payment-batches/{id}/orders of an unknown batch is the 404 the service answers', async () => {
    const gw = gateway({
      listOrders: async () => {
        throw new AppError('not_found', 'payment batch x not found', { key: 'not_found' });
      },
    });
    const res = await request(gw.app).get('/v1/payouts/payment-batches/x/orders').set(auth());
    expect(res.status).toBe(404);
    expect(res.body.error).toMatchObject({ code: 404, key: 'not_found' });
  });

  it('GET /orders maps seller, dates, charge and page; GET /orders/{id} answers the order', async () => {
    const gw = gateway();
    const list = await request(gw.app)
      .get('/v1/payouts/orders')
      .query({ sellerId: SELLER_ID, startDate: '2026-04-01', endDate: '2026-04-30T12:00:00Z', chargeId: CHARGE_ID, page: '2', limit: '50' })
      .set(auth());
    expect(list.status).toBe(200);
    expect(list.body).toEqual({ items: [ORDER_JSON], meta: META });
    const one = await request(gw.app).get(`/v1/payouts/orders/${ORDER_ID}`).set(auth());
    expect(one.body).toEqual(ORDER_JSON);
    const [listed, got] = upstreamCalls(gw.payoutsAndPrepaymentCalls);
    expect(listed!.request).toEqual({
      clientId: CLIENT_ID,
      page: { page: 2, limit: 50, sort: 'DESC' },
      sellerId: SELLER_ID,
      startDate: '2026-04-01',
      endDate: '2026-04-30',
      chargeId: CHARGE_ID,
    });
    expect(got).toMatchObject({ method: 'getOrder', request: { clientId: CLIENT_ID, id: ORDER_ID } });
    expect(fieldsOf(await request(gw.app).get('/v1/payouts/orders?chargeId=&startDate=2026-13-01').set(auth()))).toEqual(['chargeId', 'startDate']);
  });

  it("an order of the main account, in no batch yet, shows null sellerId and paymentBatchId", async () => {
    const gw = gateway({ getOrder: async () => sampleOrder({ sellerId: '', paymentBatchId: '' }) });
    const res = await request(gw.app).get(`/v1/payouts/orders/${ORDER_ID}`).set(auth());
    expect(res.body).toMatchObject({ sellerId: null, paymentBatchId: null });
  });

  it('POST /sandbox/advance runs the settlement for the date and answers 200 with the batches', async () => {
    const gw = gateway();
    const res = await request(gw.app).post('/v1/payouts/sandbox/advance').set(auth()).send({ date: '2026-04-06' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ batches: [BATCH_JSON, { ...BATCH_JSON, id: 'b2', sellerId: SELLER_ID, status: 'pending' }] });
    expect(onlyCall(gw.payoutsAndPrepaymentCalls)).toMatchObject({ method: 'advanceSettlement', request: { clientId: CLIENT_ID, date: '2026-04-06' } });
    for (const body of [{}, { date: '2026-04-06T00:00:00Z' }, { date: '2026-02-29' }, { date: 20260406 }]) {
      expect(fieldsOf(await request(gw.app).post('/v1/payouts/sandbox/advance').set(auth()).send(body))).toEqual(['date']);
    }
    expect(upstreamCalls(gw.payoutsAndPrepaymentCalls)).toHaveLength(1);
  });

  it('POST /sandbox/advance does not exist for a live client: 404 route_not_found, nothing asked', async () => {
    const gw = gateway();
    const res = await request(gw.app).post('/v1/payouts/sandbox/advance').set(auth(LIVE_KEY)).send({ date: '2026-04-06' });
    expect(res.status).toBe(404);
    expect(res.body.error).toMatchObject({ code: 404, key: 'route_not_found' });
    expect(upstreamCalls(gw.payoutsAndPrepaymentCalls)).toEqual([]);
  });
});

describe('/v1/subacquirer/plans', () => {
  const fullPlan = {
    name: 'Premium',
    isDefault: false,
    fees: [
      { paymentType: 'credit', installmentsFrom: 1, installmentsTo: 1, percentage: 250, fixedAmount: 30 },
      { paymentType: 'credit', installmentsFrom: 2, installmentsTo: 12, percentage: 350 },
      { paymentType: 'pix', fixedAmount: 99 },
    ],
    settlementDays: { credit: 30, pix: 0 },
    prepaymentMonthlyRate: 150,
  };

  it('POST maps the body (fee defaults: installments 1 to 24, no percentage or fixed amount) and answers 201 with the plan', async () => {
    const gw = gateway();
    const res = await request(gw.app).post('/v1/subacquirer/plans').set(auth()).send(fullPlan);
    expect(res.status).toBe(201);
    expect(res.body).toEqual(PLAN_JSON);
    expect(onlyCall(gw.payoutsAndPrepaymentCalls)).toMatchObject({ method: 'createPlan' });
    expect(upstreamCalls(gw.payoutsAndPrepaymentCalls)[0]!.request).toEqual({
      clientId: CLIENT_ID,
      name: 'Premium',
      isDefault: false,
      fees: [
        { paymentType: 'credit', installmentsFrom: 1, installmentsTo: 1, percentage: 250, fixedAmount: 30 },
        { paymentType: 'credit', installmentsFrom: 2, installmentsTo: 12, percentage: 350, fixedAmount: 0 },
        { paymentType: 'pix', installmentsFrom: 1, installmentsTo: 24, percentage: 0, fixedAmount: 99 },
      ],
      settlementDays: { credit: 30, pix: 0 },
      prepaymentMonthlyRate: 150,
    });
  });

  it('POST with only a name leaves the rest to the service (its defaults)', async () => {
    const gw = gateway();
    expect((await request(gw.app).post('/v1/subacquirer/plans').set(auth()).send({ name: '  Basic ' })).status).toBe(201);
    expect(onlyCall(gw.payoutsAndPrepaymentCalls).request).toEqual({
      clientId: CLIENT_ID,
      name: 'Basic',
      isDefault: undefined,
      fees: [],
      settlementDays: undefined,
      prepaymentMonthlyRate: undefined,
    });
  });

  it('POST accepts every limit at its edge', async () => {
    const gw = gateway();
    const res = await request(gw.app)
      .post('/v1/subacquirer/plans')
      .set(auth())
      .send({
        name: 'x'.repeat(PLAN_LIMITS.nameMaxLength),
        fees: [{ paymentType: 'voucher', installmentsFrom: 1, installmentsTo: PLAN_LIMITS.installmentsMax, percentage: PLAN_LIMITS.percentageMax, fixedAmount: PLAN_LIMITS.fixedAmountMax }],
        settlementDays: { credit: PLAN_LIMITS.settlementDaysMax, debit: 0, pix: 0, boleto: 0, voucher: 0 },
        prepaymentMonthlyRate: PLAN_LIMITS.prepaymentMonthlyRateMax,
      });
    expect(res.status).toBe(201);
  });

  it('POST names every field past its limit in one 400, and asks nothing upstream', async () => {
    const gw = gateway();
    const res = await request(gw.app)
      .post('/v1/subacquirer/plans')
      .set(auth())
      .send({
        name: 'x'.repeat(PLAN_LIMITS.nameMaxLength + 1),
        isDefault: 'yes',
        fees: [
          { paymentType: 'cash' },
          { paymentType: 'credit', installmentsFrom: 0, installmentsTo: PLAN_LIMITS.installmentsMax + 1 },
          { paymentType: 'debit', percentage: PLAN_LIMITS.percentageMax + 1, fixedAmount: PLAN_LIMITS.fixedAmountMax + 1 },
          { paymentType: 'pix', percentage: -1, fixedAmount: 1.5 },
        ],
        settlementDays: { credit: PLAN_LIMITS.settlementDaysMax + 1, debit: -1, pix: 'one' },
        prepaymentMonthlyRate: PLAN_LIMITS.prepaymentMonthlyRateMax + 1,
      });
    expect(fieldsOf(res)).toEqual(
      [
        'name',
        'isDefault',
        'fees.0.paymentType',
        'fees.1.installmentsFrom',
        'fees.1.installmentsTo',
        'fees.2.percentage',
        'fees.2.fixedAmount',
        'fees.3.percentage',
        'fees.3.fixedAmount',
        'settlementDays.credit',
        'settlementDays.debit',
        'settlementDays.pix',
        'prepaymentMonthlyRate',
      ].sort(),
    );
    expect(fieldsOf(await request(gw.app).post('/v1/subacquirer/plans').set(auth()).send({}))).toEqual(['name']);
    expect(fieldsOf(await request(gw.app).post('/v1/subacquirer/plans').set(auth()).send({ name: '   ' }))).toEqual(['name']);
    expect(upstreamCalls(gw.payoutsAndPrepaymentCalls)).toEqual([]);
  });

  it('POST refuses a fee whose range is reversed, fees that overlap for one payment type, and too many fees', async () => {
    const gw = gateway();
    const reversed = await request(gw.app)
      .post('/v1/subacquirer/plans')
      .set(auth())
      .send({ name: 'P', fees: [{ paymentType: 'credit', installmentsFrom: 5, installmentsTo: 4 }] });
    expect(reversed.body.error.details).toEqual([{ field: 'fees.0.installmentsTo', message: 'must be at least installmentsFrom' }]);
    const overlapping = await request(gw.app)
      .post('/v1/subacquirer/plans')
      .set(auth())
      .send({
        name: 'P',
        fees: [
          { paymentType: 'credit', installmentsFrom: 1, installmentsTo: 6 },
          { paymentType: 'debit', installmentsFrom: 1, installmentsTo: 6 },
          { paymentType: 'credit', installmentsFrom: 6, installmentsTo: 12 },
        ],
      });
    expect(overlapping.body.error.details).toEqual([{ field: 'fees.2.installmentsFrom', message: 'overlaps the installments of fees.0 (credit)' }]);
    const many = Array.from({ length: PLAN_LIMITS.maxFees + 1 }, () => ({ paymentType: 'credit' }));
    expect(fieldsOf(await request(gw.app).post('/v1/subacquirer/plans').set(auth()).send({ name: 'P', fees: many }))).toEqual(['fees']);
    expect(upstreamCalls(gw.payoutsAndPrepaymentCalls)).toEqual([]);
  });

  it('GET lists plans paged; GET /{id} answers one', async () => {
    const gw = gateway();
    const list = await request(gw.app).get('/v1/subacquirer/plans?page=2&limit=3').set(auth());
    expect(list.status).toBe(200);
    expect(list.body).toEqual({ items: [PLAN_JSON], meta: META });
    const one = await request(gw.app).get(`/v1/subacquirer/plans/${PLAN_ID}`).set(auth());
    expect(one.body).toEqual(PLAN_JSON);
    const [listed, got] = upstreamCalls(gw.payoutsAndPrepaymentCalls);
    expect(listed).toMatchObject({ method: 'listPlans', request: { clientId: CLIENT_ID, page: { page: 2, limit: 3, sort: 'DESC' } } });
    expect(got).toMatchObject({ method: 'getPlan', request: { clientId: CLIENT_ID, id: PLAN_ID } });
  });

  it('PATCH changes only what is given: fees replace the table (replaceFees), settlementDays is partial', async () => {
    const gw = gateway();
    const renamed = await request(gw.app).patch(`/v1/subacquirer/plans/${PLAN_ID}`).set(auth()).send({ name: 'Gold' });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toEqual(PLAN_JSON);
    await request(gw.app)
      .patch(`/v1/subacquirer/plans/${PLAN_ID}`)
      .set(auth())
      .send({ isDefault: true, fees: [{ paymentType: 'boleto', fixedAmount: 350 }], settlementDays: { boleto: 2 }, prepaymentMonthlyRate: 0 });
    await request(gw.app).patch(`/v1/subacquirer/plans/${PLAN_ID}`).set(auth()).send({ fees: [] });
    const [first, second, third] = upstreamCalls(gw.payoutsAndPrepaymentCalls);
    expect(first).toMatchObject({ method: 'updatePlan' });
    expect(first!.request).toEqual({
      clientId: CLIENT_ID,
      id: PLAN_ID,
      name: 'Gold',
      isDefault: undefined,
      replaceFees: false,
      fees: [],
      settlementDays: undefined,
      prepaymentMonthlyRate: undefined,
    });
    expect(second!.request).toEqual({
      clientId: CLIENT_ID,
      id: PLAN_ID,
      name: undefined,
      isDefault: true,
      replaceFees: true,
      fees: [{ paymentType: 'boleto', installmentsFrom: 1, installmentsTo: 24, percentage: 0, fixedAmount: 350 }],
      settlementDays: { boleto: 2 },
      prepaymentMonthlyRate: 0,
    });
    expect(third!.request).toMatchObject({ replaceFees: true, fees: [] });
  });

  it('PATCH refuses isDefault false (the default moves only to another plan) and the limits of create', async () => {
    const gw = gateway();
    const res = await request(gw.app)
      .patch(`/v1/subacquirer/plans/${PLAN_ID}`)
      .set(auth())
      .send({ isDefault: false, name: '', settlementDays: { voucher: 400 }, fees: [{ paymentType: 'pix', installmentsTo: 30 }] });
    expect(fieldsOf(res)).toEqual(['fees.0.installmentsTo', 'isDefault', 'name', 'settlementDays.voucher']);
    expect(res.body.error.details).toContainEqual({ field: 'isDefault', message: 'must be true: a plan stops being the default only when another becomes it' });
    expect(upstreamCalls(gw.payoutsAndPrepaymentCalls)).toEqual([]);
  });

  it('a plan the service answers without its settlement days is an internal error, never a half plan', async () => {
    const gw = gateway({ getPlan: async () => samplePlan({ settlementDays: undefined }) });
    const res = await request(gw.app).get(`/v1/subacquirer/plans/${PLAN_ID}`).set(auth());
    expect(res.status).toBe(500);
    expect(res.body.error).toMatchObject({ type: 'api_error', code: 500 });
  });
});

describe('/v1/subacquirer/prepayment', () => {
  it('GET /receivables answers the summary and the receivables, of the main account or of a seller', async () => {
    const gw = gateway();
    const res = await request(gw.app).get('/v1/subacquirer/prepayment/receivables').set(auth());
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      summary: { availableAmount: 10_000, receivableCount: 1 },
      receivables: [{ id: RECEIVABLE_ID, settlementDate: '2026-04-06', paymentArrangement: 'credit', amount: 10_000 }],
    });
    await request(gw.app).get(`/v1/subacquirer/prepayment/receivables?sellerId=${SELLER_ID}`).set(auth());
    const [main, seller] = upstreamCalls(gw.payoutsAndPrepaymentCalls);
    expect(main).toEqual(expect.objectContaining({ method: 'listPrepaymentReceivables', request: { clientId: CLIENT_ID, sellerId: undefined } }));
    expect(seller!.request).toEqual({ clientId: CLIENT_ID, sellerId: SELLER_ID });
  });

  it('POST simulates up to endDate, or for the dates given, and answers 201 with the prepayment', async () => {
    const gw = gateway();
    const byEnd = await request(gw.app).post('/v1/subacquirer/prepayment').set(auth()).send({ sellerId: SELLER_ID, endDate: '2026-04-30' });
    expect(byEnd.status).toBe(201);
    expect(byEnd.body).toEqual(PREPAYMENT_JSON);
    const byDates = await request(gw.app).post('/v1/subacquirer/prepayment').set(auth()).send({ dates: ['2026-04-06', '2026-05-06'] });
    expect(byDates.status).toBe(201);
    const [first, second] = upstreamCalls(gw.payoutsAndPrepaymentCalls);
    expect(first).toMatchObject({ method: 'simulatePrepayment' });
    expect(first!.request).toEqual({ clientId: CLIENT_ID, sellerId: SELLER_ID, endDate: '2026-04-30', dates: [] });
    expect(second!.request).toEqual({ clientId: CLIENT_ID, sellerId: undefined, endDate: undefined, dates: ['2026-04-06', '2026-05-06'] });
  });

  it('POST needs exactly one of endDate and dates, each a real date', async () => {
    const gw = gateway();
    const post = (body: object) => request(gw.app).post('/v1/subacquirer/prepayment').set(auth()).send(body);
    expect((await post({})).body.error.details).toEqual([{ field: 'endDate', message: 'is required unless dates is given' }]);
    expect((await post({ sellerId: SELLER_ID })).body.error.details).toEqual([{ field: 'endDate', message: 'is required unless dates is given' }]);
    expect((await post({ endDate: '2026-04-30', dates: ['2026-04-06'] })).body.error.details).toEqual([
      { field: 'dates', message: 'must not be given with endDate: one or the other' },
    ]);
    expect(fieldsOf(await post({ endDate: '30/04/2026' }))).toEqual(['endDate']);
    expect(fieldsOf(await post({ dates: ['2026-04-06', '2026-04-31'] }))).toEqual(['dates.1']);
    expect(fieldsOf(await post({ dates: [] }))).toEqual(['dates']);
    expect(fieldsOf(await post({ dates: '2026-04-06' }))).toEqual(['dates']);
    const tooMany = Array.from({ length: PREPAYMENT_LIMITS.maxDates + 1 }, () => '2026-04-06');
    expect(fieldsOf(await post({ dates: tooMany }))).toEqual(['dates']);
    expect(fieldsOf(await post({ sellerId: '', endDate: '2026-04-30' }))).toEqual(['sellerId']);
    expect(upstreamCalls(gw.payoutsAndPrepaymentCalls)).toEqual([]);
  });

  it('GET /{id} answers the prepayment; POST /{id}/commit answers 200 with it committed', async () => {
    const gw = gateway();
    const got = await request(gw.app).get(`/v1/subacquirer/prepayment/${PREPAYMENT_ID}`).set(auth());
    expect(got.status).toBe(200);
    expect(got.body).toEqual(PREPAYMENT_JSON);
    const committed = await request(gw.app).post(`/v1/subacquirer/prepayment/${PREPAYMENT_ID}/commit`).set(auth());
    expect(committed.status).toBe(200);
    expect(committed.body).toEqual({ ...PREPAYMENT_JSON, status: 'committed', committedAt: UPDATED_AT.toISOString() });
    const [get, commit] = upstreamCalls(gw.payoutsAndPrepaymentCalls);
    expect(get).toMatchObject({ method: 'getPrepayment', request: { clientId: CLIENT_ID, id: PREPAYMENT_ID } });
    expect(commit).toMatchObject({ method: 'commitPrepayment', request: { clientId: CLIENT_ID, id: PREPAYMENT_ID } });
  });

  it('a commit the service refuses (expired simulation) is 422 with its businessCode', async () => {
    const gw = gateway({
      commitPrepayment: async () => {
        throw new AppError('business_rule', 'the simulation expired', { businessCode: 'prepayment_simulation_expired' });
      },
    });
    const res = await request(gw.app).post(`/v1/subacquirer/prepayment/${PREPAYMENT_ID}/commit`).set(auth());
    expect(res.status).toBe(422);
    expect(res.body).toEqual({
      error: { type: 'invalid_request_error', code: 422, message: 'the simulation expired', key: 'prepayment_simulation_expired', businessCode: 'prepayment_simulation_expired' },
    });
  });
});

describe('a client not enabled for prepayment', () => {
  const denied = async (): Promise<never> => {
    throw new AppError('forbidden', 'prepayment is not enabled for this client', { businessCode: 'I-403' });
  };

  it('gets 403 with the envelope and, at the top level, code I-403 and a readable networkDeniedMessage, on every prepayment route', async () => {
    const gw = gateway({ listPrepaymentReceivables: denied, simulatePrepayment: denied, getPrepayment: denied, commitPrepayment: denied });
    const answers = [
      await request(gw.app).get('/v1/subacquirer/prepayment/receivables').set(auth()),
      await request(gw.app).post('/v1/subacquirer/prepayment').set(auth()).send({ endDate: '2026-04-30' }),
      await request(gw.app).get(`/v1/subacquirer/prepayment/${PREPAYMENT_ID}`).set(auth()),
      await request(gw.app).post(`/v1/subacquirer/prepayment/${PREPAYMENT_ID}/commit`).set(auth()),
    ];
    for (const res of answers) {
      expect(res.status).toBe(403);
      expect(res.body).toEqual({
        error: { type: 'invalid_request_error', code: 403, message: 'prepayment is not enabled for this client', key: 'I-403', businessCode: 'I-403' },
        code: 'I-403',
        networkDeniedMessage: NETWORK_DENIED_MESSAGE,
      });
    }
    expect(NETWORK_DENIED_MESSAGE).toMatch(/^[A-Z].*prepayment.*\.$/);
  });

  it('is answered by the shared error layer, so any route whose service denies with I-403 answers the same', async () => {
    const gw = gateway({ getBalance: denied });
    const res = await request(gw.app).get('/v1/payouts/balance').set(auth());
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ code: 'I-403', networkDeniedMessage: NETWORK_DENIED_MESSAGE, error: { businessCode: 'I-403' } });
  });

  it('any other 403 keeps the plain envelope', async () => {
    const gw = gateway({
      getPrepayment: async () => {
        throw new AppError('forbidden', 'not allowed');
      },
    });
    const res = await request(gw.app).get(`/v1/subacquirer/prepayment/${PREPAYMENT_ID}`).set(auth());
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: { type: 'invalid_request_error', code: 403, message: 'not allowed' } });
    const scope = await request(gw.app).get('/v1/subacquirer/prepayment/receivables').set(auth('pk_payouts'));
    expect(Object.keys(scope.body)).toEqual(['error']);
  });
});

describe('scopes of the payouts service', () => {
  const routes: Array<{ scope: string; method: 'get' | 'post'; path: string; body?: object; ok?: number }> = [
    { scope: 'payouts', method: 'get', path: '/v1/payouts/balance' },
    { scope: 'payouts', method: 'get', path: '/v1/payouts/payment-batches' },
    { scope: 'payouts', method: 'get', path: `/v1/payouts/payment-batches/${BATCH_ID}` },
    { scope: 'payouts', method: 'get', path: `/v1/payouts/payment-batches/${BATCH_ID}/orders` },
    { scope: 'payouts', method: 'get', path: '/v1/payouts/orders' },
    { scope: 'payouts', method: 'get', path: `/v1/payouts/orders/${ORDER_ID}` },
    { scope: 'payouts', method: 'post', path: '/v1/payouts/sandbox/advance', body: { date: '2026-04-06' } },
    { scope: 'plans', method: 'get', path: '/v1/subacquirer/plans' },
    { scope: 'plans', method: 'post', path: '/v1/subacquirer/plans', body: { name: 'P' }, ok: 201 },
    { scope: 'plans', method: 'get', path: `/v1/subacquirer/plans/${PLAN_ID}` },
    { scope: 'prepayment', method: 'get', path: '/v1/subacquirer/prepayment/receivables' },
    { scope: 'prepayment', method: 'post', path: '/v1/subacquirer/prepayment', body: { endDate: '2026-04-30' }, ok: 201 },
    { scope: 'prepayment', method: 'get', path: `/v1/subacquirer/prepayment/${PREPAYMENT_ID}` },
    { scope: 'prepayment', method: 'post', path: `/v1/subacquirer/prepayment/${PREPAYMENT_ID}/commit` },
  ];

  it.each(Object.keys(SCOPED_KEYS))('a public key with only %s reaches its routes and no other', async (key) => {
    const gw = gateway();
    for (const route of routes) {
      const call = request(gw.app)[route.method](route.path).set(auth(key));
      const res = route.body ? await call.send(route.body) : await call;
      const reaches = SCOPED_KEYS[key]!.includes(route.scope);
      expect({ route: `${route.method} ${route.path}`, status: res.status }).toEqual({ route: `${route.method} ${route.path}`, status: reaches ? (route.ok ?? 200) : 403 });
      if (!reaches) expect(res.body.error).toMatchObject({ key: 'scope_not_allowed', message: `This key does not reach ${route.scope}` });
    }
    const patch = await request(gw.app).patch(`/v1/subacquirer/plans/${PLAN_ID}`).set(auth(key)).send({ name: 'P' });
    expect(patch.status).toBe(key === 'pk_plans' ? 200 : 403);
  });

  it('a public key with the payouts scope cannot reach plans: nothing is asked upstream', async () => {
    const gw = gateway();
    const res = await request(gw.app).get('/v1/subacquirer/plans').set(auth('pk_payouts'));
    expect(res.status).toBe(403);
    expect(upstreamCalls(gw.payoutsAndPrepaymentCalls)).toEqual([]);
  });
});

describe('the OpenAPI document of the payouts routes', () => {
  type Json = { [key: string]: Json } | Json[] | string | number | boolean | null;
  interface Operation {
    description?: string;
    'x-sandbox-only'?: boolean;
    responses: Record<string, unknown>;
    parameters?: Array<{ name: string }>;
  }

  async function openApi(): Promise<{ paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, Json> } }> {
    const res = await request(gateway().app).get('/v1/openapi.json');
    expect(res.status).toBe(200);
    return res.body;
  }

  it('documents the I-403 answer on every prepayment route, and its top-level fields in the error envelope', async () => {
    const doc = await openApi();
    const prepayment = Object.entries(doc.paths).filter(([path]) => path.startsWith('/v1/subacquirer/prepayment'));
    expect(prepayment.flatMap(([, ops]) => Object.keys(ops))).toHaveLength(4);
    for (const [, ops] of prepayment) {
      for (const op of Object.values(ops)) {
        expect(op.description).toContain('I-403');
        expect(op.description).toContain('networkDeniedMessage');
        expect(op.responses['403']).toBeDefined();
      }
    }
    const envelope = doc.components.schemas.Error as { properties: Record<string, { description?: string }>; required: string[] };
    expect(envelope.properties.code!.description).toContain('I-403');
    expect(envelope.properties.networkDeniedMessage).toBeDefined();
    expect(envelope.required).toEqual(['error']);
  });

  it('marks the settlement advance sandbox-only with its 404, and lists the filters of the batch list', async () => {
    const doc = await openApi();
    const advance = doc.paths['/v1/payouts/sandbox/advance']!.post!;
    expect(advance['x-sandbox-only']).toBe(true);
    expect(advance.responses['404']).toBeDefined();
    expect(doc.paths['/v1/payouts/payment-batches']!.get!.parameters!.map((p) => p.name)).toEqual(
      expect.arrayContaining(['page', 'limit', 'order', 'sort', 'sellerId', 'status', 'startDate', 'endDate']),
    );
    expect(doc.paths['/v1/payouts/orders']!.get!.parameters!.map((p) => p.name)).toEqual(expect.arrayContaining(['sellerId', 'startDate', 'endDate', 'chargeId']));
  });

  it('advertises exactly the plan limits of @platform/api-model, which the service enforces too', async () => {
    const doc = await openApi();
    const schemas = doc.components.schemas as Record<string, { properties: Record<string, Record<string, Json>> }>;
    const create = schemas.CreatePlanRequest!.properties;
    const fee = schemas.PlanFeeInput!.properties;
    const days = schemas.SettlementDaysInput!.properties;
    const update = schemas.UpdatePlanRequest!.properties;
    const simulate = schemas.SimulatePrepaymentRequest!.properties;
    expect({
      nameMinLength: [create.name!.minLength, update.name!.minLength],
      nameMaxLength: [create.name!.maxLength, update.name!.maxLength],
      maxFees: [create.fees!.maxItems, update.fees!.maxItems],
      installmentsMin: [fee.installmentsFrom!.minimum, fee.installmentsTo!.minimum],
      installmentsMax: [fee.installmentsFrom!.maximum, fee.installmentsTo!.maximum],
      percentageMax: [fee.percentage!.maximum],
      fixedAmountMax: [fee.fixedAmount!.maximum],
      settlementDaysMax: (['credit', 'debit', 'pix', 'boleto', 'voucher'] as const).map((m) => days[m]!.maximum),
      prepaymentMonthlyRateMax: [create.prepaymentMonthlyRate!.maximum, update.prepaymentMonthlyRate!.maximum],
      maxDates: [simulate.dates!.maxItems],
    }).toEqual({
      nameMinLength: [PLAN_LIMITS.nameMinLength, PLAN_LIMITS.nameMinLength],
      nameMaxLength: [PLAN_LIMITS.nameMaxLength, PLAN_LIMITS.nameMaxLength],
      maxFees: [PLAN_LIMITS.maxFees, PLAN_LIMITS.maxFees],
      installmentsMin: [PLAN_LIMITS.installmentsMin, PLAN_LIMITS.installmentsMin],
      installmentsMax: [PLAN_LIMITS.installmentsMax, PLAN_LIMITS.installmentsMax],
      percentageMax: [PLAN_LIMITS.percentageMax],
      fixedAmountMax: [PLAN_LIMITS.fixedAmountMax],
      settlementDaysMax: Array(5).fill(PLAN_LIMITS.settlementDaysMax),
      prepaymentMonthlyRateMax: [PLAN_LIMITS.prepaymentMonthlyRateMax, PLAN_LIMITS.prepaymentMonthlyRateMax],
      maxDates: [PREPAYMENT_LIMITS.maxDates],
    });
    expect((fee.paymentType!.enum as string[]).sort()).toEqual(['boleto', 'credit', 'debit', 'pix', 'voucher']);
  });
});
