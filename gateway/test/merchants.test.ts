import { PROVIDER_CREDENTIAL_TYPES } from '@platform/api-model';
import type { payments } from '@platform/contracts';
import { AppError } from '@platform/kit';
import request from 'supertest';
import { auth, buildGateway, CLIENT_ID, upstreamCalls } from './helpers';
import { BACKUP_PROVIDER_ID, emptyMeta, MERCHANT_ID, meta, PROVIDER_ID, sampleMerchant, sampleProvider } from './paymentSamples';

const createBody = {
  mcc: '5411',
  name: 'Loja Centro',
  merchantUrl: 'https://shop.example.com',
  providers: [
    { name: 'sandbox-primary', priority: 1, credentials: { type: 'SANDBOX', apiKey: 'prov-secret-1', merchantCode: 'M-9' } },
    { name: 'antifraud', priority: 2, credentials: { type: 'SANDBOX_ANTIFRAUD', password: 'af-secret' }, options: { threshold: 70 } },
  ],
};

const merchantJson = {
  id: MERCHANT_ID,
  clientId: CLIENT_ID,
  mcc: '5411',
  name: 'Loja Centro',
  merchantName: null,
  merchantUrl: 'https://shop.example.com',
  status: 'active',
  providers: [
    {
      id: PROVIDER_ID,
      merchantId: MERCHANT_ID,
      name: 'sandbox-primary',
      priority: 1,
      credentials: { type: 'SANDBOX' },
      options: null,
      createdAt: '2026-03-04T05:06:07.089Z',
      updatedAt: '2026-03-05T05:06:07.001Z',
    },
  ],
  platformFeeEnabled: false,
  createdAt: '2026-03-04T05:06:07.089Z',
  updatedAt: '2026-03-05T05:06:07.001Z',
};

describe('/v1/merchants', () => {
  it('POST maps the body to CreateMerchantRequest with credentials as a Struct, and answers 201 without any secret', async () => {
    const gw = buildGateway({ payments: { createMerchant: async () => sampleMerchant() } });
    const res = await request(gw.app)
      .post('/v1/merchants')
      .set(auth())
      .set('X-Idempotency-Key', 'merchant-1')
      .send({ ...createBody, status: 'blocked', clientId: 'someone-else' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual(merchantJson);
    const [call] = upstreamCalls(gw.paymentsCalls);
    expect(call!.method).toBe('createMerchant');
    const expected: payments.CreateMerchantRequest = {
      clientId: CLIENT_ID,
      mcc: '5411',
      name: 'Loja Centro',
      merchantName: '',
      merchantUrl: 'https://shop.example.com',
      providers: [
        { name: 'sandbox-primary', priority: 1, credentials: { type: 'SANDBOX', apiKey: 'prov-secret-1', merchantCode: 'M-9' }, options: undefined },
        { name: 'antifraud', priority: 2, credentials: { type: 'SANDBOX_ANTIFRAUD', password: 'af-secret' }, options: { threshold: 70 } },
      ],
    };
    expect(call!.request).toEqual(expected);
    expect(call!.meta).toEqual({ requestId: expect.any(String), idempotencyKey: 'merchant-1' });
  });

  it('never returns credential fields the service might send beyond the type', async () => {
    const leaky = { ...sampleProvider(), credentials: { type: 'SANDBOX', apiKey: 'prov-secret-1' } } as payments.Provider;
    const gw = buildGateway({ payments: { getMerchant: async () => sampleMerchant({ providers: [leaky] }) } });
    const res = await request(gw.app).get(`/v1/merchants/${MERCHANT_ID}`).set(auth());
    expect(res.status).toBe(200);
    expect(res.body.providers[0].credentials).toEqual({ type: 'SANDBOX' });
    expect(JSON.stringify(res.body)).not.toContain('prov-secret-1');
  });

  it('POST accepts mcc as a number, and names each bad field', async () => {
    const gw = buildGateway({ payments: { createMerchant: async () => sampleMerchant() } });
    const numeric = await request(gw.app).post('/v1/merchants').set(auth()).send({ ...createBody, mcc: 5411 });
    expect(numeric.status).toBe(201);
    expect(upstreamCalls(gw.paymentsCalls)[0]!.request.mcc).toBe('5411');

    const bad = await request(gw.app)
      .post('/v1/merchants')
      .set(auth())
      .send({ providers: [{ name: '', priority: 0, credentials: { type: 'ACME', secret: 'prov-secret-2' } }, { name: 'x', priority: 'first' }] });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details).toEqual(
      expect.arrayContaining([
        { field: 'mcc', message: 'is required' },
        { field: 'providers.0.name', message: 'must not be empty' },
        { field: 'providers.0.priority', message: 'must be at least 1' },
        { field: 'providers.0.credentials.type', message: `must be one of ${PROVIDER_CREDENTIAL_TYPES.join(', ')}` },
        { field: 'providers.1.priority', message: 'must be a whole number' },
        { field: 'providers.1.credentials', message: 'is required' },
      ]),
    );
    expect(JSON.stringify(bad.body)).not.toContain('prov-secret-2');
    expect(upstreamCalls(gw.paymentsCalls)).toHaveLength(1);
  });

  it('GET list paginates and answers the list envelope', async () => {
    const gw = buildGateway({ payments: { listMerchants: async () => ({ items: [sampleMerchant()], meta: meta() }) } });
    const res = await request(gw.app).get('/v1/merchants?page=2&limit=5&sort=asc').set(auth());
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ items: [merchantJson], meta: meta() });
    expect(upstreamCalls(gw.paymentsCalls)[0]!.request).toEqual({ clientId: CLIENT_ID, page: { page: 2, limit: 5, sort: 'ASC' } });
  });

  it('GET, PATCH and DELETE by id pass the path id; DELETE answers 204', async () => {
    const gw = buildGateway({
      payments: {
        getMerchant: async () => sampleMerchant(),
        updateMerchant: async () => sampleMerchant({ merchantName: 'Loja Centro LTDA' }),
        deleteMerchant: async () => ({}),
      },
    });
    expect((await request(gw.app).get(`/v1/merchants/${MERCHANT_ID}`).set(auth())).body).toEqual(merchantJson);
    const patched = await request(gw.app).patch(`/v1/merchants/${MERCHANT_ID}`).set(auth()).send({ merchantName: 'Loja Centro LTDA', status: 'inactive' });
    expect(patched.status).toBe(200);
    expect(patched.body.merchantName).toBe('Loja Centro LTDA');
    const deleted = await request(gw.app).delete(`/v1/merchants/${MERCHANT_ID}`).set(auth());
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');
    const calls = upstreamCalls(gw.paymentsCalls);
    expect(calls.map((c) => c.method)).toEqual(['getMerchant', 'updateMerchant', 'deleteMerchant']);
    expect(calls[0]!.request).toEqual({ clientId: CLIENT_ID, id: MERCHANT_ID });
    expect(calls[1]!.request).toEqual({ clientId: CLIENT_ID, id: MERCHANT_ID, merchantName: 'Loja Centro LTDA' });
    expect(calls[2]!.request).toEqual({ clientId: CLIENT_ID, id: MERCHANT_ID });
  });

  it('answers 404 for an unknown or foreign merchant, as the service says', async () => {
    const gw = buildGateway({
      payments: {
        getMerchant: async () => {
          throw new AppError('not_found', 'Merchant not found', { key: 'not_found' });
        },
      },
    });
    const res = await request(gw.app).get('/v1/merchants/nope').set(auth());
    expect(res.status).toBe(404);
    expect(res.body.error).toMatchObject({ type: 'invalid_request_error', code: 404, key: 'not_found' });
  });
});

