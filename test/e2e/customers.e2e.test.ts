import { eventually } from '@platform/testkit';
import { apiClient, createClient, startTestPlatform, type Credentials, type TestPlatform } from './platform';

const customerBody = (n: string, overrides: Record<string, unknown> = {}) => ({
  name: `Ana ${n}`,
  email: `ana.${n}@example.com`,
  phoneNumber: '+55 11 99999-0000',
  document: { type: 'cpf', number: `${n.padStart(11, '0')}`.slice(-11), country: 'BR' },
  address: { country: 'BR', state: 'SP', city: 'São Paulo', street: 'Av. Paulista', streetNumber: '1000', zipCode: '01310100' },
  ...overrides,
});

describe('REST /v1/customers through the gateway', () => {
  let platform: TestPlatform;
  let api: ReturnType<typeof apiClient>;
  let alice: Credentials;
  let bob: Credentials;

  beforeAll(async () => {
    platform = await startTestPlatform('e2ecust');
    api = apiClient(platform.gatewayUrl);
    alice = await createClient(platform.adminUrl, platform.adminToken, 'Alice Store');
    bob = await createClient(platform.adminUrl, platform.adminToken, 'Bob Store');
  });
  afterAll(async () => {
    await platform?.stop();
  });

  it('creates, lists with meta, fetches, updates and deletes a customer', async () => {
    const created = await api('POST', '/v1/customers', { auth: alice, body: customerBody('10000000001') });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    expect(created.body).toMatchObject({ clientId: alice.clientId, name: 'Ana 10000000001', email: 'ana.10000000001@example.com' });
    expect(created.body.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

    await api('POST', '/v1/customers', { auth: alice, body: customerBody('10000000002') });
    const list = await api<{ items: Array<{ id: string }>; meta: Record<string, number> }>('GET', '/v1/customers?limit=1', { auth: alice });
    expect(list.status).toBe(200);
    expect(list.body.items).toHaveLength(1);
    expect(list.body.meta).toEqual({ itemCount: 1, totalItems: 2, itemsPerPage: 1, totalPages: 2, currentPage: 1 });

    const filtered = await api<{ items: Array<{ id: string }> }>('GET', `/v1/customers?email=ana.10000000001@example.com`, { auth: alice });
    expect(filtered.body.items.map((c) => c.id)).toEqual([id]);

    const fetched = await api('GET', `/v1/customers/${id}`, { auth: alice });
    expect(fetched.status).toBe(200);
    expect(fetched.body.id).toBe(id);

    const updated = await api('PATCH', `/v1/customers/${id}`, { auth: alice, body: { name: 'Ana Maria' } });
    expect(updated.status).toBe(200);
    expect(updated.body.name).toBe('Ana Maria');

    const deleted = await api('DELETE', `/v1/customers/${id}`, { auth: alice });
    expect(deleted.status).toBe(200);
    expect((await api('GET', `/v1/customers/${id}`, { auth: alice })).status).toBe(404);
  });

  it('answers 409 for a duplicate e-mail, unless force=true', async () => {
    const first = await api('POST', '/v1/customers', { auth: alice, body: customerBody('20000000001') });
    expect(first.status).toBe(201);
    const dup = await api<{ error: Record<string, unknown> }>('POST', '/v1/customers', {
      auth: alice,
      body: customerBody('20000000002', { email: 'ana.20000000001@example.com' }),
    });
    expect(dup.status).toBe(409);
    expect(dup.body.error).toMatchObject({ code: 409, type: 'invalid_request_error' });
    const forced = await api('POST', '/v1/customers?force=true', { auth: alice, body: customerBody('20000000003', { email: 'ana.20000000001@example.com' }) });
    expect(forced.status).toBe(201);
  });

  it('answers 400 naming each bad field, and writes nothing', async () => {
    const bad = await api<{ error: { code: number; type: string; details: Array<{ field: string }> } }>('POST', '/v1/customers', {
      auth: alice,
      body: { name: '', email: 'not-an-email', document: { type: 'cpf' }, phoneNumber: 12 },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe(400);
    const fields = bad.body.error.details.map((d) => d.field);
    expect(fields).toEqual(expect.arrayContaining(['name', 'email', 'document.number', 'phoneNumber']));
    const malformed = await api('POST', '/v1/customers', { auth: alice, raw: '{"name": ' });
    expect(malformed.status).toBe(400);
  });

  it("answers 404 for another client's customer, on every route", async () => {
    const mine = await api('POST', '/v1/customers', { auth: alice, body: customerBody('30000000001') });
    const id = mine.body.id as string;
    expect((await api('GET', `/v1/customers/${id}`, { auth: bob })).status).toBe(404);
    expect((await api('PATCH', `/v1/customers/${id}`, { auth: bob, body: { name: 'x' } })).status).toBe(404);
    expect((await api('DELETE', `/v1/customers/${id}`, { auth: bob })).status).toBe(404);
    const bobs = await api<{ items: Array<{ id: string }> }>('GET', '/v1/customers?limit=100', { auth: bob });
    expect(bobs.body.items.map((c) => c.id)).not.toContain(id);
    expect((await api('GET', `/v1/customers/not-a-uuid`, { auth: alice })).status).toBe(404);
  });

  it('answers 401 for a wrong key or missing credentials', async () => {
    expect((await api('GET', '/v1/customers', { auth: { clientId: alice.clientId, apiKey: 'sk_sandbox_wrong' } })).status).toBe(401);
    expect((await api('GET', '/v1/customers', { auth: { clientId: bob.clientId, apiKey: alice.apiKey } })).status).toBe(401);
    const none = await api<{ error: { code: number } }>('GET', '/v1/customers');
    expect(none.status).toBe(401);
    expect(none.body.error.code).toBe(401);
  });

  it('lets a public key scoped to customers reach customers only', async () => {
    const token = await api('POST', '/v1/auth', { auth: alice, body: { scope: ['customers'], expires: 600 } });
    expect(token.status).toBe(201);
    const pub: Credentials = { clientId: alice.clientId, apiKey: token.body.publicKey as string };
    expect((await api('GET', '/v1/customers', { auth: pub })).status).toBe(200);
    expect((await api('POST', '/v1/customers', { auth: pub, body: customerBody('40000000001') })).status).toBe(201);
    expect((await api('GET', '/v1/settings', { auth: pub })).status).toBe(403);
    expect((await api('GET', '/v1/subscriptions/settings', { auth: pub })).status).toBe(403);
    expect((await api('POST', '/v1/auth', { auth: pub, body: { scope: ['*'], expires: 0 } })).status).toBe(403);
  });

  it('stops a revoked key within seconds', async () => {
    const created = await apiClient(platform.adminUrl)<{ keyId: string; apiKey: string }>('POST', `/admin/v1/clients/${alice.clientId}/api-keys`, {
      headers: { 'x-admin-token': platform.adminToken },
    });
    expect(created.status).toBe(201);
    const key: Credentials = { clientId: alice.clientId, apiKey: created.body.apiKey };
    expect((await api('GET', '/v1/customers', { auth: key })).status).toBe(200);
    const revoked = await apiClient(platform.adminUrl)('DELETE', `/admin/v1/clients/${alice.clientId}/api-keys/${created.body.keyId}`, {
      headers: { 'x-admin-token': platform.adminToken },
    });
    expect(revoked.status).toBe(204);
    await eventually(async () => ((await api('GET', '/v1/customers', { auth: key })).status === 401 ? true : undefined), 'revocation', { timeoutMs: 10_000 });
  });

  it('creates exactly one customer when the same X-Idempotency-Key arrives 20 times at once', async () => {
    const body = customerBody('50000000001');
    const responses = await Promise.all(
      Array.from({ length: 20 }, () => api('POST', '/v1/customers', { auth: alice, body, headers: { 'x-idempotency-key': 'e2e-idem-1' } })),
    );
    const ok = responses.filter((r) => r.status === 201);
    expect(ok.length).toBeGreaterThanOrEqual(1);
    expect(new Set(ok.map((r) => r.body.id)).size).toBe(1);
    for (const r of responses) expect([201, 409]).toContain(r.status);
    const list = await api<{ items: unknown[] }>('GET', '/v1/customers?email=ana.50000000001@example.com', { auth: alice });
    expect(list.body.items).toHaveLength(1);
    const replay = await api('POST', '/v1/customers', { auth: alice, body, headers: { 'x-idempotency-key': 'e2e-idem-1' } });
    expect(replay.status).toBe(201);
    expect(replay.body.id).toBe(ok[0]!.body.id);
    const reused = await api<{ error: { businessCode: string } }>('POST', '/v1/customers', {
      auth: alice,
      body: customerBody('50000000002'),
      headers: { 'x-idempotency-key': 'e2e-idem-1' },
    });
    expect(reused.status).toBe(422);
    expect(reused.body.error.businessCode).toBe('idempotency_key_reused');
  });
});
