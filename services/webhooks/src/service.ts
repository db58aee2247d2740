import { webhooks } from '@platform/contracts';
import { implement, JobRunner, migrationsDirOf, startConsumer, systemClock, type ServiceDefinitionOptions } from '@platform/kit';
import { deliveryJobs } from './app/deliveryJob';
import type { WebhookDeps } from './app/deps';
import { fanOutEvent } from './app/fanOutEvent';
import { webhooksConfig } from './config';
import { createHttpSender, type Resolver } from './delivery/httpSender';
import { createWebhookHandlers } from './grpc/webhookHandlers';
import { KeySealer } from './signing/keySealer';
import { createDeliveryStore } from './store/deliveryStore';
import { createWebhookStore } from './store/webhookStore';

/** How often due deliveries are looked for when nothing asked for a pass sooner. */
const JOB_POLL_MS = 250;

/** `resolve` replaces DNS (tests give names that resolve to chosen addresses). */
export function defineWebhooksService(options: { resolve?: Resolver } = {}): ServiceDefinitionOptions<typeof webhooksConfig> {
  return {
    name: 'webhooks',
    configSchema: webhooksConfig,
    migrationsDir: migrationsDirOf(__dirname),
    wire: async ({ config, log, pool, nc, outbox }) => {
      const deps: WebhookDeps = {
        pool,
        log,
        clock: systemClock,
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
        outbox,
      };
      // The lease outlives the slowest attempt, so a running attempt is never taken over by another replica; a
      // replica that dies mid-attempt leaves the job to be taken again once the lease ends.
      const jobs = new JobRunner({
        pool,
        log,
        handlers: deliveryJobs(deps),
        pollMs: JOB_POLL_MS,
        leaseMs: config.WEBHOOKS_DELIVERY_TIMEOUT_MS + 15_000,
      });
      deps.jobs = jobs;
      const fanOut = await startConsumer({
        nc,
        pool,
        log,
        durable: config.WEBHOOKS_FANOUT_DURABLE,
        handle: async (event, tx) => {
          await fanOutEvent(deps, event, tx);
        },
      });
      jobs.start();
      const definition = webhooks.WebhooksServiceService;
      return {
        services: [{ name: 'webhooks.v1.WebhooksService', definition, implementation: implement(definition, createWebhookHandlers(deps), log) }],
        workers: [fanOut, jobs],
      };
    },
  };
}

export const webhooksService = defineWebhooksService();
