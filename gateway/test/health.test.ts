import { Server, ServerCredentials } from '@grpc/grpc-js';
import { HealthImplementation } from 'grpc-health-check';
import request from 'supertest';
import { createApp } from '../src/app';
import { SERVICES } from '@platform/catalog';
import { createGrpcClients, UPSTREAMS, type Upstream } from '../src/clients';
import { buildGateway, captureLogger, PUBLIC_URL } from './helpers';

/** Every upstream with `status`, except those given. */
const statuses = (status: string, except: Partial<Record<Upstream, string>> = {}) => Object.fromEntries(UPSTREAMS.map((name) => [name, except[name] ?? status]));
/** Every upstream at `address`, except those given. */
const addresses = (address: string, except: Partial<Record<Upstream, string>> = {}) =>
  Object.fromEntries(UPSTREAMS.map((name) => [name, except[name] ?? address])) as Record<Upstream, string>;

describe('GET /health', () => {
  it('answers 200 when every upstream is SERVING, without auth', async () => {
    const gw = buildGateway();
    const res = await request(gw.app).get('/health');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok', services: statuses('SERVING') });
    expect(gw.settingsCalls).toHaveLength(0);
    // JSON answers are not hashed into an ETag (only routes whose answers are cached set one).
    expect(res.headers.etag).toBeUndefined();
  });

  it('stays ready (200) and says degraded when one is not serving or its probe fails', async () => {
    const gw = buildGateway({
      health: {
        customers: async () => 'NOT_SERVING',
        settings: async () => {
          throw new Error('boom');
        },
      },
    });
    const res = await request(gw.app).get('/health');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'degraded', services: statuses('SERVING', { settings: 'UNREACHABLE', customers: 'NOT_SERVING' }) });
    const payments = await request(buildGateway({ health: { payments: async () => 'SERVICE_UNKNOWN' } }).app).get('/health');
    expect(payments.status).toBe(200);
    expect(payments.body).toEqual({ status: 'degraded', services: statuses('SERVING', { payments: 'SERVICE_UNKNOWN' }) });
  });

  describe('against a real grpc.health.v1 server', () => {
    let server: Server;
    let health: HealthImplementation;
    let address: string;

    beforeAll(async () => {
      server = new Server();
      health = new HealthImplementation(
        Object.fromEntries(SERVICES.map((s) => [s.grpcService, s.name === 'customers' ? 'NOT_SERVING' : 'SERVING'])),
      );
      health.addToServer(server);
      const port = await new Promise<number>((resolve, reject) =>
        server.bindAsync('127.0.0.1:0', ServerCredentials.createInsecure(), (error, bound) => (error ? reject(error) : resolve(bound))),
      );
      address = `127.0.0.1:${port}`;
    });
    afterAll(() => server.forceShutdown());

    it('asks each upstream about its own service name', async () => {
      const clients = createGrpcClients({ addresses: addresses(address), healthTimeoutMs: 2000 });
      try {
        const app = createApp({
          clients,
          config: { PUBLIC_URL, AUTH_CACHE_TTL_MS: 2000, BODY_LIMIT: '1mb' },
          log: captureLogger().log,
        });
        const degraded = await request(app).get('/health');
        expect(degraded.status).toBe(200);
        expect(degraded.body.status).toBe('degraded');
        expect(degraded.body.services).toEqual(statuses('SERVING', { customers: 'NOT_SERVING' }));
        health.setStatus('customers.v1.CustomersService', 'SERVING');
        const ok = await request(app).get('/health');
        expect(ok.status).toBe(200);
        expect(ok.body).toEqual({ status: 'ok', services: statuses('SERVING') });
        health.setStatus('payments.v1.PaymentsService', 'NOT_SERVING');
        const payments = await request(app).get('/health');
        expect(payments.status).toBe(200);
        expect(payments.body.status).toBe('degraded');
        expect(payments.body.services.payments).toBe('NOT_SERVING');
        health.setStatus('payments.v1.PaymentsService', 'SERVING');
      } finally {
        clients.close();
      }
    });

    it('reports an upstream that does not answer as UNREACHABLE', async () => {
      const closed = new Server();
      const port = await new Promise<number>((resolve, reject) =>
        closed.bindAsync('127.0.0.1:0', ServerCredentials.createInsecure(), (error, bound) => (error ? reject(error) : resolve(bound))),
      );
      await new Promise<void>((resolve) => closed.tryShutdown(() => resolve()));
      const clients = createGrpcClients({ addresses: addresses(address, { customers: `127.0.0.1:${port}` }), healthTimeoutMs: 2000 });
      try {
        const app = createApp({ clients, config: { PUBLIC_URL, AUTH_CACHE_TTL_MS: 2000, BODY_LIMIT: '1mb' }, log: captureLogger().log });
        const res = await request(app).get('/health');
        expect(res.status).toBe(200);
        expect(res.body.services.customers).toBe('UNREACHABLE');
      } finally {
        clients.close();
      }
    });
  });
});
