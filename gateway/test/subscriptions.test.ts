import { SUBSCRIPTION_EVENT_TYPES, SUBSCRIPTION_LIMITS as L } from '@platform/api-model';
import type { payments, settings } from '@platform/contracts';
import { AppError } from '@platform/kit';
import request from 'supertest';
import { auth, buildGateway, CLIENT_ID, CREATED_AT, fakeAuthenticate, LIVE_KEY, UPDATED_AT, upstreamCalls, type RecordedCall } from './helpers';

const SUBSCRIPTION_ID = '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d';
const CYCLE_ID = '8b7c6d5e-4f3a-4b2c-9d1e-0f9a8b7c6d5e';
const MERCHANT_ID = 'b7e4c0a2-5d3f-4b8e-9f21-6a1c0d2e3f45';
const CUSTOMER_ID = '0d6c9a53-0b3e-4d36-9a39-0f2a8c5b3e11';
const CARD_ID = 'c4a1d2e3-f4a5-4b6c-8d7e-9f0a1b2c3d4e';
const SELLER_ID = '3c4d5e6f-7a8b-4c9d-8e1f-2a3b4c5d6e7f';
const CHARGE_ID = '4d5e6f7a-8b9c-4d0e-9f2a-3b4c5d6e7f80';
const START_AT = new Date('2026-06-01T12:00:00.000Z');
const TRIAL_END_AT = new Date('2026-06-15T12:00:00.000Z');
const NEXT_BILLING_AT = new Date('2026-07-15T12:00:00.000Z');

/** Public keys limited to one resource each. */
const SCOPED_KEYS: Record<string, string[]> = { pk_subscriptions: ['subscriptions'], pk_customers: ['customers'] };

async function authenticate(request: settings.AuthenticateRequest): Promise<settings.AuthenticateResponse> {
  const scopes = SCOPED_KEYS[request.apiKey];
  if (!scopes) return fakeAuthenticate(request);
  const answer = await fakeAuthenticate({ ...request, apiKey: 'pk_all' });
  return { ...answer, scopes, keyId: `key-${request.apiKey}` };
}

function sampleSubscription(overrides: Partial<payments.Subscription> = {}): payments.Subscription {
  return {
    id: SUBSCRIPTION_ID,
    clientId: CLIENT_ID,
    merchantId: MERCHANT_ID,
    customerId: CUSTOMER_ID,
    name: 'Coffee club',
    items: [
      { name: 'Beans', amount: 2_990, quantity: 2 },
      { name: 'Mug', amount: 0, quantity: 1 },
    ],
    amount: 5_980,
    currency: 'BRL',
    recurrence: { interval: 'monthly', cycles: 12, startAt: START_AT },
    paymentMethod: { type: 'credit', cardId: CARD_ID, installments: 1 },
    trialEndAt: TRIAL_END_AT,
    splitRules: [{ sellerId: SELLER_ID, percentage: 1_000, amount: undefined, processingFee: true, chargeRemainderFee: false, liable: true }],
    status: 'trialing',
    cyclesBilled: 0,
    nextBillingAt: NEXT_BILLING_AT,
    createdAt: CREATED_AT,
    updatedAt: UPDATED_AT,
    canceledAt: undefined,
    pausedAt: undefined,
    ...overrides,
  };
}

function sampleCycle(overrides: Partial<payments.SubscriptionCycle> = {}): payments.SubscriptionCycle {
  return {
    id: CYCLE_ID,
    clientId: CLIENT_ID,
    subscriptionId: SUBSCRIPTION_ID,
    number: 1,
    status: 'retrying',
    amount: 5_980,
    dueAt: TRIAL_END_AT,
    nextAttemptAt: NEXT_BILLING_AT,
    attempts: [
      { attempt: 1, chargeId: CHARGE_ID, status: 'failed', declinedCode: 'insufficient_funds', attemptedAt: TRIAL_END_AT },
      { attempt: 2, chargeId: '', status: 'failed', declinedCode: '', attemptedAt: UPDATED_AT },
    ],
    retryDays: [1, 3, 5],
    cancelAfterAllRetries: true,
    createdAt: CREATED_AT,
    updatedAt: UPDATED_AT,
    ...overrides,
  };
}

const SUBSCRIPTION_JSON = {
  id: SUBSCRIPTION_ID,
  clientId: CLIENT_ID,
  merchantId: MERCHANT_ID,
  customerId: CUSTOMER_ID,
  name: 'Coffee club',
  items: [
    { name: 'Beans', amount: 2_990, quantity: 2 },
    { name: 'Mug', amount: 0, quantity: 1 },
  ],
  amount: 5_980,
  currency: 'BRL',
  recurrence: { interval: 'monthly', cycles: 12, startAt: START_AT.toISOString() },
  paymentMethod: { type: 'credit', card: { cardId: CARD_ID }, installments: 1 },
  trial: { endAt: TRIAL_END_AT.toISOString() },
  splitRules: [{ sellerId: SELLER_ID, percentage: 1_000, amount: null, processingFee: true, chargeRemainderFee: false, liable: true }],
  status: 'trialing',
  cyclesBilled: 0,
  nextBillingAt: NEXT_BILLING_AT.toISOString(),
  createdAt: CREATED_AT.toISOString(),
  updatedAt: UPDATED_AT.toISOString(),
  canceledAt: null,
  pausedAt: null,
};

