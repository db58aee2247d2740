import path from 'node:path';
import { credentials, loadPackageDefinition, type Client as GrpcClient, type ClientDuplexStream } from '@grpc/grpc-js';
import { loadSync } from '@grpc/proto-loader';
import { customers } from '@platform/contracts';
import { createPromiseClient, errors, implement, startGrpcServer, type CallContext, type RunningGrpcServer } from '../src';
import { silentLog } from './helpers';

const def = customers.CustomersServiceService;

describe('gRPC bootstrap', () => {
  let server: RunningGrpcServer;
  let client: ReturnType<typeof createPromiseClient<typeof def>>;
  const seen: CallContext[] = [];
  let callerGone: () => void = () => undefined;

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
        updateCustomer: async (req, ctx) => {
          if (req.id === 'slow') {
            // Works until the caller is gone, then says so.
            await new Promise<void>((resolve) => ctx.signal.addEventListener('abort', () => resolve(), { once: true }));
            callerGone();
          }
          return customer(req.id);
        },
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

  it("tells a handler when its caller is gone (its deadline passed), so long work can stop", async () => {
    const stopped = new Promise<void>((resolve) => (callerGone = resolve));
    const answer = client.updateCustomer({ clientId: 'c', id: 'slow', name: 'Ana' }, { deadlineMs: 200 });
    await expect(answer).rejects.toMatchObject({ kind: 'unavailable' });
    // Resolves only once the handler's signal was aborted.
    await stopped;
    expect(seen.every((ctx) => ctx.signal instanceof AbortSignal)).toBe(true);
  });

  it("leaves a finished call's signal alone: grpc-js reports every call as cancelled once its status is sent", async () => {
    await client.createCustomer({ clientId: 'c', name: 'Ana', email: 'a@x.io', phoneNumber: '', force: false });
    await client.getCustomer({ clientId: 'c', id: 'abc' });
    expect(seen.at(-1)!.signal.aborted).toBe(false);
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

  it.each(['v1', 'v1alpha'] as const)('answers server reflection (%s), as grpcurl asks it, with the services it runs and their files', async (version) => {
    const reflectionProto = path.join(path.dirname(require.resolve('@grpc/reflection/package.json')), 'build', 'proto', 'grpc', 'reflection', version, 'reflection.proto');
    const loaded = loadPackageDefinition(loadSync(reflectionProto, { keepCase: true })) as unknown as {
      grpc: { reflection: Record<string, { ServerReflection: new (address: string, creds: ReturnType<typeof credentials.createInsecure>) => GrpcClient }> };
    };
    const reflection = new loaded.grpc.reflection[version]!.ServerReflection(`127.0.0.1:${server.port}`, credentials.createInsecure()) as GrpcClient & {
      ServerReflectionInfo(): ClientDuplexStream<Record<string, unknown>, Record<string, unknown>>;
    };
    const ask = (request: Record<string, unknown>) =>
      new Promise<Record<string, unknown>>((resolve, reject) => {
        const call = reflection.ServerReflectionInfo();
        call.once('data', (answer: Record<string, unknown>) => {
          resolve(answer);
          call.end();
        });
        call.once('error', reject);
        call.write(request);
      });
    try {
      const listed = (await ask({ list_services: '' })) as { list_services_response: { service: Array<{ name: string }> } };
      expect(listed.list_services_response.service.map((s) => s.name).sort()).toEqual(['customers.v1.CustomersService', 'grpc.health.v1.Health']);
      const described = (await ask({ file_containing_symbol: 'customers.v1.CustomersService' })) as { file_descriptor_response: { file_descriptor_proto: Buffer[] } };
      const files = described.file_descriptor_response.file_descriptor_proto.map((b) => b.toString('latin1'));
      expect(files.some((f) => f.includes('CustomersService') && f.includes('CreateCustomer'))).toBe(true);
    } finally {
      reflection.close();
    }
  });
});
