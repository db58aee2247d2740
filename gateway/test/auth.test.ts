import type { settings } from '@platform/contracts';
import { AppError } from '@platform/kit';
import request from 'supertest';
import type { SettingsClient } from '../src/clients';
import { createAuthenticator } from '../src/http/auth';
import {
  ADMIN_TOKEN,
  auth,
  buildGateway,
  CLIENT_ID,
  CREATED_AT,
  fakeAuthenticate,
  fakeClient,
  ManualClock,
  OTHER_CLIENT_ID,
  sampleCustomer,
  SECRET_KEY,
  TEST_START,
  UPDATED_AT,
} from './helpers';

const emptyPage = { items: [], meta: { itemCount: 0, totalItems: 0, itemsPerPage: 10, totalPages: 0, currentPage: 1 } };

describe('authentication of /v1 routes', () => {
  it('answers 401 in the envelope when X-Client-Id or X-Api-Key is missing, without asking settings', async () => {
    const gw = buildGateway({ customers: { listCustomers: async () => emptyPage } });
    for (const headers of [{}, { 'X-Client-Id': CLIENT_ID }, { 'X-Api-Key': SECRET_KEY }]) {
      const res = await request(gw.app).get('/v1/customers').set(headers);
      expect(res.status).toBe(401);
      expect(res.body).toEqual({
        error: { type: 'invalid_request_error', code: 401, message: expect.any(String), key: 'missing_credentials' },
      });
    }
    expect(gw.settingsCalls).toHaveLength(0);
    expect(gw.customersCalls).toHaveLength(0);
  });

  it('answers 401 for a key settings refuses, and does not cache the refusal', async () => {
    const gw = buildGateway({ customers: { listCustomers: async () => emptyPage } });
    for (let i = 0; i < 2; i++) {
      const res = await request(gw.app).get('/v1/customers').set(auth('sk_wrong'));
      expect(res.status).toBe(401);
      expect(res.body.error).toMatchObject({ type: 'invalid_request_error', code: 401, message: 'Invalid client id or API key' });
    }
    expect(gw.settingsCalls.filter((c) => c.method === 'authenticate')).toHaveLength(2);
    expect(gw.customersCalls).toHaveLength(0);
  });

  it('asks settings once per key within the TTL, and again after it (a revoked key stops)', async () => {
    let revoked = false;
    const gw = buildGateway({
      settings: {
        authenticate: async (req: settings.AuthenticateRequest) => {
          if (revoked) throw new AppError('unauthenticated', 'Invalid client id or API key');
          return fakeAuthenticate(req);
        },
      },
      customers: { listCustomers: async () => emptyPage },
    });
    const authCalls = () => gw.settingsCalls.filter((c) => c.method === 'authenticate');
    expect((await request(gw.app).get('/v1/customers').set(auth())).status).toBe(200);
    expect((await request(gw.app).get('/v1/customers').set(auth())).status).toBe(200);
    expect(authCalls()).toHaveLength(1);
    expect(authCalls()[0]!.request).toEqual({ clientId: CLIENT_ID, apiKey: SECRET_KEY });

    revoked = true;
    gw.clock.advance(1999);
    expect((await request(gw.app).get('/v1/customers').set(auth())).status).toBe(200);
    expect(authCalls()).toHaveLength(1);
    gw.clock.advance(1);
    expect((await request(gw.app).get('/v1/customers').set(auth())).status).toBe(401);
    expect(authCalls()).toHaveLength(2);
  });

  it('keys the cache by client id and key: another key of the same client is checked on its own', async () => {
    const gw = buildGateway({ customers: { listCustomers: async () => emptyPage } });
    await request(gw.app).get('/v1/customers').set(auth());
    expect((await request(gw.app).get('/v1/customers').set(auth('pk_customers'))).status).toBe(200);
    expect((await request(gw.app).get('/v1/customers').set(auth(SECRET_KEY, OTHER_CLIENT_ID))).status).toBe(401);
    expect(gw.settingsCalls.filter((c) => c.method === 'authenticate')).toHaveLength(3);
  });

  it('lets a public key scoped to customers reach customers, and refuses settings, subscriptions and POST /v1/auth with 403', async () => {
    const gw = buildGateway({
      customers: { listCustomers: async () => emptyPage, createCustomer: async () => sampleCustomer() },
    });
    expect((await request(gw.app).get('/v1/customers').set(auth('pk_customers'))).status).toBe(200);
    const created = await request(gw.app)
      .post('/v1/customers')
      .set(auth('pk_customers'))
      .send({ name: 'Ana', email: 'ana@example.com', phoneNumber: '+55 11 99999-0000', document: { type: 'cpf', number: '12345678909' } });
    expect(created.status).toBe(201);

    for (const [method, path] of [
      ['get', '/v1/settings'],
      ['get', '/v1/subscriptions/settings'],
    ] as const) {
      const res = await request(gw.app)[method](path).set(auth('pk_customers'));
      expect(res.status).toBe(403);
      expect(res.body.error).toMatchObject({ type: 'invalid_request_error', code: 403, key: 'scope_not_allowed' });
    }
    const token = await request(gw.app).post('/v1/auth').set(auth('pk_customers')).send({ scope: ['*'], expires: 0 });
    expect(token.status).toBe(403);
    expect(token.body.error).toMatchObject({ code: 403, key: 'secret_key_required' });
    const wildcard = await request(gw.app).post('/v1/auth').set(auth('pk_all')).send({ scope: ['*'], expires: 0 });
    expect(wildcard.status).toBe(403);
    expect(gw.settingsCalls.filter((c) => c.method !== 'authenticate')).toHaveLength(0);
  });

  it('lets a public key with scope * reach every resource route', async () => {
    const gw = buildGateway({
      settings: {
        getSubscriptionSettings: async () => ({ clientId: CLIENT_ID, retryPolicy: [], cancelAfterAllRetries: false, statementDescriptor: '' }),
      },
    });
    expect((await request(gw.app).get('/v1/subscriptions/settings').set(auth('pk_all'))).status).toBe(200);
  });

  it('passes the client id from the credentials to the service, never the one in the body', async () => {
    const gw = buildGateway({ customers: { createCustomer: async () => sampleCustomer() } });
    const res = await request(gw.app)
      .post('/v1/customers')
      .set(auth())
      .send({ clientId: OTHER_CLIENT_ID, name: 'Ana', email: 'ana@example.com', phoneNumber: '+55 11 99999-0000', document: { type: 'cpf', number: '1' } });
    expect(res.status).toBe(201);
    expect(gw.customersCalls[0]!.request.clientId).toBe(CLIENT_ID);
    expect(JSON.stringify(gw.customersCalls[0]!.request)).not.toContain(OTHER_CLIENT_ID);
  });
});