const CYCLE_JSON = {
  id: CYCLE_ID,
  subscriptionId: SUBSCRIPTION_ID,
  number: 1,
  status: 'retrying',
  amount: 5_980,
  dueAt: TRIAL_END_AT.toISOString(),
  nextAttemptAt: NEXT_BILLING_AT.toISOString(),
  attempts: [
    { attempt: 1, chargeId: CHARGE_ID, status: 'failed', declinedCode: 'insufficient_funds', attemptedAt: TRIAL_END_AT.toISOString() },
    { attempt: 2, chargeId: null, status: 'failed', declinedCode: null, attemptedAt: UPDATED_AT.toISOString() },
  ],
  retryPolicy: { retryDays: [1, 3, 5], cancelAfterAllRetries: true },
  createdAt: CREATED_AT.toISOString(),
  updatedAt: UPDATED_AT.toISOString(),
};

const META = { itemCount: 1, totalItems: 1, itemsPerPage: 10, totalPages: 1, currentPage: 1 };

const paymentsFake = () => ({
  createSubscription: async () => sampleSubscription(),
  listSubscriptions: async () => ({ items: [sampleSubscription()], meta: META }),
  getSubscription: async () => sampleSubscription(),
  replaceSubscription: async () => sampleSubscription(),
  cancelSubscription: async () => sampleSubscription({ status: 'canceled', canceledAt: UPDATED_AT, nextBillingAt: undefined }),
  pauseSubscription: async () => sampleSubscription({ status: 'paused', pausedAt: UPDATED_AT, nextBillingAt: undefined }),
  resumeSubscription: async () => sampleSubscription({ status: 'active' }),
  listSubscriptionCycles: async () => ({ items: [sampleCycle()], meta: META }),
  getSubscriptionCycle: async () => sampleCycle(),
  advanceSubscription: async () => sampleSubscription({ status: 'active', cyclesBilled: 2 }),
});

const STORED_SETTINGS: settings.SubscriptionSettings = {
  clientId: CLIENT_ID,
  retryPolicy: [{ daysAfterLastAttempt: 2 }],
  cancelAfterAllRetries: false,
  statementDescriptor: 'STORE*SUB',
  createdAt: CREATED_AT,
  updatedAt: UPDATED_AT,
};

