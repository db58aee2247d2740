import { payments, sessions } from '@platform/contracts';
import { createPromiseClient, implement, JobRunner, migrationsDirOf, startConsumer, systemClock, type Clock, type ServiceDefinitionOptions } from '@platform/kit';
import { DUE_DATE_JOB, type PaymentsPort, type SessionDeps } from './app/deps';
import { createPaymentsPort } from './app/paymentsPort';
import { applyChargeEvent, expireByDueDate, type ChargeEventData } from './app/sessions';
import { sessionsConfig } from './config';
import { createSessionHandlers } from './grpc/sessionHandlers';
import { createSessionStore } from './store/sessionStore';

/** Tests give a fake payments and their own clock; production asks the payments service. */
export function defineSessionsService(options: { payments?: PaymentsPort; clock?: Clock } = {}): ServiceDefinitionOptions<typeof sessionsConfig> {
  return {
    name: 'sessions',
    configSchema: sessionsConfig,
    migrationsDir: migrationsDirOf(__dirname),
    wire: async ({ pool, log, outbox, nc, config }) => {
      const paymentsClient = options.payments
        ? undefined
        : createPromiseClient(payments.PaymentsServiceService, payments.PaymentsServiceClient, config.PAYMENTS_GRPC_URL);
      const deps: SessionDeps = {
        pool,
        log,
        outbox,
        store: createSessionStore(),
        clock: options.clock ?? systemClock,
        payments: options.payments ?? createPaymentsPort(paymentsClient!),
        keySecret: config.SESSIONS_KEY_SECRET,
        publicUrl: config.PUBLIC_URL,
      };
      const jobs = new JobRunner({
        pool,
        log,
        handlers: {
          [DUE_DATE_JOB]: async (job) => expireByDueDate(deps, job.payload as { clientId: string; sessionId: string }),
        },
      });
      const charges = await startConsumer({
        nc,
        pool,
        log,
        durable: config.SESSIONS_CHARGES_DURABLE,
        filterSubject: 'payments.charge.>',
        handle: async (event, tx) => {
          await applyChargeEvent(deps, tx, event.clientId, event.data as ChargeEventData);
        },
      });
      await jobs.start();
      const definition = sessions.SessionsServiceService;
      return {
        services: [{ name: 'sessions.v1.SessionsService', definition, implementation: implement(definition, createSessionHandlers(deps), log) }],
        workers: [charges, jobs, ...(paymentsClient ? [{ stop: async () => paymentsClient.close() }] : [])],
      };
    },
  };
}

export const sessionsService = defineSessionsService();
