import type { payments } from '@platform/contracts';
import request from 'supertest';
import { auth, buildGateway, CLIENT_ID, upstreamCalls } from './helpers';
import { BACKUP_PROVIDER_ID, FLOW_ID, MERCHANT_ID, meta, PROVIDER_ID, sampleFlow } from './paymentSamples';

const flowJson = {
  id: FLOW_ID,
  clientId: CLIENT_ID,
  merchantId: MERCHANT_ID,
  name: 'high tickets',
  paymentMethod: 'credit',
  rules: [
    {
      when: {
        amountGte: 100_000,
        amountLte: null,
        cardBrand: 'visa',
        installmentsGte: null,
        installmentsLte: null,
        currency: null,
        paymentType: null,
        binRanges: null,
        issuerCountry: null,
        metadata: null,
        all: null,
        any: null,
      },
      route: [BACKUP_PROVIDER_ID, PROVIDER_ID],
      split: null,
      antifraudProviderId: null,
      mode: 'priority',
    },
  ],
  defaultRoute: [PROVIDER_ID],
  createdAt: '2026-03-04T05:06:07.089Z',
  updatedAt: '2026-03-05T05:06:07.001Z',
};

const body = {
  merchantId: MERCHANT_ID,
  name: 'high tickets',
  paymentMethod: 'credit',
  rules: [{ when: { amountGte: 100_000, cardBrand: 'visa' }, route: [BACKUP_PROVIDER_ID, PROVIDER_ID] }],
  defaultRoute: [PROVIDER_ID],
};