function gateway(overrides: Partial<ReturnType<typeof paymentsFake>> = {}) {
  return buildGateway({
    settings: { authenticate, getSubscriptionSettings: async () => STORED_SETTINGS, updateSubscriptionSettings: async () => STORED_SETTINGS },
    payments: { ...paymentsFake(), ...overrides },
  });
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

const fullBody = {
  name: 'Coffee club',
  merchantId: MERCHANT_ID,
  customerId: CUSTOMER_ID,
  items: [
    { name: 'Beans', amount: 2_990, quantity: 2 },
    { name: 'Mug', amount: 0, quantity: 1 },
  ],
  recurrence: { interval: 'monthly', cycles: 12, startAt: '2026-06-01T09:00:00-03:00' },
  paymentMethod: { type: 'credit', card: { cardId: CARD_ID }, installments: 3 },
  trial: { endAt: '2026-06-15T12:00:00.000Z' },
  splitRules: [{ sellerId: SELLER_ID, percentage: 1_000, liable: true }],
  currency: 'USD',
};

const minimalBody = {
  name: 'Coffee club',
  merchantId: MERCHANT_ID,
  customerId: CUSTOMER_ID,
  items: [{ name: 'Beans', amount: 2_990, quantity: 1 }],
  recurrence: { interval: 'weekly' },
  paymentMethod: { type: 'credit', card: { cardId: CARD_ID } },
};

describe('POST /v1/subscriptions', () => {
  it('maps the whole body to CreateSubscription and answers 201 with the subscription', async () => {
    const gw = gateway();
    const res = await request(gw.app).post('/v1/subscriptions').set(auth()).send({ ...fullBody, clientId: 'someone-else', status: 'active' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual(SUBSCRIPTION_JSON);
    const call = onlyCall(gw.paymentsCalls);
    expect(call.method).toBe('createSubscription');
    expect(call.request).toEqual({
      clientId: CLIENT_ID,
      merchantId: MERCHANT_ID,
      customerId: CUSTOMER_ID,
      name: 'Coffee club',
      items: [
        { name: 'Beans', amount: 2_990, quantity: 2 },
        { name: 'Mug', amount: 0, quantity: 1 },
      ],
      recurrence: { interval: 'monthly', cycles: 12, startAt: START_AT },
      paymentMethod: { type: 'credit', cardId: CARD_ID, installments: 3 },
      trialEndAt: TRIAL_END_AT,
      splitRules: [{ sellerId: SELLER_ID, percentage: 1_000, amount: undefined, processingFee: false, chargeRemainderFee: false, liable: true }],
      currency: 'USD',
    });
  });

  it('leaves out what is not given: no end, start now, no trial, no split; one installment, BRL', async () => {
    const gw = gateway();
    expect((await request(gw.app).post('/v1/subscriptions').set(auth()).send(minimalBody)).status).toBe(201);
    expect(onlyCall(gw.paymentsCalls).request).toEqual({
      clientId: CLIENT_ID,
      merchantId: MERCHANT_ID,
      customerId: CUSTOMER_ID,
      name: 'Coffee club',
      items: [{ name: 'Beans', amount: 2_990, quantity: 1 }],
      recurrence: { interval: 'weekly', cycles: undefined, startAt: undefined },
      paymentMethod: { type: 'credit', cardId: CARD_ID, installments: 1 },
      trialEndAt: undefined,
      splitRules: [],
      currency: 'BRL',
    });
  });

  it('reads null optional fields as absent', async () => {
    const gw = gateway();
    const res = await request(gw.app)
      .post('/v1/subscriptions')
      .set(auth())
      .send({ ...minimalBody, trial: null, splitRules: null, recurrence: { interval: 'daily', cycles: null, startAt: null } });
    expect(res.status).toBe(201);
    expect(onlyCall(gw.paymentsCalls).request).toMatchObject({ trialEndAt: undefined, splitRules: [], recurrence: { interval: 'daily', cycles: undefined, startAt: undefined } });
  });

  it('names every missing field in one 400 and asks nothing upstream', async () => {
    const gw = gateway();
    expect(fieldsOf(await request(gw.app).post('/v1/subscriptions').set(auth()).send({}))).toEqual(
      ['customerId', 'items', 'merchantId', 'name', 'paymentMethod', 'recurrence'].sort(),
    );
    const nested = await request(gw.app)
      .post('/v1/subscriptions')
      .set(auth())
      .send({ ...minimalBody, items: [{}], recurrence: {}, paymentMethod: { card: {} }, trial: {} });
    expect(fieldsOf(nested)).toEqual(
      ['items.0.amount', 'items.0.name', 'items.0.quantity', 'paymentMethod.card.cardId', 'paymentMethod.type', 'recurrence.interval', 'trial.endAt'].sort(),
    );
    expect(nested.body.error.details).toContainEqual({ field: 'recurrence.interval', message: 'is required' });
    expect(upstreamCalls(gw.paymentsCalls)).toEqual([]);
  });

  it('names each field past its limit, with its message, and asks nothing upstream', async () => {
    const gw = gateway();
    const res = await request(gw.app)
      .post('/v1/subscriptions')
      .set(auth())
      .send({
        name: 'x'.repeat(L.nameMaxLength + 1),
        merchantId: '',
        customerId: 42,
        items: [
          { name: '', amount: -1, quantity: 0 },
          { name: 'y'.repeat(L.itemNameMaxLength + 1), amount: L.itemAmountMax + 1, quantity: L.itemQuantityMax + 1 },
          { name: 'Half', amount: 1.5, quantity: 1.5 },
        ],
        recurrence: { interval: 'hourly', cycles: L.cyclesMax + 1, startAt: '2026-06-01 12:00' },
        paymentMethod: { type: 'debit', card: { cardId: '' }, installments: L.maxInstallments + 1 },
        trial: { endAt: 'tomorrow' },
        splitRules: [{ sellerId: SELLER_ID, percentage: 500, amount: 100 }],
        currency: 'REAL',
      });
    expect(fieldsOf(res)).toEqual(
      [
        'name',
        'merchantId',
        'customerId',
        'items.0.name',
        'items.0.amount',
        'items.0.quantity',
        'items.1.name',
        'items.1.amount',
        'items.1.quantity',
        'items.2.amount',
        'items.2.quantity',
        'recurrence.interval',
        'recurrence.cycles',
        'recurrence.startAt',
        'paymentMethod.type',
        'paymentMethod.card.cardId',
        'paymentMethod.installments',
        'trial.endAt',
        'splitRules.0',
        'currency',
      ].sort(),
    );
    const details = res.body.error.details as Array<{ field: string; message: string }>;
    expect(details).toEqual(
      expect.arrayContaining([
        { field: 'recurrence.interval', message: 'must be one of daily, weekly, monthly, quarterly, yearly' },
        { field: 'paymentMethod.type', message: 'must be one of credit' },
        { field: 'items.1.amount', message: `must be at most ${L.itemAmountMax}` },
        { field: 'items.1.quantity', message: `must be at most ${L.itemQuantityMax}` },
        { field: 'recurrence.cycles', message: `must be at most ${L.cyclesMax}` },
        { field: 'paymentMethod.installments', message: `must be at most ${L.maxInstallments}` },
        { field: 'trial.endAt', message: 'must be an RFC 3339 date-time' },
      ]),
    );
    const low = await request(gw.app)
      .post('/v1/subscriptions')
      .set(auth())
      .send({ ...minimalBody, recurrence: { interval: 'yearly', cycles: 0 }, paymentMethod: { type: 'credit', card: { cardId: CARD_ID }, installments: 0 } });
    expect(fieldsOf(low)).toEqual(['paymentMethod.installments', 'recurrence.cycles']);
    expect(upstreamCalls(gw.paymentsCalls)).toEqual([]);
  });

  it('refuses no items, too many items, too many split rules, and wrong types for the objects', async () => {
    const gw = gateway();
    const post = (body: object) => request(gw.app).post('/v1/subscriptions').set(auth()).send({ ...minimalBody, ...body });
    expect((await post({ items: [] })).body.error.details).toEqual([{ field: 'items', message: 'must have at least 1 item' }]);
    const many = Array.from({ length: L.maxItems + 1 }, () => ({ name: 'Beans', amount: 1, quantity: 1 }));
    expect((await post({ items: many })).body.error.details).toEqual([{ field: 'items', message: `must list at most ${L.maxItems} items` }]);
    const rules = Array.from({ length: L.maxSplitRules + 1 }, () => ({ sellerId: SELLER_ID, amount: 1 }));
    expect(fieldsOf(await post({ splitRules: rules }))).toEqual(['splitRules']);
    expect(fieldsOf(await post({ items: 'beans', recurrence: 'monthly', paymentMethod: [], trial: '2026-06-15' }))).toEqual(['items', 'paymentMethod', 'recurrence', 'trial']);
    expect(upstreamCalls(gw.paymentsCalls)).toEqual([]);
  });

  it("refuses items whose total is not an amount a charge can take (free, or past the largest amount)", async () => {
    const gw = gateway();
    const post = (items: object[]) => request(gw.app).post('/v1/subscriptions').set(auth()).send({ ...minimalBody, items });
    expect((await post([{ name: 'Free', amount: 0, quantity: 3 }])).body.error.details).toEqual([{ field: 'items', message: 'must add up to at least 1 minor unit' }]);
    const costly = [
      { name: 'Gold', amount: L.itemAmountMax, quantity: 1 },
      { name: 'Pin', amount: 1, quantity: 1 },
    ];
    expect((await post(costly)).body.error.details).toEqual([{ field: 'items', message: `must add up to at most ${L.amountMax} minor units` }]);
    const many = Array.from({ length: L.maxItems }, () => ({ name: 'Gold', amount: L.itemAmountMax, quantity: L.itemQuantityMax }));
    expect((await post(many)).body.error.details).toEqual([{ field: 'items', message: `must add up to at most ${L.amountMax} minor units` }]);
    // A bad item is named alone, not again as a bad total.
    expect((await post([{ name: 'Free', amount: -5, quantity: 1 }])).body.error.details).toEqual([{ field: 'items.0.amount', message: 'must be at least 0' }]);
    expect(upstreamCalls(gw.paymentsCalls)).toEqual([]);
  });

  it('accepts every limit at its edge', async () => {
    const gw = gateway();
    const res = await request(gw.app)
      .post('/v1/subscriptions')
      .set(auth())
      .send({
        ...minimalBody,
        name: 'n'.repeat(L.nameMaxLength),
        items: [
          { name: 'i'.repeat(L.itemNameMaxLength), amount: L.itemAmountMax - L.itemQuantityMax, quantity: L.itemQuantityMin },
          { name: 'Many', amount: 1, quantity: L.itemQuantityMax },
          ...Array.from({ length: L.maxItems - 2 }, () => ({ name: 'x', amount: L.itemAmountMin, quantity: L.itemQuantityMin })),
        ],
        recurrence: { interval: 'quarterly', cycles: L.cyclesMax },
        paymentMethod: { type: 'credit', card: { cardId: CARD_ID }, installments: L.maxInstallments },
        splitRules: Array.from({ length: L.maxSplitRules }, () => ({ sellerId: SELLER_ID, amount: 1 })),
      });
    expect({ status: res.status, details: res.body.error?.details }).toEqual({ status: 201, details: undefined });
    const sent = onlyCall(gw.paymentsCalls).request as unknown as payments.CreateSubscriptionRequest;
    expect(sent.items).toHaveLength(L.maxItems);
    expect(sent.items.slice(0, 2)).toEqual([
      { name: 'i'.repeat(L.itemNameMaxLength), amount: L.itemAmountMax - L.itemQuantityMax, quantity: L.itemQuantityMin },
      { name: 'Many', amount: 1, quantity: L.itemQuantityMax },
    ]);
    expect(sent.recurrence).toEqual({ interval: 'quarterly', cycles: L.cyclesMax, startAt: undefined });
    const once = await request(gw.app)
      .post('/v1/subscriptions')
      .set(auth())
      .send({ ...minimalBody, recurrence: { interval: 'monthly', cycles: L.cyclesMin }, paymentMethod: { type: 'credit', card: { cardId: CARD_ID }, installments: L.minInstallments } });
    expect(once.status).toBe(201);
  });

  it('answers the 404 and 422 the service gives', async () => {
    const missing = gateway({
      createSubscription: async () => {
        throw new AppError('not_found', 'card not found', { key: 'not_found' });
      },
    });
    const notFound = await request(missing.app).post('/v1/subscriptions').set(auth()).send(minimalBody);
    expect(notFound.status).toBe(404);
    expect(notFound.body.error).toMatchObject({ code: 404, key: 'not_found' });
    const refused = gateway({
      createSubscription: async () => {
        throw new AppError('business_rule', 'the card is not the customer\u2019s', { businessCode: 'card_not_of_customer' });
      },
    });
    const rule = await request(refused.app).post('/v1/subscriptions').set(auth()).send(minimalBody);
    expect(rule.status).toBe(422);
    expect(rule.body.error).toMatchObject({ code: 422, businessCode: 'card_not_of_customer' });
  });
});

describe('GET /v1/subscriptions', () => {
  it('maps page, limit, direction, statuses (comma-joined) and customer, and answers {items, meta}', async () => {
    const gw = gateway();
    const res = await request(gw.app)
      .get('/v1/subscriptions')
      .query({ page: '2', limit: '25', sort: 'asc', status: 'active,unpaid,active', customerId: CUSTOMER_ID })
      .set(auth());
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ items: [SUBSCRIPTION_JSON], meta: META });
    expect(onlyCall(gw.paymentsCalls)).toMatchObject({ method: 'listSubscriptions' });
    expect(onlyCall(gw.paymentsCalls).request).toEqual({
      clientId: CLIENT_ID,
      page: { page: 2, limit: 25, sort: 'ASC' },
      status: ['active', 'unpaid'],
      customerId: CUSTOMER_ID,
    });
  });

  it('defaults to the first page of 10, newest first, every status and customer', async () => {
    const gw = gateway();
    await request(gw.app).get('/v1/subscriptions').set(auth());
    expect(onlyCall(gw.paymentsCalls).request).toEqual({ clientId: CLIENT_ID, page: { page: 1, limit: 10, sort: 'DESC' }, status: [], customerId: undefined });
  });

  it('names each bad filter in a 400', async () => {
    const gw = gateway();
    const res = await request(gw.app).get('/v1/subscriptions').query({ page: '0', limit: '101', status: 'active,gone', customerId: '' }).set(auth());
    expect(fieldsOf(res)).toEqual(['customerId', 'limit', 'page', 'status']);
    expect(res.body.error.details).toContainEqual({
      field: 'status',
      message: 'must be one or more of created, trialing, active, paused, unpaid, canceled, expired, comma-joined',
    });
    expect(upstreamCalls(gw.paymentsCalls)).toEqual([]);
  });
});

describe('/v1/subscriptions/{id}', () => {
  it('GET answers the subscription; unset values are null', async () => {
    const gw = gateway({
      getSubscription: async () =>
        sampleSubscription({
          recurrence: { interval: 'monthly', cycles: undefined, startAt: START_AT },
          trialEndAt: undefined,
          splitRules: [],
          status: 'expired',
          nextBillingAt: undefined,
        }),
    });
    const res = await request(gw.app).get(`/v1/subscriptions/${SUBSCRIPTION_ID}`).set(auth());
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      ...SUBSCRIPTION_JSON,
      recurrence: { interval: 'monthly', cycles: null, startAt: START_AT.toISOString() },
      trial: null,
      splitRules: [],
      status: 'expired',
      nextBillingAt: null,
    });
    expect(onlyCall(gw.paymentsCalls)).toMatchObject({ method: 'getSubscription', request: { clientId: CLIENT_ID, id: SUBSCRIPTION_ID } });
  });

  it('GET of an unknown (or foreign) id is the 404 the service answers', async () => {
    const gw = gateway({
      getSubscription: async () => {
        throw new AppError('not_found', 'subscription x not found', { key: 'not_found' });
      },
    });
    const res = await request(gw.app).get('/v1/subscriptions/x').set(auth());
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: { type: 'invalid_request_error', code: 404, message: 'subscription x not found', key: 'not_found' } });
  });

  it('a subscription the service answers without its recurrence or card is an internal error, never half a subscription', async () => {
    for (const broken of [{ recurrence: undefined }, { paymentMethod: undefined }, { recurrence: { interval: 'monthly', startAt: undefined } }]) {
      const gw = gateway({ getSubscription: async () => sampleSubscription(broken) });
      const res = await request(gw.app).get(`/v1/subscriptions/${SUBSCRIPTION_ID}`).set(auth());
      expect(res.status).toBe(500);
      expect(res.body.error).toMatchObject({ type: 'api_error', code: 500 });
    }
  });

  it('PUT replaces the items and the card (the name only when given) and answers 200', async () => {
    const gw = gateway();
    const replaced = await request(gw.app)
      .put(`/v1/subscriptions/${SUBSCRIPTION_ID}`)
      .set(auth())
      .send({ name: 'Tea club', items: [{ name: 'Leaves', amount: 1_500, quantity: 4 }], paymentMethod: { type: 'credit', card: { cardId: CARD_ID }, installments: 2 } });
    expect(replaced.status).toBe(200);
    expect(replaced.body).toEqual(SUBSCRIPTION_JSON);
    await request(gw.app)
      .put(`/v1/subscriptions/${SUBSCRIPTION_ID}`)
      .set(auth())
      .send({ items: [{ name: 'Leaves', amount: 1_500, quantity: 1 }], paymentMethod: { type: 'credit', card: { cardId: 'card-2' } } });
    const [first, second] = upstreamCalls(gw.paymentsCalls);
    expect(first).toMatchObject({ method: 'replaceSubscription' });
    expect(first!.request).toEqual({
      clientId: CLIENT_ID,
      id: SUBSCRIPTION_ID,
      name: 'Tea club',
      items: [{ name: 'Leaves', amount: 1_500, quantity: 4 }],
      paymentMethod: { type: 'credit', cardId: CARD_ID, installments: 2 },
    });
    expect(second!.request).toEqual({
      clientId: CLIENT_ID,
      id: SUBSCRIPTION_ID,
      name: undefined,
      items: [{ name: 'Leaves', amount: 1_500, quantity: 1 }],
      paymentMethod: { type: 'credit', cardId: 'card-2', installments: 1 },
    });
  });

  it('PUT needs the items and the card, within the limits of create', async () => {
    const gw = gateway();
    const put = (body: object) => request(gw.app).put(`/v1/subscriptions/${SUBSCRIPTION_ID}`).set(auth()).send(body);
    expect(fieldsOf(await put({}))).toEqual(['items', 'paymentMethod']);
    expect(fieldsOf(await put({ name: '', items: [{ name: 'x', amount: 1, quantity: L.itemQuantityMax + 1 }], paymentMethod: { type: 'credit', card: {}, installments: 13 } }))).toEqual([
      'items.0.quantity',
      'name',
      'paymentMethod.card.cardId',
      'paymentMethod.installments',
    ]);
    expect(upstreamCalls(gw.paymentsCalls)).toEqual([]);
  });
});

