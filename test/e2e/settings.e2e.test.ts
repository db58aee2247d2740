import { apiClient, createClient, startTestPlatform, type Credentials, type TestPlatform } from './platform';

// The smallest valid PNG: signature, IHDR, IDAT, IEND.
const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8ffff3f0005fe02fea7d6a0000000000049454e44ae426082',
  'hex',
);

describe('REST settings, auth and the gateway surface', () => {
  let platform: TestPlatform;
  let api: ReturnType<typeof apiClient>;
  let client: Credentials;
  const admin = () => ({ 'x-admin-token': platform.adminToken });

  beforeAll(async () => {
    platform = await startTestPlatform('e2eset');
    api = apiClient(platform.gatewayUrl);
    client = await createClient(platform.adminUrl, platform.adminToken, 'Settings Store');
  });
  afterAll(async () => {
    await platform?.stop();
  });

  it('serves health, the OpenAPI document and the docs page without credentials', async () => {
    const health = await api('GET', '/health');
    expect(health.status).toBe(200);
    expect(health.body).toMatchObject({ status: 'ok', services: { settings: 'SERVING', customers: 'SERVING', payments: 'SERVING', webhooks: 'SERVING' } });
    const doc = await api<{ openapi: string; paths: Record<string, unknown> }>('GET', '/v1/openapi.json');
    expect(doc.status).toBe(200);
    expect(doc.body.openapi).toMatch(/^3\.1/);
    expect(Object.keys(doc.body.paths)).toEqual(expect.arrayContaining(['/v1/customers', '/v1/customers/{id}', '/v1/settings', '/v1/auth']));
    const docs = await fetch(`${platform.gatewayUrl}/docs`);
    expect(docs.status).toBe(200);
    expect(await docs.text()).toContain('<html');
  });

  it('renders the error envelope for unknown routes, huge bodies and foreign content types', async () => {
    const unknown = await api<{ error: Record<string, unknown> }>('GET', '/v1/nothing-here', { auth: client });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toMatchObject({ code: 404, type: 'invalid_request_error' });
    const huge = await api<{ error: Record<string, unknown> }>('POST', '/v1/customers', { auth: client, raw: JSON.stringify({ name: 'x'.repeat(2_000_000) }) });
    expect(huge.status).toBe(413);
    expect(huge.body.error.code).toBe(413);
    const xml = await api<{ error: Record<string, unknown> }>('POST', '/v1/customers', { auth: client, raw: '<customer/>', headers: { 'content-type': 'application/xml' } });
    expect(xml.status).toBe(415);
    expect(xml.body.error.code).toBe(415);
  });

  it('manages clients and keys under the admin token only, on the admin listener only', async () => {
    // The public port does not serve the admin API, even to the right token: it answers as for an unknown route.
    expect((await api('POST', '/admin/v1/clients', { body: { name: 'x', environment: 'sandbox' }, headers: admin() })).status).toBe(404);
    expect((await apiClient(platform.adminUrl)('POST', '/admin/v1/clients', { body: { name: 'x', environment: 'sandbox' } })).status).toBe(401);
    expect((await apiClient(platform.adminUrl)('POST', '/admin/v1/clients', { body: { name: 'x', environment: 'sandbox' }, headers: { 'x-admin-token': 'wrong-token-wrong-token' } })).status).toBe(401);
    const bad = await apiClient(platform.adminUrl)('POST', '/admin/v1/clients', { body: { name: 'x', environment: 'staging' }, headers: admin() });
    expect(bad.status).toBe(400);
    const patched = await apiClient(platform.adminUrl)('PATCH', `/admin/v1/clients/${client.clientId}`, { body: { prepaymentEnabled: true }, headers: admin() });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ prepaymentEnabled: true });
  });

  it('keeps payment-link settings per scope, falls back to the client default, and serves the logo', async () => {
    // A merchant scope names one of the client's own merchants (another client's or an unknown one: 404).
    const ownMerchant = await api('POST', '/v1/merchants', {
      auth: client,
      body: { mcc: '5999', name: 'Loja', providers: [{ name: 'sandbox', priority: 1, credentials: { type: 'SANDBOX', apiKey: 'provider-secret' } }] },
    });
    expect(ownMerchant.status).toBe(201);
    const merchantId = ownMerchant.body.id as string;
    expect((await api('GET', '/v1/settings', { auth: client, headers: { 'x-merchant-id': '6f1c8a9e-2b7d-4c1e-9a53-0d2f6b1e8c47' } })).status).toBe(404);
    // A new client has the platform's defaults until it changes them.
    const defaults = await api('GET', '/v1/settings', { auth: client });
    expect(defaults.status).toBe(200);
    expect(defaults.body).toMatchObject({ clientId: client.clientId, merchantId: null, mainColor: '#1A73E8', logo: null, companyUrl: null });

    const form = new FormData();
    form.set('mainColor', '#112233');
    form.set('companyUrl', 'https://store.example.com');
    form.set('logo', new Blob([PNG], { type: 'image/png' }), 'logo.png');
    const created = await api('POST', '/v1/settings', { auth: client, form });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ clientId: client.clientId, mainColor: '#112233', companyUrl: 'https://store.example.com' });
    const logoUrl = created.body.logo as string;
    expect(logoUrl).toMatch(/^http/);

    const logo = await fetch(logoUrl.replace(/^https?:\/\/[^/]+/, platform.gatewayUrl));
    expect(logo.status).toBe(200);
    expect(logo.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await logo.arrayBuffer()).equals(PNG)).toBe(true);

    // No merchant settings yet: the merchant header falls back to the client default.
    const fallback = await api('GET', '/v1/settings', { auth: client, headers: { 'x-merchant-id': merchantId } });
    expect(fallback.status).toBe(200);
    expect(fallback.body.id).toBe(created.body.id);

    // Writes use the exact scope: PATCH on the merchant scope has nothing to patch.
    expect((await api('PATCH', '/v1/settings', { auth: client, headers: { 'x-merchant-id': merchantId }, body: { mainColor: '#000000' } })).status).toBe(404);
    const merchant = await api('POST', '/v1/settings', { auth: client, headers: { 'x-merchant-id': merchantId }, body: { mainColor: '#abcdef' } });
    expect(merchant.status).toBe(201);
    const own = await api('GET', '/v1/settings', { auth: client, headers: { 'x-merchant-id': merchantId } });
    expect(own.body).toMatchObject({ id: merchant.body.id, mainColor: '#abcdef' });

    const empty = await api<{ error: { code: number } }>('PATCH', '/v1/settings', { auth: client, body: { mainColor: '' } });
    expect(empty.status).toBe(422);
    expect(empty.body.error.code).toBe(422);

    const patched = await api('PATCH', '/v1/settings', { auth: client, body: { secondaryColor: '#445566' } });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ mainColor: '#112233', secondaryColor: '#445566' });

    const badColor = await api<{ error: { details: Array<{ field: string }> } }>('PATCH', '/v1/settings', { auth: client, body: { mainColor: 'red; x' } });
    expect(badColor.status).toBe(400);
    expect(badColor.body.error.details.map((d) => d.field)).toContain('mainColor');
  });

  it('reads defaults and updates subscription settings', async () => {
    const defaults = await api('GET', '/v1/subscriptions/settings', { auth: client });
    expect(defaults.status).toBe(200);
    expect(defaults.body).toMatchObject({ clientId: client.clientId, cancelAfterAllRetries: false });
    const updated = await api('PATCH', '/v1/subscriptions/settings', {
      auth: client,
      body: { retryPolicy: [{ daysAfterLastAttempt: 2 }, { daysAfterLastAttempt: 4 }], cancelAfterAllRetries: true, statementDescriptor: 'STORE*SUB' },
    });
    expect(updated.status).toBe(200);
    const read = await api('GET', '/v1/subscriptions/settings', { auth: client });
    expect(read.body).toMatchObject({
      retryPolicy: [{ daysAfterLastAttempt: 2 }, { daysAfterLastAttempt: 4 }],
      cancelAfterAllRetries: true,
      statementDescriptor: 'STORE*SUB',
    });
  });
});
