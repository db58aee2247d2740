import net from 'node:net';
import { Server, ServerCredentials } from '@grpc/grpc-js';
import { SERVICES } from '@platform/catalog';
import { AppError, metricsRegistry, scrape, type CallMeta } from '@platform/kit';
import { HealthImplementation } from 'grpc-health-check';
import request from 'supertest';
import { createGrpcClients, UPSTREAMS, type ClosableClients, type Upstream } from '../src/clients';
import { UNAVAILABLE_RETRY_AFTER_SECONDS } from '../src/http/errors';
import { auth, buildGateway, sampleCustomer } from './helpers';

/** One sick service never takes the whole API down: readiness, the routes of a service that is down, the others. */

const meta = { itemCount: 1, totalItems: 1, itemsPerPage: 10, totalPages: 1, currentPage: 1 };
const SESSION_ID = '0f3e8a2c-71f4-4b1e-9b55-3c0c2d7e9a41';
const ENVELOPE_503 = { error: { type: 'api_error', code: 503, message: expect.any(String) } };

/** The value of `gateway_upstream_up` for each upstream, as the registry holds it now. */
async function upstreamUp(): Promise<Record<string, number>> {
  const metric = await metricsRegistry.getSingleMetric('gateway_upstream_up')?.get();
  return Object.fromEntries((metric?.values ?? []).map((v) => [String(v.labels.upstream), v.value]));
}

/** Every service by its name (the gauge's `upstream` label) at 1, except the upstreams given. */
const allUp = (except: Partial<Record<Upstream, number>> = {}) => Object.fromEntries(SERVICES.map((s) => [s.name, except[s.client] ?? 1]));

