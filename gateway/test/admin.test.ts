import type { settings } from '@platform/contracts';
import request from 'supertest';
import { ADMIN_TOKEN, auth, buildGateway, CLIENT_ID, CREATED_AT, UPDATED_AT, upstreamCalls } from './helpers';

const admin = { 'X-Admin-Token': ADMIN_TOKEN };
const client: settings.Client = { id: CLIENT_ID, name: 'Store', environment: 'sandbox', prepaymentEnabled: false, createdAt: CREATED_AT, updatedAt: UPDATED_AT };

describe('/admin/v1/clients', () => {
  it('POST creates a client and answers its secret key once', async () => {
    const gw = buildGateway({ settings: { createClient: async () => ({ client, apiKey: 'sk_sandbox_new', keyId: 'key-1' }) } });
    const res = await request(gw.admin).post('/admin/v1/clients').set(admin).set('X-Idempotency-Key', 'admin-1').send({ name: 'Store', environment: 'sandbox' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      clientId: CLIENT_ID,
      apiKey: 'sk_sandbox_new',
      keyId: 'key-1',
      name: 'Store',
      environment: 'sandbox',
      prepaymentEnabled: false,
      createdAt: '2026-03-04T05:06:07.089Z',
    });
    const [call] = gw.settingsCalls;
    expect(call!.request).toEqual({ name: 'Store', environment: 'sandbox', prepaymentEnabled: false });
    expect(call!.meta?.idempotencyKey).toBe('admin-1');
  });

  it('POST validates name and environment', async () => {
    const gw = buildGateway();
    const res = await request(gw.admin).post('/admin/v1/clients').set(admin).send({ name: '', environment: 'prod', prepaymentEnabled: 'yes' });
    expect(res.status).toBe(400);
    expect(res.body.error.details).toEqual([
      { field: 'name', message: 'must not be empty' },
      { field: 'environment', message: 'must be sandbox or live' },
      { field: 'prepaymentEnabled', message: expect.any(String) },
    ]);
    expect(gw.settingsCalls).toHaveLength(0);
  });

  it('GET and PATCH answer the client; PATCH sends only the given fields', async () => {
    const gw = buildGateway({ settings: { getClient: async () => client, updateClient: async () => ({ ...client, prepaymentEnabled: true }) } });
    const got = await request(gw.admin).get(`/admin/v1/clients/${CLIENT_ID}`).set(admin);
    expect(got.body).toEqual({
      clientId: CLIENT_ID,
      name: 'Store',
      environment: 'sandbox',
      prepaymentEnabled: false,
      createdAt: '2026-03-04T05:06:07.089Z',
      updatedAt: '2026-03-05T05:06:07.001Z',
    });
    const patched = await request(gw.admin).patch(`/admin/v1/clients/${CLIENT_ID}`).set(admin).send({ prepaymentEnabled: true });
    expect(patched.status).toBe(200);
    expect(patched.body.prepaymentEnabled).toBe(true);
    expect(gw.settingsCalls.map((c) => c.request)).toEqual([{ clientId: CLIENT_ID }, { clientId: CLIENT_ID, prepaymentEnabled: true }]);
    expect(gw.settingsCalls[1]!.request).not.toHaveProperty('name', expect.anything());
  });

  it('POST api-keys answers the new key, DELETE revokes one with 204', async () => {
    const gw = buildGateway({
      settings: {
        createApiKey: async () => ({ keyId: 'key-2', apiKey: 'sk_sandbox_two', createdAt: CREATED_AT }),
        revokeApiKey: async () => ({}),
      },
    });
    const created = await request(gw.admin).post(`/admin/v1/clients/${CLIENT_ID}/api-keys`).set(admin);
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ keyId: 'key-2', apiKey: 'sk_sandbox_two', createdAt: '2026-03-04T05:06:07.089Z' });
    const revoked = await request(gw.admin).delete(`/admin/v1/clients/${CLIENT_ID}/api-keys/key-2`).set(admin);
    expect(revoked.status).toBe(204);
    expect(revoked.text).toBe('');
    expect(gw.settingsCalls.map((c) => [c.method, c.request])).toEqual([
      ['createApiKey', { clientId: CLIENT_ID }],
      ['revokeApiKey', { clientId: CLIENT_ID, keyId: 'key-2' }],
    ]);
  });
});

describe('POST /v1/auth', () => {
  it('creates a public key for the authenticated client, with expiresAt only when it expires', async () => {
    const expiresAt = new Date(CREATED_AT.getTime() + 600_000);
    const gw = buildGateway({
      settings: {
        createClientToken: async (req: settings.CreateClientTokenRequest) => ({
          clientId: req.clientId,
          publicKey: 'pk_sandbox_abc',
          keyId: 'key-pk',
          scope: req.scope,
          expires: req.expires,
          createdAt: CREATED_AT,
          expiresAt: req.expires === 0 ? undefined : expiresAt,
        }),
      },
    });
    const res = await request(gw.app).post('/v1/auth').set(auth()).send({ scope: ['customers'], expires: 600, clientId: 'someone-else' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      clientId: CLIENT_ID,
      publicKey: 'pk_sandbox_abc',
      keyId: 'key-pk',
      scope: ['customers'],
      expires: 600,
      createdAt: '2026-03-04T05:06:07.089Z',
      expiresAt: '2026-03-04T05:16:07.089Z',
    });
    expect(upstreamCalls(gw.settingsCalls)[0]!.request).toEqual({ clientId: CLIENT_ID, scope: ['customers'], expires: 600 });
    const forever = await request(gw.app).post('/v1/auth').set(auth()).send({ scope: ['*'], expires: 0 });
    expect(forever.body.expiresAt).toBeNull();
  });

  it('validates scope and expires', async () => {
    const gw = buildGateway();
    const res = await request(gw.app).post('/v1/auth').set(auth()).send({ scope: [], expires: -1 });
    expect(res.status).toBe(400);
    expect(res.body.error.details.map((d: { field: string }) => d.field)).toEqual(['scope', 'expires']);
  });
});
