import { randomUUID } from 'node:crypto';
import { sellers } from '@platform/contracts';
import { createPromiseClient, errors, startService, type Pool, type PromiseClient, type RunningService } from '@platform/kit';
import { createTestDatabase, testNatsUrl } from '@platform/testkit';
import type { MerchantDirectory, MerchantProvider } from '../src/app/merchants';
import { defineSellersAndReviewsService, type SellersServiceOptions } from '../src/service';

export type SellersAndReviewsClient = PromiseClient<typeof sellers.SellersServiceService>;

export interface RunningSellersAndReviews {
  service: RunningService;
  client: SellersAndReviewsClient;
  /** The service's own pool, for reading its tables. */
  pool: Pool;
  merchants: FakeMerchants;
  stop(): Promise<void>;
}

/** Merchants of each client with their providers, as payments would answer. */
export interface FakeMerchants extends MerchantDirectory {
  add(clientId: string, providers?: MerchantProvider[]): string;
}

export function fakeMerchants(): FakeMerchants {
  const merchants = new Map<string, { clientId: string; providers: MerchantProvider[] }>();
  return {
    add(clientId, providers = [{ id: randomUUID(), type: 'SANDBOX' }]) {
      const id = randomUUID();
      merchants.set(id, { clientId, providers });
      return id;
    },
    async providersOf(clientId, merchantId) {
      const merchant = merchants.get(merchantId);
      if (!merchant || merchant.clientId !== clientId) throw errors.businessRule('merchant_not_found', `merchant ${merchantId} not found`);
      return merchant.providers;
    },
  };
}

/** The real service in-process on a free port, on a fresh database, called through the generated client. */
export async function startSellersAndReviews(options: SellersServiceOptions = {}, env: NodeJS.ProcessEnv = {}): Promise<RunningSellersAndReviews> {
  const databaseUrl = await createTestDatabase('sellers_and_reviews');
  const merchants = fakeMerchants();
  const service = await startService(defineSellersAndReviewsService({ merchants, ...options }), {
    DATABASE_URL: databaseUrl,
    NATS_URL: testNatsUrl(),
    GRPC_HOST: '127.0.0.1',
    GRPC_PORT: '0',
    LOG_LEVEL: process.env.SELLERS_TEST_LOG_LEVEL ?? 'silent',
    PAYMENTS_GRPC_URL: '127.0.0.1:1',
    ...env,
  });
  const client = createPromiseClient(sellers.SellersServiceService, sellers.SellersServiceClient, `127.0.0.1:${service.port}`);
  return {
    service,
    client,
    pool: service.runtime.pool,
    merchants,
    stop: async () => {
      client.close();
      await service.stop();
    },
  };
}

export { failureOf } from '@platform/testkit';
