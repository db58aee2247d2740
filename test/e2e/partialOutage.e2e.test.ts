import { cardNumberEnding, eventually } from '@platform/testkit';
import { apiClient, createClient, startTestPlatform, type Credentials, type TestPlatform } from './platform';

interface Health {
  status: string;
  services: Record<string, string>;
}

const expiration = `12/${new Date().getUTCFullYear() + 5}`;

/** The value of `gateway_upstream_up` for one upstream in a Prometheus text, or undefined when absent. */
function upstreamUp(metrics: string, upstream: string): number | undefined {
  const line = metrics.split('\n').find((l) => l.startsWith(`gateway_upstream_up{`) && l.includes(`upstream="${upstream}"`));
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1));
}

describe('one sick service never takes the whole API down', () => {
  let platform: TestPlatform;
  let api: ReturnType<typeof apiClient>;
  let client: Credentials;
  let merchantId: string;

  beforeAll(async () => {
    platform = await startTestPlatform('e2eoutage');
    api = apiClient(platform.gatewayUrl);
    client = await createClient(platform.adminUrl, platform.adminToken, 'Outage Store');
    const merchant = await api<{ id: string }>('POST', '/v1/merchants', {
      auth: client,
      body: { mcc: '5999', name: 'Loja Resiliente', providers: [{ name: 'sandbox', priority: 1, credentials: { type: 'SANDBOX' } }] },
    });
    expect(merchant.status).toBe(201);
    merchantId = merchant.body.id;
  });
  afterAll(async () => {
    await platform?.stop();
  });

  const cardCharge = () =>
    api<{ id: string; status: string; amount: number }>('POST', '/v1/charges', {
      auth: client,
      body: {
        merchantId,
        amount: 4_990,
        currency: 'BRL',
        paymentMethod: { paymentType: 'credit', installments: 1 },
        paymentSource: { sourceType: 'card', card: { cardHolderName: 'Ana Souza', cardNumber: cardNumberEnding(0), cardCvv: '123', cardExpirationDate: expiration } },
      },
    });

  it('stays ready with sessions stopped: sessions routes answer 503 with Retry-After, a card charge and the other routes work', async () => {
    const before = await api<Health>('GET', '/health');
    expect(before.status).toBe(200);
    expect(before.body.status).toBe('ok');
    expect((await api('GET', '/v1/sessions', { auth: client })).status).toBe(200);

    for (const replica of platform.replicas.sessions) await replica.process.stop();
    expect(platform.replicas.sessions.map((r) => r.process.running())).toEqual(platform.replicas.sessions.map(() => false));

    // Readiness: still 200, with sessions shown down and every other upstream serving.
    const health = await api<Health>('GET', '/health');
    expect(health.status).toBe(200);
    expect(health.body.status).toBe('degraded');
    expect(health.body.services.sessions).toBe('UNREACHABLE');
    expect(Object.entries(health.body.services).filter(([name]) => name !== 'sessions')).toEqual(
      Object.keys(health.body.services)
        .filter((name) => name !== 'sessions')
        .map((name) => [name, 'SERVING']),
    );
    expect(upstreamUp(await platform.metrics('gateway'), 'sessions')).toBe(0);
    expect(upstreamUp(await platform.metrics('gateway'), 'payments')).toBe(1);

    // The routes of sessions: 503, the envelope, Retry-After in seconds.
    for (const [method, route, body] of [
      ['GET', '/v1/sessions', undefined],
      ['GET', '/v1/sessions/0f3e8a2c-71f4-4b1e-9b55-3c0c2d7e9a41', undefined],
      ['POST', '/v1/sessions', { merchantId, name: 'Pedido 7', paymentMethods: [{ paymentType: 'credit', installments: 1 }], items: [{ name: 'Camiseta', unitPrice: 4_000, quantity: 1 }] }],
    ] as const) {
      const res = await api<{ error: Record<string, unknown> }>(method, route, { auth: client, body });
      expect({ route: `${method} ${route}`, status: res.status, retryAfter: res.headers.get('retry-after') }).toEqual({ route: `${method} ${route}`, status: 503, retryAfter: '5' });
      expect(res.body).toEqual({ error: { type: 'api_error', code: 503, message: expect.any(String) } });
    }

    // Everything else: a card charge, reads of other services.
    const charge = await cardCharge();
    expect(charge.status).toBe(201);
    expect(charge.body).toMatchObject({ status: 'authorized', amount: 4_990 });
    const read = await api<{ id: string; status: string }>('GET', `/v1/charges/${charge.body.id}`, { auth: client });
    expect(read.status).toBe(200);
    expect(read.body.status).toBe('authorized');
    expect((await api('GET', `/v1/merchants/${merchantId}`, { auth: client })).status).toBe(200);
    expect((await api('GET', '/v1/customers', { auth: client })).status).toBe(200);

    // Back: the gateway finds sessions again by itself.
    await platform.restart('sessions');
    const healed = await eventually(
      async () => {
        const res = await api<Health>('GET', '/health');
        return res.status === 200 && res.body.status === 'ok' ? res : undefined;
      },
      'every upstream serving again',
      { timeoutMs: 20_000, intervalMs: 200 },
    );
    expect(healed.body.services.sessions).toBe('SERVING');
    const sessions = await eventually(
      async () => {
        const res = await api('GET', '/v1/sessions', { auth: client });
        return res.status === 503 ? undefined : res;
      },
      'sessions routes served again',
      { timeoutMs: 20_000, intervalMs: 200 },
    );
    expect(sessions.status).toBe(200);
    expect(upstreamUp(await platform.metrics('gateway'), 'sessions')).toBe(1);
  });
});