describe('cancel, pause and resume', () => {
  const changes = [
    ['cancel', 'cancelSubscription', { status: 'canceled', canceledAt: UPDATED_AT.toISOString(), nextBillingAt: null }],
    ['pause', 'pauseSubscription', { status: 'paused', pausedAt: UPDATED_AT.toISOString(), nextBillingAt: null }],
    ['resume', 'resumeSubscription', { status: 'active' }],
  ] as const;

  it.each(changes)('%s answers 200 with the subscription, by PATCH and by POST', async (action, method, changed) => {
    const gw = gateway();
    for (const verb of ['patch', 'post'] as const) {
      const res = await request(gw.app)[verb](`/v1/subscriptions/${SUBSCRIPTION_ID}/${action}`).set(auth());
      expect({ verb, status: res.status }).toEqual({ verb, status: 200 });
      expect(res.body).toEqual({ ...SUBSCRIPTION_JSON, ...changed });
    }
    const calls = upstreamCalls(gw.paymentsCalls);
    expect(calls.map((c) => c.method)).toEqual([method, method]);
    for (const call of calls) expect(call.request).toEqual({ clientId: CLIENT_ID, id: SUBSCRIPTION_ID });
  });

  it('a change the service refuses is its 422; GET and PUT on the action are not routes (405)', async () => {
    const gw = gateway({
      resumeSubscription: async () => {
        throw new AppError('business_rule', 'the subscription is not paused', { businessCode: 'subscription_not_paused' });
      },
    });
    const res = await request(gw.app).patch(`/v1/subscriptions/${SUBSCRIPTION_ID}/resume`).set(auth());
    expect(res.status).toBe(422);
    expect(res.body.error).toMatchObject({ code: 422, businessCode: 'subscription_not_paused' });
    const wrong = await request(gw.app).get(`/v1/subscriptions/${SUBSCRIPTION_ID}/cancel`).set(auth());
    expect(wrong.status).toBe(405);
    expect(wrong.headers.allow).toBe('PATCH, POST');
  });

  it('POST keeps the idempotency key of the request for the service', async () => {
    const gw = gateway();
    await request(gw.app).post(`/v1/subscriptions/${SUBSCRIPTION_ID}/cancel`).set(auth()).set('X-Idempotency-Key', 'cancel-1');
    expect(onlyCall(gw.paymentsCalls).meta).toMatchObject({ idempotencyKey: 'cancel-1' });
  });
});