describe('/v1/merchants/{id}/platform-fee', () => {
  const fee: payments.PlatformFee = {
    merchantId: MERCHANT_ID,
    platformFeeEnabled: true,
    rules: [
      { paymentMethod: 'credit', percentage: 150, fixedAmount: undefined, installment: 3 },
      { paymentMethod: 'pix', percentage: undefined, fixedAmount: 99, installment: undefined },
    ],
  };
  const feeJson = {
    merchantId: MERCHANT_ID,
    platformFeeEnabled: true,
    rules: [
      { paymentMethod: 'credit', percentage: 150, fixedAmount: null, installment: 3 },
      { paymentMethod: 'pix', percentage: null, fixedAmount: 99, installment: null },
    ],
  };

  it('GET answers whether the fee applies and its rules, with null for what a rule does not set', async () => {
    const gw = buildGateway({ payments: { getPlatformFee: async () => fee } });
    const res = await request(gw.app).get(`/v1/merchants/${MERCHANT_ID}/platform-fee`).set(auth());
    expect(res.status).toBe(200);
    expect(res.body).toEqual(feeJson);
    expect(upstreamCalls(gw.paymentsCalls)[0]!.request).toEqual({ clientId: CLIENT_ID, merchantId: MERCHANT_ID });
  });

  it('PUT takes the rules as a bare array or wrapped in {rules}', async () => {
    const gw = buildGateway({ payments: { replacePlatformFee: async () => fee } });
    const rules = [
      { paymentMethod: 'credit', percentage: 150, installment: 3 },
      { paymentMethod: 'pix', fixedAmount: 99 },
    ];
    const bare = await request(gw.app).put(`/v1/merchants/${MERCHANT_ID}/platform-fee`).set(auth()).send(rules);
    const wrapped = await request(gw.app).put(`/v1/merchants/${MERCHANT_ID}/platform-fee`).set(auth()).send({ rules });
    expect([bare.status, wrapped.status]).toEqual([200, 200]);
    expect(bare.body).toEqual(feeJson);
    const requests = upstreamCalls(gw.paymentsCalls).map((c) => c.request);
    const expected: payments.ReplacePlatformFeeRequest = {
      clientId: CLIENT_ID,
      merchantId: MERCHANT_ID,
      rules: [
        { paymentMethod: 'credit', percentage: 150, installment: 3 },
        { paymentMethod: 'pix', fixedAmount: 99 },
      ],
    };
    expect(requests).toEqual([expected, expected]);
    const empty = await request(gw.app).put(`/v1/merchants/${MERCHANT_ID}/platform-fee`).set(auth()).send([]);
    expect(empty.status).toBe(200);
    expect(upstreamCalls(gw.paymentsCalls)[2]!.request.rules).toEqual([]);
  });

  it('PUT names each bad rule field, for either shape', async () => {
    const gw = buildGateway();
    const bare = await request(gw.app)
      .put(`/v1/merchants/${MERCHANT_ID}/platform-fee`)
      .set(auth())
      .send([{ paymentMethod: 'cash', percentage: 1.5 }]);
    expect(bare.status).toBe(400);
    expect(bare.body.error.details).toEqual([
      { field: 'rules.0.percentage', message: 'must be a whole number' },
      { field: 'rules.0.paymentMethod', message: 'must be one of credit, debit, pix, boleto, voucher, default' },
    ]);
    const missing = await request(gw.app).put(`/v1/merchants/${MERCHANT_ID}/platform-fee`).set(auth()).send({});
    expect(missing.body.error.details).toEqual([{ field: 'rules', message: 'is required' }]);
    expect(upstreamCalls(gw.paymentsCalls)).toHaveLength(0);
  });

  it('PATCH enabled sets the flag and answers {platformFeeEnabled, rules}', async () => {
    const gw = buildGateway({ payments: { setPlatformFeeEnabled: async () => ({ ...fee, platformFeeEnabled: false }) } });
    const res = await request(gw.app).patch(`/v1/merchants/${MERCHANT_ID}/platform-fee/enabled`).set(auth()).send({ enabled: false });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...feeJson, platformFeeEnabled: false });
    expect(upstreamCalls(gw.paymentsCalls)[0]!.request).toEqual({ clientId: CLIENT_ID, merchantId: MERCHANT_ID, enabled: false });
    const bad = await request(gw.app).patch(`/v1/merchants/${MERCHANT_ID}/platform-fee/enabled`).set(auth()).send({ enabled: 'yes' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details).toEqual([{ field: 'enabled', message: 'must be true or false' }]);
  });
});

