import type { ServerResponse } from 'node:http';
import { eventually } from '@platform/testkit';
import { Client } from 'pg';
import { ACTIVE_SVG, NORMAL_SVG, SVG_BYPASSES } from '../../services/settings/test/support/svgVectors';
import { WebhookReceiver, type Delivered } from './receiver';
import { apiClient, createClient, startTestPlatform, type Credentials, type TestPlatform } from './platform';

class Receiver extends WebhookReceiver<Delivered> {
  protected receive(request: Delivered, res: ServerResponse): Delivered {
    res.statusCode = 200;
    res.end();
    return request;
  }
}

interface Attempt {
  statusCode: number | null;
  error: string | null;
}

interface ErrorBody {
  error: { key: string; details?: Array<{ field: string; message: string }> };
}

/**
 * The platform as `npm start` runs it: the operator switch lets private webhook targets through (a developer's
 * receiver is local), and that must hold for sandbox clients only.
 */
describe('webhook targets: private addresses for sandbox clients only; SVG logos sanitised', () => {
  let platform: TestPlatform;
  let api: ReturnType<typeof apiClient>;
  const receiver = new Receiver();

  beforeAll(async () => {
    await receiver.start();
    platform = await startTestPlatform('e2emdwh', { WEBHOOKS_RETRY_SCHEDULE: '', WEBHOOKS_DELIVERY_TIMEOUT_MS: '2000' });
    api = apiClient(platform.gatewayUrl);
  }, 180_000);
  afterAll(async () => {
    await platform?.stop();
    await receiver.stop();
  });

  async function liveClient(name: string): Promise<Credentials> {
    const response = await apiClient(platform.adminUrl)<Credentials>('POST', '/admin/v1/clients', {
      body: { name, environment: 'live' },
      headers: { 'x-admin-token': platform.adminToken },
    });
    expect(response.status).toBe(201);
    return { clientId: response.body.clientId, apiKey: response.body.apiKey };
  }

  it('refuses a loopback endpoint of a live client at registration and on update, and keeps it for a sandbox client', async () => {
    const live = await liveClient('Live Store');
    const port = new URL(receiver.endpoint()).port;
    for (const endpoint of [receiver.endpoint(), `http://localhost:${port}/hooks/x`, `http://[::ffff:127.0.0.1]:${port}/hooks/y`]) {
      const refused = await api<ErrorBody>('POST', '/v1/webhooks', { auth: live, body: { event: '*', endpoint } });
      expect({ endpoint, status: refused.status }).toEqual({ endpoint, status: 400 });
      expect(refused.body.error.details?.map((d) => d.field)).toEqual(['endpoint']);
    }
    const registered = await api<{ id: string }>('POST', '/v1/webhooks', { auth: live, body: { event: '*', endpoint: 'https://hooks.example.invalid/live' } });
    expect(registered.status).toBe(201);
    const moved = await api<ErrorBody>('PATCH', `/v1/webhooks/${registered.body.id}`, { auth: live, body: { endpoint: receiver.endpoint() } });
    expect(moved.status).toBe(400);
    expect(moved.body.error.details?.map((d) => d.field)).toEqual(['endpoint']);
    expect((await api<{ items: unknown[] }>('GET', '/v1/webhooks', { auth: live })).body.items).toHaveLength(1);

    const sandbox = await createClient(platform.adminUrl, platform.adminToken, 'Sandbox Store');
    expect((await api('POST', '/v1/webhooks', { auth: sandbox, body: { event: '*', endpoint: receiver.endpoint() } })).status).toBe(201);
  });

  it("never delivers to a live client's webhook that points at loopback (one registered before the check), and its log tells nothing learnt by connecting", async () => {
    const live = await liveClient('Live Legacy');
    const registered = await api<{ id: string }>('POST', '/v1/webhooks', { auth: live, body: { event: '*', endpoint: 'https://hooks.example.invalid/legacy' } });
    expect(registered.status).toBe(201);
    // What the switch let every client register until now: the row is moved to the receiver behind the API's back.
    const endpoint = receiver.endpoint();
    const db = new Client({ connectionString: platform.databaseUrl('webhooks') });
    await db.connect();
    try {
      await db.query('UPDATE webhooks SET endpoint = $1 WHERE id = $2', [endpoint, registered.body.id]);
    } finally {
      await db.end();
    }
    const customer = await api('POST', '/v1/customers', {
      auth: live,
      body: { name: 'Ana Souza', email: 'ana.legacy@example.com', phoneNumber: '11999990000', document: { type: 'cpf', number: '52998224725', country: 'BR' } },
    });
    expect(customer.status).toBe(201);
    const attempts = await eventually(async () => {
      const page = await api<{ items: Array<{ status: string; attempts: Attempt[] }> }>('GET', `/v1/webhooks/${registered.body.id}/deliveries`, { auth: live });
      const delivery = page.body.items[0];
      return delivery && delivery.status !== 'pending' ? delivery.attempts : undefined;
    }, "the live client's delivery");
    expect(receiver.at(endpoint)).toEqual([]);
    expect(attempts).toHaveLength(1);
    expect(attempts[0]!.statusCode).toBeNull();
    // The host as the client wrote it, nothing learnt by connecting: no port, no answer, no protocol error.
    expect(attempts[0]!.error).toBe('refused: 127.0.0.1 is not a public address; only public addresses receive webhooks');
  });

  /** Uploads an SVG logo for the client default and answers what its URL serves. */
  async function uploadAndServe(client: Credentials, svg: string): Promise<{ status: number; type: string | null; csp: string | null; text: string }> {
    const form = new FormData();
    form.set('logo', new Blob([svg], { type: 'image/svg+xml' }), 'logo.svg');
    const saved = await api<{ logo: string }>('PATCH', '/v1/settings', { auth: client, form });
    expect(saved.status).toBe(200);
    const served = await fetch(saved.body.logo.replace(/^https?:\/\/[^/]+/, platform.gatewayUrl));
    return { status: served.status, type: served.headers.get('content-type'), csp: served.headers.get('content-security-policy'), text: await served.text() };
  }

  it.each(SVG_BYPASSES)('serves an SVG logo with %s inert, under its sandbox CSP', async (_what, svg) => {
    const client = await createClient(platform.adminUrl, platform.adminToken, 'Logo Store');
    await api('POST', '/v1/settings', { auth: client, body: { mainColor: '#0a84ff' } });
    const served = await uploadAndServe(client, svg);
    expect(served.status).toBe(200);
    expect(served.type).toMatch(/^image\/svg\+xml/);
    expect(served.csp).toContain('sandbox');
    for (const active of ACTIVE_SVG) expect({ active: String(active), found: active.test(served.text) }).toEqual({ active: String(active), found: false });
    expect(served.text).toContain('<rect');
  });

  it('serves a normal SVG logo as drawn, with its CSP', async () => {
    const client = await createClient(platform.adminUrl, platform.adminToken, 'Logo Store');
    await api('POST', '/v1/settings', { auth: client, body: { mainColor: '#0a84ff' } });
    const served = await uploadAndServe(client, NORMAL_SVG);
    expect(served).toMatchObject({ status: 200, csp: "default-src 'none'; style-src 'unsafe-inline'; sandbox" });
    expect(served.type).toMatch(/^image\/svg\+xml/);
    for (const kept of ['viewBox="0 0 120 40"', '<linearGradient id="g"', 'fill="url(#g)"', '>Loja</text>']) expect(served.text).toContain(kept);
  });
});