describe('/v1/subscriptions/{id}/cycles', () => {
  it('GET lists the cycles of the subscription, paged, with their attempts and retry policy', async () => {
    const gw = gateway();
    const res = await request(gw.app).get(`/v1/subscriptions/${SUBSCRIPTION_ID}/cycles?page=3&limit=20`).set(auth());
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ items: [CYCLE_JSON], meta: META });
    expect(onlyCall(gw.paymentsCalls)).toMatchObject({ method: 'listSubscriptionCycles' });
    expect(onlyCall(gw.paymentsCalls).request).toEqual({ clientId: CLIENT_ID, subscriptionId: SUBSCRIPTION_ID, page: { page: 3, limit: 20, sort: 'DESC' } });
    expect(fieldsOf(await request(gw.app).get(`/v1/subscriptions/${SUBSCRIPTION_ID}/cycles?page=0&limit=abc`).set(auth()))).toEqual(['limit', 'page']);
  });

  it('GET /{cycleId} answers one cycle; a scheduled one has no attempt, no policy yet and null nextAttemptAt when none is left', async () => {
    const gw = gateway({
      getSubscriptionCycle: async () => sampleCycle({ status: 'scheduled', attempts: [], retryDays: [], cancelAfterAllRetries: false, nextAttemptAt: undefined }),
    });
    const res = await request(gw.app).get(`/v1/subscriptions/${SUBSCRIPTION_ID}/cycles/${CYCLE_ID}`).set(auth());
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...CYCLE_JSON, status: 'scheduled', attempts: [], retryPolicy: { retryDays: [], cancelAfterAllRetries: false }, nextAttemptAt: null });
    expect(onlyCall(gw.paymentsCalls)).toMatchObject({
      method: 'getSubscriptionCycle',
      request: { clientId: CLIENT_ID, subscriptionId: SUBSCRIPTION_ID, id: CYCLE_ID },
    });
  });

  it('GET /{cycleId} of a cycle the service does not find (or of another subscription) is its 404', async () => {
    const gw = gateway({
      getSubscriptionCycle: async () => {
        throw new AppError('not_found', 'cycle not found', { key: 'not_found' });
      },
    });
    const res = await request(gw.app).get(`/v1/subscriptions/${SUBSCRIPTION_ID}/cycles/nope`).set(auth());
    expect(res.status).toBe(404);
    expect(res.body.error).toMatchObject({ code: 404, key: 'not_found' });
  });
});