describe('PATCH /v1/providers/{id}', () => {
  it('maps name, priority, credentials and options, and answers the provider without secrets', async () => {
    const gw = buildGateway({ payments: { updateProvider: async () => sampleProvider({ id: BACKUP_PROVIDER_ID, priority: 2, options: { timeoutMs: 800 } }) } });
    const res = await request(gw.app)
      .patch(`/v1/providers/${BACKUP_PROVIDER_ID}`)
      .set(auth())
      .send({ priority: 2, credentials: { type: 'SUBACQUIRER', apiKey: 'rotated-secret' }, options: { timeoutMs: 800 } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: BACKUP_PROVIDER_ID,
      merchantId: MERCHANT_ID,
      name: 'sandbox-primary',
      priority: 2,
      credentials: { type: 'SANDBOX' },
      options: { timeoutMs: 800 },
      createdAt: '2026-03-04T05:06:07.089Z',
      updatedAt: '2026-03-05T05:06:07.001Z',
    });
    expect(JSON.stringify(res.body)).not.toContain('rotated-secret');
    const expected: payments.UpdateProviderRequest = {
      clientId: CLIENT_ID,
      id: BACKUP_PROVIDER_ID,
      priority: 2,
      credentials: { type: 'SUBACQUIRER', apiKey: 'rotated-secret' },
      options: { timeoutMs: 800 },
    };
    expect(upstreamCalls(gw.paymentsCalls)[0]!.request).toEqual(expected);
  });

  it('refuses credentials without a known type, and options that are not an object', async () => {
    const gw = buildGateway();
    const res = await request(gw.app)
      .patch(`/v1/providers/${PROVIDER_ID}`)
      .set(auth())
      .send({ credentials: { apiKey: 'x' }, options: 'fast' });
    expect(res.status).toBe(400);
    expect(res.body.error.details).toEqual([
      { field: 'credentials.type', message: 'is required' },
      { field: 'options', message: 'must be an object' },
    ]);
  });
});

describe('scopes of merchants and providers', () => {
  it('refuses a public key without the merchants or providers scope, and lets * through', async () => {
    const gw = buildGateway({ payments: { listMerchants: async () => ({ items: [], meta: emptyMeta }), updateProvider: async () => sampleProvider() } });
    for (const [method, path] of [
      ['get', '/v1/merchants'],
      ['patch', `/v1/providers/${PROVIDER_ID}`],
    ] as const) {
      const res = await request(gw.app)[method](path).set(auth('pk_charges')).send({ name: 'x' });
      expect(res.status).toBe(403);
      expect(res.body.error.key).toBe('scope_not_allowed');
    }
    expect(upstreamCalls(gw.paymentsCalls)).toHaveLength(0);
    expect((await request(gw.app).get('/v1/merchants').set(auth('pk_all'))).status).toBe(200);
  });
});