describe('admin routes', () => {
  const client = { id: CLIENT_ID, name: 'Store', environment: 'sandbox', prepaymentEnabled: false, createdAt: CREATED_AT, updatedAt: UPDATED_AT };

  it('need X-Admin-Token equal to ADMIN_TOKEN', async () => {
    const gw = buildGateway({ settings: { getClient: async () => client } });
    for (const headers of [{}, { 'X-Admin-Token': 'wrong' }, { 'X-Admin-Token': `${ADMIN_TOKEN}x` }, auth()]) {
      const res = await request(gw.admin).get(`/admin/v1/clients/${CLIENT_ID}`).set(headers);
      expect(res.status).toBe(401);
      expect(res.body.error).toMatchObject({ type: 'invalid_request_error', code: 401, key: 'invalid_admin_token' });
    }
    expect(gw.settingsCalls).toHaveLength(0);
    const ok = await request(gw.admin).get(`/admin/v1/clients/${CLIENT_ID}`).set('X-Admin-Token', ADMIN_TOKEN);
    expect(ok.status).toBe(200);
  });
});

describe('createAuthenticator', () => {
  it('shares one Authenticate call between concurrent checks of the same key', async () => {
    let answer: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (answer = resolve));
    const fake = fakeClient<SettingsClient>({
      authenticate: async (req: settings.AuthenticateRequest) => {
        await gate;
        return fakeAuthenticate(req);
      },
    });
    const authenticator = createAuthenticator({ settings: fake.client, ttlMs: 2000, clock: new ManualClock(TEST_START) });
    const checks = [1, 2, 3].map(() => authenticator.authenticate(CLIENT_ID, SECRET_KEY, { requestId: 'r' }));
    answer();
    const clients = await Promise.all(checks);
    expect(clients.map((c) => c.clientId)).toEqual([CLIENT_ID, CLIENT_ID, CLIENT_ID]);
    expect(fake.calls).toHaveLength(1);
  });
});
