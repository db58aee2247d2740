import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { SERVICES } from '@platform/catalog';
import type { settings } from '@platform/contracts';
import { AppError } from '@platform/kit';
import request from 'supertest';
import type { AppConfig } from '../src/app';
import { loadGatewayConfig } from '../src/config';
import { buildGateway, sampleCustomer, ADMIN_TOKEN } from './helpers';

const NOISY = '11111111-1111-4111-8111-111111111111';
const QUIET = '22222222-2222-4222-8222-222222222222';
const KEYS: Record<string, string> = { sk_noisy: NOISY, sk_quiet: QUIET };
const credentials = (key: string) => ({ 'x-client-id': KEYS[key] ?? NOISY, 'x-api-key': key });

const emptyPage = { items: [], meta: { itemCount: 0, totalItems: 0, itemsPerPage: 10, totalPages: 0, currentPage: 1 } };
/** Upstream answers take a few milliseconds, as a real service's do, so latency has something to compare. */
const UPSTREAM_MS = 5;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function authenticate(req: settings.AuthenticateRequest): Promise<settings.AuthenticateResponse> {
  const clientId = KEYS[req.apiKey];
  if (!clientId || clientId !== req.clientId) throw new AppError('unauthenticated', 'Invalid client id or API key');
  return {
    client: { id: clientId, name: 'Store', environment: 'sandbox', prepaymentEnabled: false, createdAt: new Date('2026-01-02T03:04:05.678Z') },
    keyKind: 'secret',
    scopes: [],
    keyId: `key-${req.apiKey}`,
  };
}

function gateway(config: Partial<AppConfig>) {
  return buildGateway({
    settings: { authenticate },
    customers: {
      listCustomers: async () => {
        await sleep(UPSTREAM_MS);
        return emptyPage;
      },
      deleteCustomer: async () => sampleCustomer(),
    },
    config: { RATE_LIMIT_ENABLED: true, ...config },
  });
}

/** A GET of /v1/customers sent from a given local address (any of 127.0.0.0/8 reaches the loopback listener). */
function callFrom(port: number, localAddress: string, headers: Record<string, string>): Promise<{ status: number }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path: '/v1/customers', method: 'GET', localAddress, headers, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0 }));
    });
    req.on('error', reject);
    req.end();
  });
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