describe('POST /v1/subscriptions/{id}/sandbox/advance', () => {
  it('runs the subscription up to `to` and answers 200 with it', async () => {
    const gw = gateway();
    const res = await request(gw.app).post(`/v1/subscriptions/${SUBSCRIPTION_ID}/sandbox/advance`).set(auth()).send({ to: '2026-09-01T00:00:00-03:00' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...SUBSCRIPTION_JSON, status: 'active', cyclesBilled: 2 });
    expect(onlyCall(gw.paymentsCalls)).toMatchObject({ method: 'advanceSubscription' });
    expect(onlyCall(gw.paymentsCalls).request).toEqual({ clientId: CLIENT_ID, id: SUBSCRIPTION_ID, to: new Date('2026-09-01T03:00:00.000Z') });
  });

  it('needs `to` as an RFC 3339 date-time', async () => {
    const gw = gateway();
    for (const body of [{}, { to: '2026-09-01' }, { to: 'next month' }, { to: 1_788_000_000_000 }]) {
      expect(fieldsOf(await request(gw.app).post(`/v1/subscriptions/${SUBSCRIPTION_ID}/sandbox/advance`).set(auth()).send(body))).toEqual(['to']);
    }
    expect(upstreamCalls(gw.paymentsCalls)).toEqual([]);
  });

  it('does not exist for a live client: 404 route_not_found, nothing asked', async () => {
    const gw = gateway();
    const res = await request(gw.app).post(`/v1/subscriptions/${SUBSCRIPTION_ID}/sandbox/advance`).set(auth(LIVE_KEY)).send({ to: '2026-09-01T00:00:00Z' });
    expect(res.status).toBe(404);
    expect(res.body.error).toMatchObject({ code: 404, key: 'route_not_found' });
    expect(upstreamCalls(gw.paymentsCalls)).toEqual([]);
  });
});

