import { customers } from '@platform/contracts';
import { createPromiseClient, errors, implement, startGrpcServer, type CallContext, type RunningGrpcServer } from '../src';
import { silentLog } from './helpers';

const def = customers.CustomersServiceService;

describe('gRPC bootstrap', () => {
  let server: RunningGrpcServer;
  let client: ReturnType<typeof createPromiseClient<typeof def>>;
  const seen: CallContext[] = [];

  beforeAll(async () => {
    const customer = (id: string): customers.Customer => ({ id, clientId: 'c', name: 'Ana', email: 'a@x.io', phoneNumber: '', createdAt: new Date('2026-01-02T03:04:05.678Z') });
    const implementation = implement(
      def,
      {
        createCustomer: async (_req, ctx) => {
          seen.push(ctx);
          return customer('new');
        },
        getCustomer: async (req) => {
          if (req.id === 'missing') throw errors.notFound('Customer', req.id);
          if (req.id === 'rule') throw errors.businessRule('some_rule', 'Refused by a rule');
          if (req.id === 'invalid') throw errors.validation('Invalid request', [{ field: 'email', message: 'must be an e-mail' }]);
          if (req.id === 'crash') throw new Error('db password is hunter2');
          return customer(req.id);
        },
        listCustomers: async () => ({ items: [], meta: undefined }),
        updateCustomer: async (req) => customer(req.id),
        deleteCustomer: async (req) => customer(req.id),
        addCustomerCard: async () => ({}),
        listCustomerCards: async () => ({ items: [], meta: undefined }),
      },
      silentLog,
    );
    server = await startGrpcServer({
      host: '127.0.0.1',
      port: 0,
      log: silentLog,
      services: [{ name: 'customers.v1.CustomersService', definition: def, implementation }],
    });
    client = createPromiseClient(def, customers.CustomersServiceClient, `127.0.0.1:${server.port}`);
  });

  afterAll(async () => {
    client.close();
    await server.shutdown(1000);
  });

  it('answers with the handler result, dates intact', async () => {
    const c = await client.getCustomer({ clientId: 'c', id: 'abc' });
    expect(c.id).toBe('abc');
    expect(c.createdAt?.toISOString()).toBe('2026-01-02T03:04:05.678Z');
  });

  it('passes the idempotency key and request id as metadata', async () => {
    await client.createCustomer({ clientId: 'c', name: 'Ana', email: 'a@x.io', phoneNumber: '', force: false }, { idempotencyKey: 'idem-1', requestId: 'req-1' });
    expect(seen.at(-1)).toMatchObject({ idempotencyKey: 'idem-1', requestId: 'req-1' });
  });

  it('delivers each error kind with its keys and details to the caller', async () => {
    await expect(client.getCustomer({ clientId: 'c', id: 'missing' })).rejects.toMatchObject({ kind: 'not_found' });
    await expect(client.getCustomer({ clientId: 'c', id: 'rule' })).rejects.toMatchObject({ kind: 'business_rule', businessCode: 'some_rule' });
    await expect(client.getCustomer({ clientId: 'c', id: 'invalid' })).rejects.toMatchObject({
      kind: 'validation',
      details: [{ field: 'email', message: 'must be an e-mail' }],
    });
  });

  it('turns an unexpected error into an internal error with a log id and no internals', async () => {
    const error = await client.getCustomer({ clientId: 'c', id: 'crash' }).catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'internal' });
    const { message, errorId } = error as { message: string; errorId: string };
    expect(message).toBe(`Internal error, logId=${errorId}`);
    expect(message).not.toContain('hunter2');
  });

  it('reports no server as unavailable', async () => {
    const dead = createPromiseClient(def, customers.CustomersServiceClient, '127.0.0.1:1', { deadlineMs: 2000 });
    await expect(dead.getCustomer({ clientId: 'c', id: 'x' })).rejects.toMatchObject({ kind: 'unavailable' });
    dead.close();
  });
});