async function bind(server: Server): Promise<number> {
  return new Promise<number>((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', ServerCredentials.createInsecure(), (error, port) => (error ? reject(error) : resolve(port))),
  );
}

/** An address where nothing listens any more: a connection to it is refused. */
async function closedAddress(): Promise<string> {
  const server = new Server();
  const port = await bind(server);
  await new Promise<void>((resolve) => server.tryShutdown(() => resolve()));
  return `127.0.0.1:${port}`;
}

describe('one upstream down', () => {
  it('keeps GET /health ready (200) while it lists the upstream that is not serving, and the gauge says which', async () => {
    const gw = buildGateway({
      health: {
        sessions: async () => 'UNREACHABLE',
        payments: async () => {
          throw new Error('probe failed');
        },
      },
    });
    const res = await request(gw.app).get('/health');
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('degraded');
    expect(res.body.services).toEqual(Object.fromEntries(UPSTREAMS.map((name) => [name, name === 'sessions' || name === 'payments' ? 'UNREACHABLE' : 'SERVING'])));
    expect(await upstreamUp()).toEqual(allUp({ sessions: 0, payments: 0 }));

    const healthy = await request(buildGateway().app).get('/health');
    expect(healthy.status).toBe(200);
    expect(healthy.body.status).toBe('ok');
    expect(await upstreamUp()).toEqual(allUp());
  });

  it('stays ready with every upstream down: readiness is the gateway serving, not its upstreams', async () => {
    const down = Object.fromEntries(UPSTREAMS.map((name) => [name, async () => 'NOT_SERVING'])) as Record<Upstream, () => Promise<string>>;
    const res = await request(buildGateway({ health: down }).app).get('/health');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'degraded', services: Object.fromEntries(UPSTREAMS.map((name) => [name, 'NOT_SERVING'])) });
  });

  it('answers 503 with the envelope and Retry-After on the routes of the service that is down, and serves every other route', async () => {
    const gw = buildGateway({
      health: { sessions: async () => 'UNREACHABLE' },
      sessions: {
        listSessions: async () => {
          throw new AppError('unavailable', 'A platform service is unavailable');
        },
      },
      customers: { listCustomers: async () => ({ items: [sampleCustomer()], meta }) },
    });
    const sessions = await request(gw.app).get('/v1/sessions').set(auth());
    expect(sessions.status).toBe(503);
    expect(sessions.headers['retry-after']).toBe(String(UNAVAILABLE_RETRY_AFTER_SECONDS));
    expect(sessions.body).toEqual({ error: { type: 'api_error', code: 503, message: 'A platform service is unavailable' } });
    const customers = await request(gw.app).get('/v1/customers').set(auth());
    expect(customers.status).toBe(200);
    expect(customers.headers['retry-after']).toBeUndefined();
  });

  it('gives Retry-After to no other error', async () => {
    for (const kind of ['internal', 'conflict', 'not_found'] as const) {
      const gw = buildGateway({
        sessions: {
          listSessions: async () => {
            throw new AppError(kind, 'no');
          },
        },
      });
      const res = await request(gw.app).get('/v1/sessions').set(auth());
      expect({ kind, retryAfter: res.headers['retry-after'] }).toEqual({ kind, retryAfter: undefined });
    }
  });

  it('answers the checkout page of a session with 503 and Retry-After while sessions is down', async () => {
    const gw = buildGateway({
      sessions: {
        getCheckoutSession: async () => {
          throw new AppError('unavailable', 'down');
        },
      },
    });
    const res = await request(gw.app).get(`/checkout/${SESSION_ID}`);
    expect(res.status).toBe(503);
    expect(res.headers['retry-after']).toBe(String(UNAVAILABLE_RETRY_AFTER_SECONDS));
  });

  describe('through real gRPC clients', () => {
    let clients: ClosableClients | undefined;
    let blackHole: net.Server | undefined;
    const holeSockets = new Set<net.Socket>();
    afterEach(async () => {
      clients?.close();
      clients = undefined;
      const hole = blackHole;
      blackHole = undefined;
      for (const socket of holeSockets) socket.destroy();
      holeSockets.clear();
      if (hole) await new Promise<void>((resolve) => hole.close(() => resolve()));
    });

    /** The gateway over fakes, but with the real sessions client of `clients`, each call bounded by `deadlineMs`. */
    const withRealSessions = (real: ClosableClients, deadlineMs: number) =>
      buildGateway({
        health: { sessions: real.health.sessions },
        sessions: { listSessions: (req: never, call?: CallMeta) => real.sessions.listSessions(req, { ...call, deadlineMs }) },
      });

    it('maps a refused connection (gRPC UNAVAILABLE) to 503 with Retry-After and the envelope', async () => {
      const address = await closedAddress();
      clients = createGrpcClients({ addresses: Object.fromEntries(UPSTREAMS.map((name) => [name, address])) as Record<Upstream, string>, healthTimeoutMs: 500 });
      const gw = withRealSessions(clients, 5000);
      const res = await request(gw.app).get('/v1/sessions').set(auth());
      expect(res.status).toBe(503);
      expect(res.headers['retry-after']).toBe(String(UNAVAILABLE_RETRY_AFTER_SECONDS));
      expect(res.body).toEqual(ENVELOPE_503);
      const health = await request(gw.app).get('/health');
      expect(health.status).toBe(200);
      expect(health.body.services.sessions).toBe('UNREACHABLE');
    });

    it('maps a deadline that passed before any connection (an address that never answers) to 503 with Retry-After', async () => {
      // Accepts the TCP connection and never says a word: no HTTP/2 session, so the call waits until its deadline.
      const hole = net.createServer((socket) => {
        holeSockets.add(socket);
        socket.on('error', () => undefined);
      });
      blackHole = hole;
      await new Promise<void>((resolve) => hole.listen(0, '127.0.0.1', () => resolve()));
      const address = `127.0.0.1:${(hole.address() as net.AddressInfo).port}`;
      clients = createGrpcClients({ addresses: Object.fromEntries(UPSTREAMS.map((name) => [name, address])) as Record<Upstream, string>, healthTimeoutMs: 300 });
      const gw = withRealSessions(clients, 300);
      const res = await request(gw.app).get('/v1/sessions').set(auth());
      expect(res.status).toBe(503);
      expect(res.headers['retry-after']).toBe(String(UNAVAILABLE_RETRY_AFTER_SECONDS));
      expect(res.body).toEqual(ENVELOPE_503);
    });

    it('sets gateway_upstream_up at each scrape of the metrics, until the clients are closed', async () => {
      const server = new Server();
      const health = new HealthImplementation(Object.fromEntries(SERVICES.map((s) => [s.grpcService, s.client === 'sessions' ? 'NOT_SERVING' : 'SERVING'])));
      health.addToServer(server);
      const address = `127.0.0.1:${await bind(server)}`;
      try {
        clients = createGrpcClients({ addresses: Object.fromEntries(UPSTREAMS.map((name) => [name, address])) as Record<Upstream, string>, healthTimeoutMs: 2000 });
        const text = await scrape();
        expect(text).toMatch(/^gateway_upstream_up\{upstream="sessions"\} 0$/m);
        expect(await upstreamUp()).toEqual(allUp({ sessions: 0 }));
        health.setStatus(SERVICES.find((s) => s.client === 'sessions')!.grpcService, 'SERVING');
        await scrape();
        expect(await upstreamUp()).toEqual(allUp());
        // Closed clients ask nothing more: the gauge keeps its last values.
        clients.close();
        clients = undefined;
        health.setStatus(SERVICES.find((s) => s.client === 'payments')!.grpcService, 'NOT_SERVING');
        await scrape();
        expect(await upstreamUp()).toEqual(allUp());
      } finally {
        server.forceShutdown();
      }
    });
  });
});