describe('/v1/subscriptions/settings beside /v1/subscriptions/{id}', () => {
  it('GET and PATCH settings still reach the settings service, never a subscription called "settings"', async () => {
    const gw = gateway();
    const got = await request(gw.app).get('/v1/subscriptions/settings').set(auth());
    expect(got.status).toBe(200);
    expect(got.body).toMatchObject({ clientId: CLIENT_ID, retryPolicy: [{ daysAfterLastAttempt: 2 }], statementDescriptor: 'STORE*SUB' });
    const patched = await request(gw.app).patch('/v1/subscriptions/settings').set(auth()).send({ cancelAfterAllRetries: true });
    expect(patched.status).toBe(200);
    expect(upstreamCalls(gw.settingsCalls).map((c) => c.method)).toEqual(['getSubscriptionSettings', 'updateSubscriptionSettings']);
    expect(upstreamCalls(gw.paymentsCalls)).toEqual([]);
  });
});

describe('access to /v1/subscriptions', () => {
  it('a public key with the subscriptions scope reaches the routes; one without it gets 403', async () => {
    const gw = gateway();
    expect((await request(gw.app).get('/v1/subscriptions').set(auth('pk_subscriptions'))).status).toBe(200);
    expect((await request(gw.app).post(`/v1/subscriptions/${SUBSCRIPTION_ID}/pause`).set(auth('pk_subscriptions'))).status).toBe(200);
    for (const [method, path] of [
      ['get', '/v1/subscriptions'],
      ['post', '/v1/subscriptions'],
      ['get', `/v1/subscriptions/${SUBSCRIPTION_ID}/cycles`],
      ['patch', `/v1/subscriptions/${SUBSCRIPTION_ID}/cancel`],
    ] as const) {
      const res = await request(gw.app)[method](path).set(auth('pk_customers')).send(minimalBody);
      expect({ method, path, status: res.status, key: res.body.error?.key }).toEqual({ method, path, status: 403, key: 'scope_not_allowed' });
    }
    expect(upstreamCalls(gw.paymentsCalls)).toHaveLength(2);
  });
});

