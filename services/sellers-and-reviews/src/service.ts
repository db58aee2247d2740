import { payments, payouts, sellers } from '@platform/contracts';
import { createPromiseClient, implement, JobRunner, migrationsDirOf, systemClock, type Clock, type ServiceDefinitionOptions } from '@platform/kit';
import { z } from 'zod';
import type { SellerDeps } from './app/deps';
import { createMerchantsPort, type MerchantsPort } from './app/merchantsPort';
import { createPlansPort, type PlansPort } from './app/plansPort';
import { defaultAdapters, type ProviderAdapters } from './app/providers';
import { matchUnmatchedReviews } from './app/matchUnmatchedReviews';
import { reviewJobs } from './app/reviewJobs';
import { sellersAndReviewsConfig } from './config';
import { createSellerHandlers } from './grpc/sellerHandlers';
import { createReviewStore } from './store/reviewStore';
import { createSellerStore } from './store/sellerStore';

/**
 * Review deadlines are kept within a second: jobs due later are looked for every second (each idle worker asks once
 * per interval; a quarter of a second cost the idle service 20 transactions a second).
 */
const JOB_POLL_MS = 1000;

const wiredConfig = sellersAndReviewsConfig.extend({
  /** The payments service (host:port): the merchant of a new seller and its providers. */
  PAYMENTS_GRPC_URL: z.string().min(1),
  /** The payouts-and-prepayment service (host:port): whether a seller's planId is a plan of the client. */
  PAYOUTS_AND_PREPAYMENT_GRPC_URL: z.string().min(1),
});

export interface SellersServiceOptions {
  merchants?: MerchantsPort;
  plans?: PlansPort;
  adapters?: ProviderAdapters;
  clock?: Clock;
}

export function defineSellersAndReviewsService(options: SellersServiceOptions = {}): ServiceDefinitionOptions<typeof wiredConfig> {
  return {
    name: 'sellers-and-reviews',
    configSchema: wiredConfig,
    migrationsDir: migrationsDirOf(__dirname),
    wire: async ({ pool, log, outbox, config }) => {
      const paymentsClient = options.merchants
        ? undefined
        : createPromiseClient(payments.PaymentsServiceService, payments.PaymentsServiceClient, config.PAYMENTS_GRPC_URL);
      const payoutsClient = options.plans
        ? undefined
        : createPromiseClient(payouts.PayoutsServiceService, payouts.PayoutsServiceClient, config.PAYOUTS_AND_PREPAYMENT_GRPC_URL);
      const deps: SellerDeps = {
        pool,
        log,
        outbox,
        store: createSellerStore(),
        reviews: createReviewStore(),
        merchants: options.merchants ?? createMerchantsPort(paymentsClient!),
        plans: options.plans ?? createPlansPort(payoutsClient!),
        adapters: options.adapters ?? defaultAdapters(),
        clock: options.clock ?? systemClock,
      };
      const handlers = createSellerHandlers(deps, [matchUnmatchedReviews(deps)]);
      const jobs = new JobRunner({ pool, log, handlers: reviewJobs(deps), pollMs: JOB_POLL_MS });
      await jobs.start();
      return {
        services: [
          {
            name: 'sellers.v1.SellersService',
            definition: sellers.SellersServiceService,
            implementation: implement(sellers.SellersServiceService, handlers, log),
          },
        ],
        workers: [
          jobs,
          ...(paymentsClient ? [{ stop: async () => paymentsClient.close() }] : []),
          ...(payoutsClient ? [{ stop: async () => payoutsClient.close() }] : []),
        ],
      };
    },
  };
}

export const sellersAndReviewsService = defineSellersAndReviewsService();