describe('per-client rate limits', () => {
  let server: Server | undefined;
  afterEach(async () => {
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    server = undefined;
  });

  /** The app on a real port, so a flood and another client's requests run side by side. */
  const listen = async (config: Partial<AppConfig>) => {
    const gw = gateway(config);
    server = gw.app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server!.once('listening', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const call = async (method: string, path: string, headers: Record<string, string> = {}) => {
      const started = performance.now();
      const res = await fetch(`${base}${path}`, { method, headers });
      const body = (await res.json()) as { error?: Record<string, unknown> };
      return { status: res.status, headers: res.headers, body, ms: performance.now() - started };
    };
    const port = (server.address() as AddressInfo).port;
    return { gw, call, port, get: (key: string) => call('GET', '/v1/customers', credentials(key)) };
  };
  const CUSTOMER = '/v1/customers/0d6c9a53-0b3e-4d36-9a39-0f2a8c5b3e11';

  it('answers a client far past its limit 429 with Retry-After, while another client is served as usual', async () => {
    const { get } = await listen({ RATE_LIMIT_READS_PER_SECOND: 5, RATE_LIMIT_BURST: 0 });
    // The quiet client sends a request every 300 ms, under its limit of 5 a second: first alone, for the baseline.
    const paced = async (count: number) => {
      const results = [];
      for (let i = 0; i < count; i++) {
        results.push(await get('sk_quiet'));
        await sleep(300);
      }
      return results;
    };
    await get('sk_quiet'); // warms the credentials cache and the connection
    await sleep(1100);
    const baseline = await paced(12);
    expect(baseline.map((r) => r.status)).toEqual(Array(12).fill(200));

    // Then the same again while the noisy client sends request after request, far past its limit.
    let flooding = true;
    const noisy: Array<Awaited<ReturnType<typeof get>>> = [];
    const flood = async () => {
      while (flooding) {
        noisy.push(await get('sk_noisy'));
        // A breath between requests, so the load generator in this same process leaves the server its turn.
        await sleep(5);
      }
    };
    const floodStarted = performance.now();
    const worker = flood();
    await sleep(100);
    const during = await paced(12);
    flooding = false;
    await worker;
    const floodSeconds = (performance.now() - floodStarted) / 1000;

    // Not one of the quiet client's requests was refused or held back: its median latency stays of the order of its
    // baseline. The margin is wide on purpose (this process runs the flood too, on a small shared machine, and
    // speed is the benchmark's business); what it catches is a limiter that queues or delays other clients.
    expect(during.map((r) => r.status)).toEqual(Array(12).fill(200));
    const before = median(baseline.map((r) => r.ms));
    const after = median(during.map((r) => r.ms));
    expect(after).toBeLessThan(Math.max(5 * before, before + 250));

    // The noisy client sent several times its limit and most of it was refused, each refusal in the envelope.
    const refused = noisy.filter((r) => r.status === 429);
    const served = noisy.filter((r) => r.status === 200);
    expect(served.length + refused.length).toBe(noisy.length);
    expect(refused.length).toBeGreaterThan(served.length);
    // At most 5 in each one-second window the flood touched.
    expect(served.length).toBeLessThanOrEqual(5 * (Math.ceil(floodSeconds) + 1));
    for (const r of refused) {
      expect(r.body).toEqual({ error: { type: 'invalid_request_error', code: 429, message: expect.any(String), key: 'rate_limited' } });
      expect(r.headers.get('retry-after')).toBe('1');
      expect(r.headers.get('ratelimit-limit')).toBe('5');
      expect(r.headers.get('ratelimit-remaining')).toBe('0');
    }
  });

  it('counts reads and writes apart, and says what is left in RateLimit-* headers', async () => {
    const { gw, call } = await listen({ RATE_LIMIT_READS_PER_SECOND: 50, RATE_LIMIT_WRITES_PER_SECOND: 3, RATE_LIMIT_BURST: 0 });
    const first = await call('DELETE', CUSTOMER, credentials('sk_noisy'));
    expect(first.status).toBe(200);
    expect(first.headers.get('ratelimit-limit')).toBe('3');
    expect(first.headers.get('ratelimit-remaining')).toBe('2');
    expect(first.headers.get('ratelimit-reset')).toBe('1');
    let refusal: Awaited<ReturnType<typeof call>> | undefined;
    let served = 1;
    const started = performance.now();
    for (let i = 0; i < 50 && !refusal; i++) {
      const r = await call('DELETE', CUSTOMER, credentials('sk_noisy'));
      if (r.status === 429) refusal = r;
      else served++;
    }
    expect(refusal?.body.error).toMatchObject({ code: 429, key: 'rate_limited' });
    expect(served).toBeLessThanOrEqual(3 * (Math.ceil((performance.now() - started) / 1000) + 1));
    // Right after, a read is the first of its own count: writes did not use it up.
    const read = await call('GET', '/v1/customers', credentials('sk_noisy'));
    expect(read.status).toBe(200);
    expect(read.headers.get('ratelimit-limit')).toBe('50');
    expect(read.headers.get('ratelimit-remaining')).toBe('49');
    // The upstream saw only what was let through.
    expect(gw.customersCalls.filter((c) => c.method === 'deleteCustomer')).toHaveLength(served);
  });

  it('lets a client spend its burst above the rate, then refuses', async () => {
    const servedUntilRefused = async (burst: number) => {
      const { call } = await listen({ RATE_LIMIT_WRITES_PER_SECOND: 1, RATE_LIMIT_BURST: burst });
      const started = performance.now();
      let served = 0;
      for (let i = 0; i < 50; i++) {
        if ((await call('DELETE', CUSTOMER, credentials('sk_quiet'))).status === 429) break;
        served++;
      }
      await new Promise<void>((resolve) => server!.close(() => resolve()));
      server = undefined;
      return { served, seconds: (performance.now() - started) / 1000 };
    };
    const withBurst = await servedUntilRefused(5);
    // The rate's one, and the burst's five, at least; at most one more per second the run took.
    expect(withBurst.served).toBeGreaterThanOrEqual(6);
    expect(withBurst.served).toBeLessThanOrEqual(6 + Math.ceil(withBurst.seconds));
    const without = await servedUntilRefused(0);
    expect(without.served).toBeLessThanOrEqual(Math.ceil(without.seconds) + 1);
  });

  it('limits refused credentials per address, yet serves every request whose credentials are right, first ones included', async () => {
    const { gw, call } = await listen({ RATE_LIMIT_UNAUTHENTICATED_PER_SECOND: 5 });
    const guesses: number[] = [];
    const honest: number[] = [];
    // Another process on the same address guesses keys; the honest client (never seen before) calls in between.
    for (let i = 0; i < 200 && guesses.filter((s) => s === 429).length < 3; i++) {
      guesses.push((await call('GET', '/v1/customers', { 'x-client-id': NOISY, 'x-api-key': `guess-${i}` })).status);
      if (i % 2 === 0) honest.push((await call('GET', '/v1/customers', credentials(i % 4 === 0 ? 'sk_quiet' : 'sk_noisy'))).status);
    }
    // The guesses are answered 401 up to the limit, then 429; the honest requests are all served.
    expect(guesses.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(guesses).toContain(429);
    expect(new Set(guesses)).toEqual(new Set([401, 429]));
    expect(honest.length).toBeGreaterThan(3);
    expect(honest).toEqual(Array(honest.length).fill(200));
    const refusal = await call('GET', '/v1/customers', { 'x-client-id': NOISY, 'x-api-key': 'guess-last' });
    if (refusal.status === 429) {
      expect(refusal.body.error).toMatchObject({ code: 429, key: 'rate_limited' });
      expect(Number(refusal.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    } else {
      // A slow machine let the window end first: the guess is then simply refused.
      expect(refusal.status).toBe(401);
    }
    // Public routes have their own count per address: the guesses did not use it up.
    expect((await call('GET', '/v1/openapi.json')).status).toBe(200);
    expect(gw.customersCalls.filter((c) => c.method === 'listCustomers')).toHaveLength(honest.length);
  });

  it('limits refused credentials per targeted client id from any address, without refusing that client its right key', async () => {
    const { gw, port } = await listen({ RATE_LIMIT_UNAUTHENTICATED_PER_SECOND: 1000, RATE_LIMIT_FAILED_AUTH_PER_CLIENT_ID_PER_SECOND: 3 });
    // Guesses at one client id come from three loopback addresses in turn, each far under its own limit.
    const addresses = ['127.0.0.1', '127.0.0.2', '127.0.0.3'];
    const guesses: number[] = [];
    for (let i = 0; i < 100 && !guesses.includes(429); i++) {
      guesses.push((await callFrom(port, addresses[i % 3]!, { 'x-client-id': QUIET, 'x-api-key': `guess-${i}` })).status);
    }
    expect(guesses.slice(0, 3)).toEqual([401, 401, 401]);
    expect(guesses.at(-1)).toBe(429);
    // The targeted client's own key is still served, from any of those addresses, and other client ids are unaffected.
    for (const address of addresses) expect((await callFrom(port, address, credentials('sk_quiet'))).status).toBe(200);
    expect((await callFrom(port, '127.0.0.2', { 'x-client-id': NOISY, 'x-api-key': 'guess-other' })).status).toBe(401);
    expect(gw.customersCalls.filter((c) => c.method === 'listCustomers')).toHaveLength(3);
  });

  it('limits public and admin routes per address, but never the readiness probe', async () => {
    const { call } = await listen({ RATE_LIMIT_UNAUTHENTICATED_PER_SECOND: 3 });
    const statuses: number[] = [];
    for (let i = 0; i < 50 && !statuses.includes(429); i++) statuses.push((await call('GET', '/v1/openapi.json')).status);
    expect(statuses.slice(0, 3)).toEqual([200, 200, 200]);
    expect(statuses.at(-1)).toBe(429);
    // The address is over its limit; GET /health (the readiness probe, from the node's address) is still answered.
    const probes: number[] = [];
    for (let i = 0; i < 10; i++) probes.push((await call('GET', '/health')).status);
    expect(probes).toEqual(Array(10).fill(200));
    // The admin API, on its own listener, counts per address too.
    const gw = gateway({ RATE_LIMIT_UNAUTHENTICATED_PER_SECOND: 3 });
    const admin: number[] = [];
    for (let i = 0; i < 50 && !admin.includes(429); i++) admin.push((await request(gw.admin).post('/admin/v1/clients').set('x-admin-token', ADMIN_TOKEN).send({})).status);
    expect(admin.slice(0, 3)).toEqual([400, 400, 400]);
    expect(admin.at(-1)).toBe(429);
  });

  it('has no limits when RATE_LIMIT_ENABLED is false', async () => {
    const gw = gateway({ RATE_LIMIT_ENABLED: false, RATE_LIMIT_WRITES_PER_SECOND: 1, RATE_LIMIT_BURST: 0 });
    for (let i = 0; i < 5; i++) {
      const res = await request(gw.app).delete('/v1/customers/0d6c9a53-0b3e-4d36-9a39-0f2a8c5b3e11').set(credentials('sk_quiet'));
      expect(res.status).toBe(200);
      expect(res.headers['ratelimit-limit']).toBeUndefined();
    }
  });

  it('documents 429 with the error envelope on every operation', async () => {
    const gw = gateway({});
    const paths = (await request(gw.app).get('/v1/openapi.json')).body.paths as Record<
      string,
      Record<string, { responses: Record<string, { content?: Record<string, { schema: { $ref?: string } }> }> }>
    >;
    const operations = Object.values(paths).flatMap((ops) => Object.values(ops));
    expect(operations.length).toBeGreaterThan(40);
    for (const op of operations) expect(op.responses['429']?.content?.['application/json']?.schema.$ref).toBe('#/components/schemas/Error');
  });

  it('reads its limits from the environment, on by default with generous defaults', () => {
    // Every service of the catalog has an address, so a service added later needs no change here.
    const base = { ...Object.fromEntries(SERVICES.map((s, i) => [s.addressEnv, `a:${i + 1}`])), ADMIN_TOKEN };
    expect(loadGatewayConfig(base)).toMatchObject({
      RATE_LIMIT_ENABLED: true,
      RATE_LIMIT_READS_PER_SECOND: 500,
      RATE_LIMIT_WRITES_PER_SECOND: 200,
      RATE_LIMIT_BURST: 1000,
      RATE_LIMIT_UNAUTHENTICATED_PER_SECOND: 50,
      RATE_LIMIT_FAILED_AUTH_PER_CLIENT_ID_PER_SECOND: 10,
    });
    expect(
      loadGatewayConfig({ ...base, RATE_LIMIT_ENABLED: 'false', RATE_LIMIT_READS_PER_SECOND: '7', RATE_LIMIT_WRITES_PER_SECOND: '3', RATE_LIMIT_BURST: '0' }),
    ).toMatchObject({ RATE_LIMIT_ENABLED: false, RATE_LIMIT_READS_PER_SECOND: 7, RATE_LIMIT_WRITES_PER_SECOND: 3, RATE_LIMIT_BURST: 0 });
    expect(() => loadGatewayConfig({ ...base, RATE_LIMIT_WRITES_PER_SECOND: '0' })).toThrow();
  });
});

describe('the client address behind a proxy (TRUST_PROXY)', () => {
  const servers: Server[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => new Promise<void>((resolve) => server.close(() => resolve()))));
  });

  const listening = async (server: Server): Promise<number> => {
    servers.push(server);
    server.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    return (server.address() as AddressInfo).port;
  };

  /** A forwarding proxy, as an ingress controller is: it appends the address it was called from to X-Forwarded-For. */
  const forwardingProxy = (target: number) =>
    listening(
      http.createServer((req, res) => {
        const forwarded = [req.headers['x-forwarded-for'], req.socket.remoteAddress].filter(Boolean).join(', ');
        const upstream = http.request(
          { host: '127.0.0.1', port: target, path: req.url, method: req.method, headers: { ...req.headers, 'x-forwarded-for': forwarded }, agent: false },
          (answer) => {
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            answer.pipe(res);
          },
        );
        upstream.on('error', () => res.destroy());
        req.pipe(upstream);
      }),
    );

  /** The gateway (limits on, 3 unauthenticated requests a second per address) on a port, with its access log. */
  const gatewayOn = async (config: Partial<AppConfig>) => {
    const gw = gateway({ RATE_LIMIT_UNAUTHENTICATED_PER_SECOND: 3, ...config });
    return { gw, port: await listening(http.createServer(gw.app)) };
  };

  /**
   * A GET of a public route (the OpenAPI document, counted per address as a checkout page is; the health check is
   * never counted) from a local address, with some headers.
   */
  function publicCall(port: number, localAddress: string, headers: Record<string, string> = {}): Promise<{ status: number; remaining: number }> {
    return new Promise((resolve, reject) => {
      const req = http.request({ host: '127.0.0.1', port, path: '/v1/openapi.json', method: 'GET', localAddress, headers, agent: false }, (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, remaining: Number(res.headers['ratelimit-remaining']) }));
      });
      req.on('error', reject);
      req.end();
    });
  }

  /** Buyer A calls until refused; then buyer B, from another address, calls once. */
  const floodThenOther = async (port: number, headersOfA: (i: number) => Record<string, string> = () => ({})) => {
    const a: number[] = [];
    for (let i = 0; i < 50 && !a.includes(429); i++) a.push((await publicCall(port, '127.0.0.2', headersOfA(i))).status);
    const b = await publicCall(port, '127.0.0.3');
    return { a, b };
  };

  it('with TRUST_PROXY=1, two buyers behind the same proxy have a limit each, and the log names each buyer', async () => {
    const { gw, port } = await gatewayOn({ TRUST_PROXY: 1 });
    const proxy = await forwardingProxy(port);
    const { a, b } = await floodThenOther(proxy);
    expect(a.slice(0, 3)).toEqual([200, 200, 200]);
    expect(a.at(-1)).toBe(429);
    // B's own count is untouched by A's: its first request is served with the full limit less itself.
    expect(b).toEqual({ status: 200, remaining: 2 });
    const clientIps = gw.lines.filter((l) => l.msg === 'GET /v1/openapi.json 200').map((l) => (l.req as { clientIp: string }).clientIp);
    expect(new Set(clientIps)).toEqual(new Set(['127.0.0.2', '127.0.0.3']));
  });

  it('with TRUST_PROXY=1, an X-Forwarded-For the buyer forged does not give it another limit', async () => {
    const { port } = await gatewayOn({ TRUST_PROXY: 1 });
    const proxy = await forwardingProxy(port);
    // Each request claims another address; the proxy appends the real one, which is the one believed.
    const { a } = await floodThenOther(proxy, (i) => ({ 'x-forwarded-for': `203.0.113.${i + 1}` }));
    expect(a.slice(0, 3)).toEqual([200, 200, 200]);
    expect(a.at(-1)).toBe(429);
  });

  it('with a TRUST_PROXY list of addresses, only those proxies are believed', async () => {
    const { gw, port } = await gatewayOn({ TRUST_PROXY: ['127.0.0.1/32', '10.0.0.0/8'] });
    const proxy = await forwardingProxy(port);
    expect((await publicCall(proxy, '127.0.0.2')).status).toBe(200);
    // A caller that is not a listed proxy (127.0.0.4) is itself the client, whatever it forwards.
    expect((await publicCall(port, '127.0.0.4', { 'x-forwarded-for': '198.51.100.7' })).status).toBe(200);
    const clientIps = gw.lines.filter((l) => l.msg === 'GET /v1/openapi.json 200').map((l) => (l.req as { clientIp: string }).clientIp);
    expect(clientIps).toEqual(['127.0.0.2', '127.0.0.4']);
  });

  it('without TRUST_PROXY, buyers behind a proxy share its address, and a forged X-Forwarded-For changes nothing', async () => {
    const { gw, port } = await gatewayOn({});
    const proxy = await forwardingProxy(port);
    const behind = await publicCall(proxy, '127.0.0.2');
    const other = await publicCall(proxy, '127.0.0.3');
    expect(behind).toEqual({ status: 200, remaining: 2 });
    // The second buyer used the proxy's count: one request fewer left.
    expect(other.remaining).toBe(1);
    // Straight to the gateway, each request claiming another address: all are counted against the one socket address.
    const direct: number[] = [];
    for (let i = 0; i < 50 && !direct.includes(429); i++) direct.push((await publicCall(port, '127.0.0.5', { 'x-forwarded-for': `198.51.100.${i + 1}` })).status);
    expect(direct.slice(0, 3)).toEqual([200, 200, 200]);
    expect(direct.at(-1)).toBe(429);
    const clientIps = new Set(gw.lines.filter((l) => l.msg === 'GET /v1/openapi.json 200').map((l) => (l.req as { clientIp: string }).clientIp));
    expect(clientIps).toEqual(new Set(['127.0.0.1', '127.0.0.5']));
  });
});