describe('the subscriptions in the OpenAPI document', () => {
  interface Schema {
    $ref?: string;
    properties?: Record<string, Schema>;
    items?: Schema;
    minimum?: number;
    maximum?: number;
    minItems?: number;
    maxItems?: number;
    minLength?: number;
    maxLength?: number;
    default?: unknown;
    description?: string;
    enum?: string[];
  }

  it('advertises the limits the routes check', async () => {
    const doc = (await request(gateway().app).get('/v1/openapi.json')).body as {
      components: { schemas: Record<string, Schema> };
      paths: Record<string, Record<string, { parameters?: Array<{ name: string }> }>>;
    };
    const schemas = doc.components.schemas;
    const deref = (s: Schema | undefined): Schema => (s?.$ref ? deref(schemas[s.$ref.split('/').pop()!]) : (s ?? {}));
    const create = deref(schemas.CreateSubscriptionRequest);
    const item = deref(create.properties!.items!.items);
    const recurrence = deref(create.properties!.recurrence);
    const method = deref(create.properties!.paymentMethod);
    expect({
      name: [create.properties!.name!.minLength, create.properties!.name!.maxLength],
      items: [create.properties!.items!.minItems, create.properties!.items!.maxItems],
      itemName: item.properties!.name!.maxLength,
      total: create.properties!.items!.description,
      itemAmount: [item.properties!.amount!.minimum, item.properties!.amount!.maximum],
      quantity: [item.properties!.quantity!.minimum, item.properties!.quantity!.maximum],
      cycles: [recurrence.properties!.cycles!.minimum, recurrence.properties!.cycles!.maximum],
      interval: recurrence.properties!.interval!.enum,
      installments: [method.properties!.installments!.minimum, method.properties!.installments!.maximum],
      splitRules: create.properties!.splitRules!.maxItems,
    }).toEqual({
      name: [L.nameMinLength, L.nameMaxLength],
      items: [L.minItems, L.maxItems],
      itemName: L.itemNameMaxLength,
      total: `What each cycle bills: the sum of amount × quantity, from ${L.amountMin} to ${L.amountMax} minor units`,
      itemAmount: [L.itemAmountMin, L.itemAmountMax],
      quantity: [L.itemQuantityMin, L.itemQuantityMax],
      cycles: [L.cyclesMin, L.cyclesMax],
      interval: ['daily', 'weekly', 'monthly', 'quarterly', 'yearly'],
      installments: [L.minInstallments, L.maxInstallments],
      splitRules: L.maxSplitRules,
    });
    expect(Object.keys(deref(schemas.ReplaceSubscriptionRequest).properties!).sort()).toEqual(['items', 'name', 'paymentMethod']);
    expect(doc.paths['/v1/subscriptions']!.get!.parameters!.map((p) => p.name)).toEqual(expect.arrayContaining(['page', 'limit', 'sort', 'status', 'customerId']));
    for (const action of ['cancel', 'pause', 'resume']) expect(Object.keys(doc.paths[`/v1/subscriptions/{id}/${action}`]!).sort()).toEqual(['patch', 'post']);
  });
});

describe('SUBSCRIPTION_EVENT_TYPES', () => {
  it('names every subscription event subscriptions.subscription.<what>', () => {
    expect(Object.values(SUBSCRIPTION_EVENT_TYPES)).toEqual(
      ['created', 'updated', 'trial_started', 'activated', 'paused', 'resumed', 'canceled', 'expired', 'unpaid', 'cycle_paid', 'cycle_failed'].map(
        (what) => `subscriptions.subscription.${what}`,
      ),
    );
  });
});