describe('/v1/flows', () => {
  it('POST maps the flow to CreateFlowRequest and answers 201 with every condition key (null when unset)', async () => {
    const gw = buildGateway({ payments: { createFlow: async () => sampleFlow() } });
    const res = await request(gw.app).post('/v1/flows').set(auth()).set('X-Idempotency-Key', 'flow-1').send(body);
    expect(res.status).toBe(201);
    expect(res.body).toEqual(flowJson);
    const [call] = upstreamCalls(gw.paymentsCalls);
    const expected: payments.CreateFlowRequest = {
      clientId: CLIENT_ID,
      merchantId: MERCHANT_ID,
      name: 'high tickets',
      paymentMethod: 'credit',
      rules: [{ when: { amountGte: 100_000, cardBrand: 'visa' }, route: [BACKUP_PROVIDER_ID, PROVIDER_ID] }],
      defaultRoute: [PROVIDER_ID],
    };
    expect(call!.request).toEqual(expected);
    expect(call!.meta?.idempotencyKey).toBe('flow-1');
  });

  it('POST takes a flow with only a default route, and names each bad field', async () => {
    const gw = buildGateway({ payments: { createFlow: async () => sampleFlow({ rules: [], name: '' }) } });
    const minimal = await request(gw.app).post('/v1/flows').set(auth()).send({ merchantId: MERCHANT_ID, paymentMethod: 'pix', defaultRoute: [PROVIDER_ID] });
    expect(minimal.status).toBe(201);
    expect(minimal.body).toMatchObject({ rules: [], name: null });
    expect(upstreamCalls(gw.paymentsCalls)[0]!.request).toEqual({
      clientId: CLIENT_ID,
      merchantId: MERCHANT_ID,
      name: '',
      paymentMethod: 'pix',
      rules: [],
      defaultRoute: [PROVIDER_ID],
    });

    const bad = await request(gw.app)
      .post('/v1/flows')
      .set(auth())
      .send({ paymentMethod: 'cash', rules: [{ when: { amountGte: -1, installmentsGte: 'two' }, route: 'p1' }] });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details).toEqual([
      { field: 'merchantId', message: 'is required' },
      { field: 'paymentMethod', message: 'must be one of credit, debit, pix, boleto, voucher' },
      { field: 'rules.0.when.amountGte', message: 'must be at least 0' },
      { field: 'rules.0.when.installmentsGte', message: 'must be a whole number' },
      { field: 'rules.0.route', message: 'must be an array' },
      { field: 'defaultRoute', message: 'is required' },
    ]);
    const noMethod = await request(gw.app).post('/v1/flows').set(auth()).send({ merchantId: MERCHANT_ID, defaultRoute: [PROVIDER_ID] });
    expect(noMethod.body.error.details).toEqual([{ field: 'paymentMethod', message: 'is required' }]);
    expect(upstreamCalls(gw.paymentsCalls)).toHaveLength(1);
  });

  it('GET list filters by merchantId and paginates', async () => {
    const gw = buildGateway({ payments: { listFlows: async () => ({ items: [sampleFlow()], meta: meta() }) } });
    const res = await request(gw.app).get(`/v1/flows?merchantId=${MERCHANT_ID}&limit=20`).set(auth());
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ items: [flowJson], meta: meta() });
    expect(upstreamCalls(gw.paymentsCalls)[0]!.request).toEqual({ clientId: CLIENT_ID, page: { page: 1, limit: 20, sort: 'DESC' }, merchantId: MERCHANT_ID });
  });

  it('GET by id and PUT pass the path id; PUT keeps the merchant of the flow', async () => {
    const gw = buildGateway({ payments: { getFlow: async () => sampleFlow(), replaceFlow: async () => sampleFlow({ paymentMethod: 'debit' }) } });
    expect((await request(gw.app).get(`/v1/flows/${FLOW_ID}`).set(auth())).body).toEqual(flowJson);
    const put = await request(gw.app)
      .put(`/v1/flows/${FLOW_ID}`)
      .set(auth())
      .send({ ...body, paymentMethod: 'debit', merchantId: 'another-merchant' });
    expect(put.status).toBe(200);
    expect(put.body.paymentMethod).toBe('debit');
    const calls = upstreamCalls(gw.paymentsCalls);
    expect(calls[0]!.request).toEqual({ clientId: CLIENT_ID, id: FLOW_ID });
    const expected: payments.ReplaceFlowRequest = {
      clientId: CLIENT_ID,
      id: FLOW_ID,
      name: 'high tickets',
      paymentMethod: 'debit',
      rules: [{ when: { amountGte: 100_000, cardBrand: 'visa' }, route: [BACKUP_PROVIDER_ID, PROVIDER_ID] }],
      defaultRoute: [PROVIDER_ID],
    };
    expect(calls[1]!.request).toEqual(expected);
  });

  it('POST maps metadata, BIN ranges, issuer country, nested groups and a split, and answers them', async () => {
    const antifraudId = '7d6c5b4a-3f2e-4d1c-8b0a-9f8e7d6c5b4a';
    const rules: payments.FlowRule[] = [
      {
        when: {
          metadata: { entries: { segment: { values: ['vip', 'gold'] }, 'seller.tier': { values: ['1'] } } },
          binRanges: { ranges: [{ from: '400000', to: '499999' }] },
          issuerCountry: { values: ['BR'] },
          paymentType: 'credit',
          installmentsLte: 6,
          any: { conditions: [{ amountGte: 1_000 }, { all: { conditions: [{ currency: 'USD' }, { cardBrand: 'visa' }] } }] },
        },
        route: [],
        split: { branches: [{ percentage: 70, route: [PROVIDER_ID], antifraudProviderId: antifraudId }, { percentage: 30, route: [BACKUP_PROVIDER_ID] }] },
        antifraudProviderId: antifraudId,
      },
    ];
    const gw = buildGateway({ payments: { createFlow: async () => sampleFlow({ rules }) } });
    const res = await request(gw.app)
      .post('/v1/flows')
      .set(auth())
      .send({
        merchantId: MERCHANT_ID,
        paymentMethod: 'credit',
        rules: [
          {
            when: {
              metadata: { segment: ['vip', 'gold'], 'seller.tier': '1' },
              binRanges: [{ from: '400000', to: '499999' }],
              issuerCountry: ['BR'],
              paymentType: 'credit',
              installmentsLte: 6,
              any: [{ amountGte: 1_000 }, { all: [{ currency: 'USD' }, { cardBrand: 'visa' }] }],
            },
            split: [
              { percentage: 70, route: [PROVIDER_ID], antifraudProviderId: antifraudId },
              { percentage: 30, route: [BACKUP_PROVIDER_ID] },
            ],
            antifraudProviderId: antifraudId,
          },
        ],
        defaultRoute: [PROVIDER_ID],
      });
    expect(res.status).toBe(201);
    expect(upstreamCalls(gw.paymentsCalls)[0]!.request).toEqual({ clientId: CLIENT_ID, merchantId: MERCHANT_ID, name: '', paymentMethod: 'credit', rules, defaultRoute: [PROVIDER_ID] });
    const nulls = { amountGte: null, amountLte: null, cardBrand: null, installmentsGte: null, installmentsLte: null, currency: null, paymentType: null, binRanges: null, issuerCountry: null, metadata: null, all: null, any: null };
    expect(res.body.rules).toEqual([
      {
        when: {
          ...nulls,
          metadata: { segment: ['vip', 'gold'], 'seller.tier': ['1'] },
          binRanges: [{ from: '400000', to: '499999' }],
          issuerCountry: ['BR'],
          paymentType: 'credit',
          installmentsLte: 6,
          any: [
            { ...nulls, amountGte: 1_000 },
            { ...nulls, all: [{ ...nulls, currency: 'USD' }, { ...nulls, cardBrand: 'visa' }] },
          ],
        },
        route: [],
        split: [
          { percentage: 70, route: [PROVIDER_ID], antifraudProviderId: antifraudId, mode: null },
          { percentage: 30, route: [BACKUP_PROVIDER_ID], antifraudProviderId: null, mode: null },
        ],
        antifraudProviderId: antifraudId,
        mode: 'priority',
      },
    ]);
  });

  it('POST names each bad field of the new conditions and of a split, nested ones by their path', async () => {
    const gw = buildGateway();
    const bad = await request(gw.app)
      .post('/v1/flows')
      .set(auth())
      .send({
        merchantId: MERCHANT_ID,
        paymentMethod: 'credit',
        rules: [
          {
            when: {
              metadata: { segment: 7 },
              binRanges: [{ from: '4000', to: '499999' }],
              issuerCountry: 'BR',
              paymentType: 'cash',
              installmentsLte: 0,
              any: [{ all: [{ amountLte: -5 }] }],
            },
            split: [{ percentage: 100.5, route: [PROVIDER_ID] }, { route: 'p1' }],
          },
        ],
        defaultRoute: [PROVIDER_ID],
      });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details).toEqual([
      { field: 'rules.0.when.installmentsLte', message: 'must be at least 1' },
      { field: 'rules.0.when.paymentType', message: 'must be one of credit, debit, pix, boleto, voucher' },
      { field: 'rules.0.when.binRanges.0.from', message: 'must be six digits' },
      { field: 'rules.0.when.issuerCountry', message: 'must be an array' },
      { field: 'rules.0.when.metadata.segment', message: 'must be a string or a list of strings' },
      { field: 'rules.0.when.any.0.all.0.amountLte', message: 'must be at least 0' },
      { field: 'rules.0.split.0.percentage', message: 'must be a whole number' },
      { field: 'rules.0.split.1.percentage', message: 'is required' },
      { field: 'rules.0.split.1.route', message: 'must be an array' },
    ]);
    expect(upstreamCalls(gw.paymentsCalls)).toHaveLength(0);
  });

  it('documents the nested conditions, the split and the routing reason in the OpenAPI document', async () => {
    const gw = buildGateway();
    const { schemas } = (await request(gw.app).get('/v1/openapi.json')).body.components;
    expect(schemas.FlowCondition.properties.all.items).toEqual({ $ref: '#/components/schemas/FlowCondition' });
    expect(schemas.FlowCondition.properties.any.items).toEqual({ $ref: '#/components/schemas/FlowCondition' });
    expect(Object.keys(schemas.FlowCondition.properties)).toEqual(
      expect.arrayContaining(['metadata', 'binRanges', 'issuerCountry', 'paymentType', 'installmentsGte', 'installmentsLte', 'amountGte', 'amountLte', 'currency', 'cardBrand']),
    );
    expect(schemas.FlowRule.properties.split.items).toEqual({ $ref: '#/components/schemas/FlowSplitBranch' });
    expect(schemas.FlowConditionAnswer.properties.any.items).toEqual({ $ref: '#/components/schemas/FlowConditionAnswer' });
    expect(schemas.TransactionRequest.properties.routingReason).toMatchObject({ type: ['string', 'null'] });
    expect(schemas.TransactionRequest.required).toContain('routingReason');
  });

  it('POST maps the mode of a rule and of a split branch both ways, and refuses an unknown one', async () => {
    const rules: payments.FlowRule[] = [
      { when: { cardBrand: 'visa' }, route: [PROVIDER_ID, BACKUP_PROVIDER_ID], mode: 'success_rate' },
      { when: {}, route: [], split: { branches: [{ percentage: 50, route: [PROVIDER_ID], mode: 'success_rate' }, { percentage: 50, route: [BACKUP_PROVIDER_ID] }] }, mode: 'priority' },
    ];
    const gw = buildGateway({ payments: { createFlow: async () => sampleFlow({ rules }) } });
    const res = await request(gw.app)
      .post('/v1/flows')
      .set(auth())
      .send({
        merchantId: MERCHANT_ID,
        paymentMethod: 'credit',
        rules: [
          { when: { cardBrand: 'visa' }, route: [PROVIDER_ID, BACKUP_PROVIDER_ID], mode: 'success_rate' },
          { split: [{ percentage: 50, route: [PROVIDER_ID], mode: 'success_rate' }, { percentage: 50, route: [BACKUP_PROVIDER_ID] }], mode: 'priority' },
        ],
        defaultRoute: [PROVIDER_ID],
      });
    expect(res.status).toBe(201);
    expect(upstreamCalls(gw.paymentsCalls)[0]!.request).toEqual({
      clientId: CLIENT_ID,
      merchantId: MERCHANT_ID,
      name: '',
      paymentMethod: 'credit',
      rules: [
        { when: { cardBrand: 'visa' }, route: [PROVIDER_ID, BACKUP_PROVIDER_ID], mode: 'success_rate' },
        { route: [], split: { branches: [{ percentage: 50, route: [PROVIDER_ID], mode: 'success_rate' }, { percentage: 50, route: [BACKUP_PROVIDER_ID] }] }, mode: 'priority' },
      ],
      defaultRoute: [PROVIDER_ID],
    });
    expect(res.body.rules.map((r: { mode: string; split: Array<{ mode: string | null }> | null }) => ({ mode: r.mode, branches: r.split?.map((b) => b.mode) ?? null }))).toEqual([
      { mode: 'success_rate', branches: null },
      { mode: 'priority', branches: ['success_rate', null] },
    ]);

    const bad = await request(gw.app)
      .post('/v1/flows')
      .set(auth())
      .send({
        merchantId: MERCHANT_ID,
        paymentMethod: 'credit',
        rules: [{ route: [PROVIDER_ID], mode: 'fastest' }, { split: [{ percentage: 50, route: [PROVIDER_ID], mode: 7 }, { percentage: 50, route: [BACKUP_PROVIDER_ID] }] }],
        defaultRoute: [PROVIDER_ID],
      });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details).toEqual([
      { field: 'rules.0.mode', message: 'must be one of priority, success_rate' },
      { field: 'rules.1.split.0.mode', message: 'must be one of priority, success_rate' },
    ]);
    expect(upstreamCalls(gw.paymentsCalls)).toHaveLength(1);
  });

  it('documents the mode of a rule and of a split branch in the OpenAPI document', async () => {
    const gw = buildGateway();
    const { schemas } = (await request(gw.app).get('/v1/openapi.json')).body.components;
    expect(schemas.FlowRule.properties.mode).toMatchObject({ type: 'string', enum: ['priority', 'success_rate'] });
    expect(schemas.FlowSplitBranch.properties.mode).toMatchObject({ type: 'string', enum: ['priority', 'success_rate'] });
    expect(schemas.FlowRule.properties.mode.description).toContain('success_rate');
  });

  it('needs the flows scope for a public key', async () => {
    const gw = buildGateway();
    const res = await request(gw.app).get('/v1/flows').set(auth('pk_charges'));
    expect(res.status).toBe(403);
    expect(res.body.error.key).toBe('scope_not_allowed');
  });
});
