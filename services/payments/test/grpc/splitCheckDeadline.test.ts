import { Server, ServerCredentials, type ServiceDefinition, type UntypedServiceImplementation } from '@grpc/grpc-js';
import { sellers } from '@platform/contracts';
import { AppError, createPromiseClient } from '@platform/kit';
import { createSellersPort, SPLIT_CHECK_TIMED_OUT, SPLIT_CHECK_UNREACHABLE } from '../../src/shared/sellersPort';

/**
 * A hung sellers-and-reviews service holds a split charge only for the split check's own deadline, and the answer
 * names the check that failed; one that cannot be reached says so too.
 */

let server: Server;
let address: string;

beforeAll(async () => {
  server = new Server();
  // Every method of the service takes the call and never answers it.
  const hung: UntypedServiceImplementation = Object.fromEntries(Object.keys(sellers.SellersServiceService).map((name) => [name, () => undefined]));
  server.addService(sellers.SellersServiceService as unknown as ServiceDefinition, hung);
  const port = await new Promise<number>((resolve, reject) => server.bindAsync('127.0.0.1:0', ServerCredentials.createInsecure(), (error, bound) => (error ? reject(error) : resolve(bound))));
  address = `127.0.0.1:${port}`;
});

afterAll(() => {
  server.forceShutdown();
});

describe('the split check', () => {
  it('gives up on a sellers service that does not answer at its own deadline, with a 503 naming the check', async () => {
    const client = createPromiseClient(sellers.SellersServiceService, sellers.SellersServiceClient, address);
    try {
      const port = createSellersPort(client, { timeoutMs: 100 });
      const error = await port.checkSplitReceivers('client-1', 'merchant-1', ['seller-1']).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AppError);
      expect(error).toMatchObject({ kind: 'unavailable', message: SPLIT_CHECK_TIMED_OUT });
    } finally {
      client.close();
    }
  });

  it('says the sellers service could not be reached when nothing listens', async () => {
    const client = createPromiseClient(sellers.SellersServiceService, sellers.SellersServiceClient, '127.0.0.1:1');
    try {
      const error = await createSellersPort(client, { timeoutMs: 2000 }).checkSplitReceivers('client-1', 'merchant-1', ['seller-1']).catch((e: unknown) => e);
      expect(error).toMatchObject({ kind: 'unavailable', message: SPLIT_CHECK_UNREACHABLE });
    } finally {
      client.close();
    }
  });

  it('asks nothing for a charge without split receivers', async () => {
    const client = createPromiseClient(sellers.SellersServiceService, sellers.SellersServiceClient, address);
    try {
      await expect(createSellersPort(client, { timeoutMs: 100 }).checkSplitReceivers('client-1', 'merchant-1', [])).resolves.toBeUndefined();
    } finally {
      client.close();
    }
  });
});
