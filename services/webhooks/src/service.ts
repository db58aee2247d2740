import { settings, webhooks } from '@platform/contracts';
import { createPromiseClient, implement, JobRunner, migrationsDirOf, startConsumer, systemClock, type Clock, type ServiceDefinitionOptions } from '@platform/kit';
import { settingsClientsPort, type ClientsPort } from './app/clientsPort';
import { deliveryJobs } from './app/deliveryJob';
import type { WebhookDeps } from './app/deps';
import { fanOutEvents } from './app/fanOutEvent';
import { ATTEMPT_MARGIN_MS, FirstAttempts, firstAttemptJobDelayMs } from './app/firstAttempts';
import { recoveryJobs } from './app/recoveryJob';
import { webhooksConfig } from './config';
import { createHttpSender, type Resolver } from './delivery/httpSender';
import { fanOutConsumer } from './events/fanOutConsumer';
import { createWebhookHandlers } from './grpc/webhookHandlers';
import { KeySealer } from './signing/keySealer';
import { backfillSecrets } from './signing/webhookSecrets';
import { createDeliveryStore } from './store/deliveryStore';
import { createWebhookStore } from './store/webhookStore';

/**
 * How often deliveries that came due are looked for: a retry is added for later, so no NOTIFY announces it when its
 * time comes (a delivery due now is announced and starts at once). Each idle worker asks once per interval, so a
 * quarter of a second cost the idle service 64 transactions a second with 16 workers; retries wait minutes, and a
 * second late is nothing to them.
 */
const JOB_POLL_MS = 1000;

/** Connections beyond one per delivery in flight: the fan-out consumer, the outbox relay, the gRPC handlers. */
export const POOL_HEADROOM = 4;

/**
 * `resolve` replaces DNS (tests give names that resolve to chosen addresses); tests pass a clock to move time without
 * waiting, and a clients port in place of settings.
 */
export function defineWebhooksService(options: { resolve?: Resolver; clock?: Clock; clients?: ClientsPort } = {}): ServiceDefinitionOptions<typeof webhooksConfig> {
  return {
    name: 'webhooks',
    configSchema: webhooksConfig,
    migrationsDir: migrationsDirOf(__dirname),
    // Each delivery in flight holds a connection at times, and the fan-out consumer and the outbox relay need theirs.
    minPoolSize: (config) => config.WEBHOOKS_DELIVERY_CONCURRENCY + POOL_HEADROOM,
    wire: async ({ config, log, pool, nc, outbox }) => {
      const deps: WebhookDeps = {
        pool,
        log,
        clock: options.clock ?? systemClock,
        webhooks: createWebhookStore(),
        deliveries: createDeliveryStore(),
        sealer: new KeySealer(config.WEBHOOKS_SIGNING_KEY),
        sender: createHttpSender({
          allowPrivateTargets: config.WEBHOOKS_ALLOW_PRIVATE_TARGETS,
          timeoutMs: config.WEBHOOKS_DELIVERY_TIMEOUT_MS,
          resolve: options.resolve,
        }),
        retrySchedule: config.WEBHOOKS_RETRY_SCHEDULE,
        allowPrivateTargets: config.WEBHOOKS_ALLOW_PRIVATE_TARGETS,
        clients:
          options.clients ?? settingsClientsPort(createPromiseClient(settings.SettingsServiceService, settings.SettingsServiceClient, config.SETTINGS_GRPC_URL)),
        outbox,
        attemptLeaseMs: config.WEBHOOKS_DELIVERY_TIMEOUT_MS + ATTEMPT_MARGIN_MS,
      };
      // Before any delivery runs: webhooks from before secrets existed are signed with one too from the first attempt.
      await backfillSecrets(deps);
      const jobs = new JobRunner({ pool, log, handlers: { ...deliveryJobs(deps), ...recoveryJobs(deps) }, pollMs: JOB_POLL_MS, concurrency: config.WEBHOOKS_DELIVERY_CONCURRENCY });
      // The first attempt right after the fan-out commits, the job due a little later as its fallback; or the job only.
      const firstAttempts = config.WEBHOOKS_INLINE_DELIVERY
        ? new FirstAttempts(deps, { concurrency: config.WEBHOOKS_DELIVERY_CONCURRENCY, timeoutMs: config.WEBHOOKS_DELIVERY_TIMEOUT_MS })
        : undefined;
      const jobDelayMs = firstAttempts ? firstAttemptJobDelayMs(config.WEBHOOKS_DELIVERY_TIMEOUT_MS) : 0;
      const fanOut = await startConsumer({
        nc,
        pool,
        log,
        ...fanOutConsumer(config.WEBHOOKS_FANOUT_DURABLE, async (tx, events) => {
          const created = await fanOutEvents(deps, events, tx, { jobDelayMs });
          firstAttempts?.afterCommit(tx, created);
        }),
      });
      await jobs.start();
      const definition = webhooks.WebhooksServiceService;
      return {
        services: [{ name: 'webhooks.v1.WebhooksService', definition, implementation: implement(definition, createWebhookHandlers(deps), log) }],
        // The fan-out stops taking events, the first attempts in flight are recorded, the job runner finishes its own.
        workers: [
          {
            stop: async () => {
              await fanOut.stop();
              await firstAttempts?.stop();
            },
          },
          jobs,
        ],
      };
    },
  };
}

export const webhooksService = defineWebhooksService();
