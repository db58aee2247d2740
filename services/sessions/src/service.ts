import { payments, sellers, sessions } from '@platform/contracts';
import { createPromiseClient, implement, JobRunner, migrationsDirOf, startConsumer, systemClock, type Clock, type ServiceDefinitionOptions } from '@platform/kit';
import { DUE_DATE_JOB, STALE_PLACES_JOB, type PaymentsPort, type SellersPort, type SessionDeps } from './app/deps';
import { createPaymentsPort } from './app/paymentsPort';
import { PlaceQueue } from './app/placeQueue';
import { createSellersPort } from './app/sellersPort';
import { applyChargeEvent } from './app/applyChargeEvent';
import { releaseStalePlaces } from './app/releaseStalePlaces';
import { expireByDueDate } from './app/sessionDueJob';
import { sessionsConfig } from './config';
import { chargeConsumer } from './events/chargeConsumer';
import { createSessionHandlers } from './grpc/sessionHandlers';
import { createSessionStore } from './store/sessionStore';

/**
 * Tests give fakes of payments and sellers, their own clock and the queue of buyers waiting for a place (to see
 * them wait); production asks those services.
 */
export function defineSessionsService(
  options: { payments?: PaymentsPort; sellers?: SellersPort; clock?: Clock; places?: PlaceQueue } = {},
): ServiceDefinitionOptions<typeof sessionsConfig> {
  return {
    name: 'sessions',
    configSchema: sessionsConfig,
    migrationsDir: migrationsDirOf(__dirname),
    wire: async ({ pool, log, outbox, nc, config }) => {
      const paymentsClient = options.payments
        ? undefined
        : createPromiseClient(payments.PaymentsServiceService, payments.PaymentsServiceClient, config.PAYMENTS_GRPC_URL);
      const sellersClient = options.sellers
        ? undefined
        : createPromiseClient(sellers.SellersServiceService, sellers.SellersServiceClient, config.SELLERS_AND_REVIEWS_GRPC_URL);
      const deps: SessionDeps = {
        pool,
        log,
        outbox,
        store: createSessionStore(),
        clock: options.clock ?? systemClock,
        payments: options.payments ?? createPaymentsPort(paymentsClient!),
        sellers: options.sellers ?? createSellersPort(sellersClient!),
        keySecret: config.SESSIONS_KEY_SECRET,
        publicUrl: config.PUBLIC_URL,
        places: options.places ?? new PlaceQueue(),
      };
      const jobs = new JobRunner({
        pool,
        log,
        handlers: {
          [DUE_DATE_JOB]: async (job) => expireByDueDate(deps, job.payload as { clientId: string; sessionId: string }),
          [STALE_PLACES_JOB]: async () => {
            await releaseStalePlaces(deps);
          },
        },
        // Every minute; the next run does the same work, so a failed run is not retried.
        cron: [{ kind: STALE_PLACES_JOB, pattern: '* * * * *', maxAttempts: 1 }],
      });
      const charges = await startConsumer({
        nc,
        pool,
        log,
        ...chargeConsumer(config.SESSIONS_CHARGES_DURABLE, (tx, event) => applyChargeEvent(deps, tx, event.clientId, event.data)),
      });
      await jobs.start();
      const definition = sessions.SessionsServiceService;
      return {
        services: [{ name: 'sessions.v1.SessionsService', definition, implementation: implement(definition, createSessionHandlers(deps), log) }],
        workers: [charges, jobs, ...[paymentsClient, sellersClient].filter((c) => c !== undefined).map((c) => ({ stop: async () => c.close() }))],
      };
    },
  };
}

export const sessionsService = defineSessionsService();
