import { randomUUID } from 'node:crypto';
import { sellers } from '@platform/contracts';
import { createPromiseClient, errors, startService, type Pool, type PromiseClient, type RunningService } from '@platform/kit';
import { createTestDatabase, testNatsUrl } from '@platform/testkit';
import type { MerchantProvider, MerchantsPort } from '../src/app/merchantsPort';
import { planNotFound, type PlansPort } from '../src/app/plansPort';
import { defineSellersAndReviewsService, type SellersServiceOptions } from '../src/service';

export type SellersAndReviewsClient = PromiseClient<typeof sellers.SellersServiceService>;

export interface RunningSellersAndReviews {
  service: RunningService;
  client: SellersAndReviewsClient;
  /** The service's own pool, for reading its tables. */
  pool: Pool;
  merchants: FakeMerchants;
  plans: FakePlans;
  stop(): Promise<void>;
}

/** Merchants of each client with their providers, as payments would answer. */
export interface FakeMerchants extends MerchantsPort {
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

/** Plans of each client, as payouts would answer; every question asked is kept. */
export interface FakePlans extends PlansPort {
  add(clientId: string): string;
  asked: Array<{ clientId: string; planId: string }>;
}

export function fakePlans(): FakePlans {
  const owners = new Map<string, string>();
  const asked: FakePlans['asked'] = [];
  return {
    asked,
    add(clientId) {
      const id = randomUUID();
      owners.set(id, clientId);
      return id;
    },
    async requirePlan(clientId, planId) {
      asked.push({ clientId, planId });
      if (owners.get(planId) !== clientId) throw planNotFound(planId);
    },
  };
}

/**
 * The real service in-process on a free port, on a fresh database, called through the generated client. Merchants
 * and plans are fakes unless `options` says otherwise (`plans: undefined`: the real payouts client, at the env's
 * PAYOUTS_AND_PREPAYMENT_GRPC_URL).
 */
export async function startSellersAndReviews(options: SellersServiceOptions = {}, env: NodeJS.ProcessEnv = {}): Promise<RunningSellersAndReviews> {
  const databaseUrl = await createTestDatabase('sellers_and_reviews');
  const merchants = fakeMerchants();
  const plans = fakePlans();
  const service = await startService(defineSellersAndReviewsService({ merchants, plans, ...options }), {
    DATABASE_URL: databaseUrl,
    NATS_URL: testNatsUrl(),
    GRPC_HOST: '127.0.0.1',
    GRPC_PORT: '0',
    METRICS_PORT: '0',
    LOG_LEVEL: process.env.SELLERS_TEST_LOG_LEVEL ?? 'silent',
    PAYMENTS_GRPC_URL: '127.0.0.1:1',
    PAYOUTS_AND_PREPAYMENT_GRPC_URL: '127.0.0.1:1',
    ...env,
  });
  const client = createPromiseClient(sellers.SellersServiceService, sellers.SellersServiceClient, `127.0.0.1:${service.port}`);
  return {
    service,
    client,
    pool: service.runtime.pool,
    merchants,
    plans,
    stop: async () => {
      client.close();
      await service.stop();
    },
  };
}

export { failureOf } from '@platform/testkit';
