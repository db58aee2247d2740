import { customers } from '@platform/contracts';
import { checkGrpcHealth, createPromiseClient, grpcTarget, implement, startGrpcServer, type RunningGrpcServer } from '../src';
import { silentLog } from './helpers';

const def = customers.CustomersServiceService;

describe('grpcTarget', () => {
  it('keeps one address as it is (a DNS name resolves to every replica) and makes a list of IPs an ipv4: or ipv6: target', () => {
    expect(grpcTarget('payments:50051')).toBe('payments:50051');
    expect(grpcTarget('127.0.0.1:5001')).toBe('127.0.0.1:5001');
    expect(grpcTarget('127.0.0.1:5001,127.0.0.1:5002, 10.0.0.7:5003')).toBe('ipv4:127.0.0.1:5001,127.0.0.1:5002,10.0.0.7:5003');
    expect(grpcTarget('[::1]:5001,[::1]:5002')).toBe('ipv6:[::1]:5001,[::1]:5002');
  });

  it('refuses a list of names, a mixed list and an empty one', () => {
    expect(() => grpcTarget('payments-0:50051,payments-1:50051')).toThrow(/not IP:port/);
    expect(() => grpcTarget('127.0.0.1:5001,[::1]:5002')).toThrow(/cannot be mixed/);
    expect(() => grpcTarget(' , ')).toThrow(/empty/);
  });
});

describe('a client of several replicas', () => {
  const servers: RunningGrpcServer[] = [];
  const calls: number[] = [0, 0, 0];

  beforeAll(async () => {
    for (const index of [0, 1, 2]) {
      const implementation = implement(
        def,
        {
          getCustomer: async (req) => {
            calls[index] = (calls[index] ?? 0) + 1;
            return { id: req.id, clientId: 'c', name: `replica ${index}`, email: 'a@x.io', phoneNumber: '' };
          },
          createCustomer: async () => ({ id: 'x', clientId: 'c', name: '', email: '', phoneNumber: '' }),
          listCustomers: async () => ({ items: [], meta: undefined }),
          updateCustomer: async (req) => ({ id: req.id, clientId: 'c', name: '', email: '', phoneNumber: '' }),
          deleteCustomer: async (req) => ({ id: req.id, clientId: 'c', name: '', email: '', phoneNumber: '' }),
          addCustomerCard: async () => ({}),
          listCustomerCards: async () => ({ items: [], meta: undefined }),
        },
        silentLog,
      );
      servers.push(await startGrpcServer({ host: '127.0.0.1', port: 0, log: silentLog, services: [{ name: 'customers.v1.CustomersService', definition: def, implementation }] }));
    }
  });

  afterAll(async () => {
    await Promise.all(servers.map((s) => s.shutdown(1000)));
  });

  it('spreads its calls over every replica, and keeps answering through the others when one goes away', async () => {
    const client = createPromiseClient(def, customers.CustomersServiceClient, servers.map((s) => `127.0.0.1:${s.port}`).join(','));
    try {
      // round_robin connects to every address and takes them in turn once they are ready.
      for (let i = 0; i < 60; i++) await client.getCustomer({ clientId: 'c', id: String(i) });
      expect(calls.every((n) => n > 0)).toBe(true);
      expect(calls.reduce((a, b) => a + b, 0)).toBe(60);

      await servers[1]!.shutdown(1000);
      const before = calls[1];
      const names = new Set<string>();
      for (let i = 0; i < 30; i++) names.add((await client.getCustomer({ clientId: 'c', id: `after-${i}` })).name);
      expect(calls[1]).toBe(before);
      expect([...names].sort()).toEqual(['replica 0', 'replica 2']);
    } finally {
      client.close();
    }
  });

  it('reports SERVING while a replica serves, through the same list', async () => {
    expect(await checkGrpcHealth(servers.map((s) => `127.0.0.1:${s.port}`).join(','), 'customers.v1.CustomersService', 3000)).toBe('SERVING');
  });
});
