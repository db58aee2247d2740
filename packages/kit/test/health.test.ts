import { Server, ServerCredentials } from '@grpc/grpc-js';
import { HealthImplementation } from 'grpc-health-check';
import { checkGrpcHealth, createGrpcHealthProbe, waitForGrpcHealth } from '../src';

async function freeAddressWithNothingListening(): Promise<string> {
  const server = new Server();
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', ServerCredentials.createInsecure(), (error, bound) => (error ? reject(error) : resolve(bound))),
  );
  server.forceShutdown();
  return `127.0.0.1:${port}`;
}

describe('gRPC health probe', () => {
  let server: Server;
  let health: HealthImplementation;
  let address: string;

  beforeAll(async () => {
    server = new Server();
    health = new HealthImplementation({ '': 'SERVING', 'settings.v1.SettingsService': 'SERVING', 'customers.v1.CustomersService': 'NOT_SERVING' });
    health.addToServer(server);
    const port = await new Promise<number>((resolve, reject) =>
      server.bindAsync('127.0.0.1:0', ServerCredentials.createInsecure(), (error, bound) => (error ? reject(error) : resolve(bound))),
    );
    address = `127.0.0.1:${port}`;
  });
  afterAll(() => server.forceShutdown());

  it('answers the status name the server reports for a service', async () => {
    expect(await checkGrpcHealth(address, 'settings.v1.SettingsService', 2000)).toBe('SERVING');
    expect(await checkGrpcHealth(address, 'customers.v1.CustomersService', 2000)).toBe('NOT_SERVING');
    expect(await checkGrpcHealth(address)).toBe('SERVING');
  });

  it('answers SERVICE_UNKNOWN for a name the server does not know', async () => {
    expect(await checkGrpcHealth(address, 'payments.v1.PaymentsService', 2000)).toBe('SERVICE_UNKNOWN');
  });

  it('answers UNREACHABLE when nothing answers within the timeout', async () => {
    const nowhere = await freeAddressWithNothingListening();
    const started = Date.now();
    expect(await checkGrpcHealth(nowhere, '', 300)).toBe('UNREACHABLE');
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('keeps one channel for repeated checks and follows status changes', async () => {
    const probe = createGrpcHealthProbe(address, 'settings.v1.SettingsService', 2000);
    try {
      expect(await probe.check()).toBe('SERVING');
      health.setStatus('settings.v1.SettingsService', 'NOT_SERVING');
      expect(await probe.check()).toBe('NOT_SERVING');
    } finally {
      health.setStatus('settings.v1.SettingsService', 'SERVING');
      probe.close();
    }
  });

  it('waits until the service is SERVING', async () => {
    health.setStatus('customers.v1.CustomersService', 'NOT_SERVING');
    const timer = setTimeout(() => health.setStatus('customers.v1.CustomersService', 'SERVING'), 300);
    try {
      await waitForGrpcHealth(address, { waitMs: 5000, serviceName: 'customers.v1.CustomersService', intervalMs: 50 });
      expect(await checkGrpcHealth(address, 'customers.v1.CustomersService')).toBe('SERVING');
    } finally {
      clearTimeout(timer);
      health.setStatus('customers.v1.CustomersService', 'NOT_SERVING');
    }
  });

  it('fails after waitMs when the server never becomes healthy', async () => {
    await expect(waitForGrpcHealth(address, { waitMs: 300, serviceName: 'customers.v1.CustomersService', intervalMs: 50 })).rejects.toThrow(
      /did not become healthy within 300 ms \(last status NOT_SERVING\)/,
    );
    const nowhere = await freeAddressWithNothingListening();
    await expect(waitForGrpcHealth(nowhere, { waitMs: 200, timeoutMs: 100, intervalMs: 50 })).rejects.toThrow(/last status UNREACHABLE/);
  });
});
