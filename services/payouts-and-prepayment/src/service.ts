import { payouts, settings } from '@platform/contracts';
import { createPromiseClient, implement, JobRunner, migrationsDirOf, startConsumer, systemClock, type Clock, type ServiceDefinitionOptions } from '@platform/kit';
import { JOBS, type PayoutAdapter, type PayoutsDeps, type SettingsPort } from './app/deps';
import { applyChargeEvents } from './app/applyChargeEvents';
import { applySellerEvent } from './app/applySellerEvent';
import { sandboxPayouts } from './app/sandboxPayouts';
import { createSettingsPort } from './app/settingsPort';
import { payBatch } from './app/payBatch';
import { settleAll } from './app/settleAll';
import { payoutsAndPrepaymentConfig } from './config';
import { BusinessCalendar, brasiliaDate } from './domain/calendar';
import { chargeConsumer, sellerConsumer } from './events/consumers';
import { createPayoutHandlers } from './grpc/payoutHandlers';
import { createPayoutsStores } from './store/stores';

/** Missed daily settlements are caught up for this long after a start (a week of downtime). */
const SETTLEMENT_BACKFILL_MS = 7 * 86_400_000;

/** The only place the service's dependencies are built; tests give fakes of settings, the payout adapter and a clock. */
export function definePayoutsAndPrepaymentService(
  options: { settings?: SettingsPort; payouts?: PayoutAdapter; clock?: Clock } = {},
): ServiceDefinitionOptions<typeof payoutsAndPrepaymentConfig> {
  return {
    name: 'payouts-and-prepayment',
    configSchema: payoutsAndPrepaymentConfig,
    migrationsDir: migrationsDirOf(__dirname),
    wire: async ({ pool, log, outbox, nc, config }) => {
      const settingsClient = options.settings
        ? undefined
        : createPromiseClient(settings.SettingsServiceService, settings.SettingsServiceClient, config.SETTINGS_GRPC_URL);
      const deps: PayoutsDeps = {
        pool,
        log,
        outbox,
        clock: options.clock ?? systemClock,
        calendar: new BusinessCalendar(),
        settings: options.settings ?? createSettingsPort(settingsClient!),
        payouts: options.payouts ?? sandboxPayouts(),
        ...createPayoutsStores(),
      };
      const charges = await startConsumer({
        nc,
        pool,
        log,
        ...chargeConsumer(config.PAYOUTS_CHARGES_DURABLE, (tx, events) =>
          applyChargeEvents(deps, tx, events.map((event) => ({ clientId: event.clientId, data: event.data, occurredAt: new Date(event.occurredAt) }))),
        ),
      });
      const sellers = await startConsumer({
        nc,
        pool,
        log,
        ...sellerConsumer(config.PAYOUTS_SELLERS_DURABLE, (tx, event) => applySellerEvent(deps, tx, event.clientId, event.data, new Date(event.occurredAt))),
      });
      const jobs = new JobRunner({
        pool,
        log,
        handlers: {
          [JOBS.settleDaily]: async (job) => {
            await settleAll(deps, brasiliaDate(job.cron?.scheduledFor ?? deps.clock.now()));
          },
          [JOBS.payBatch]: async (job) => {
            const { clientId, batchId } = job.payload as { clientId: string; batchId: string };
            await payBatch(deps, clientId, batchId);
          },
        },
        cron:
          config.PAYOUTS_SETTLEMENT_CRON === 'off'
            ? []
            : [{ kind: JOBS.settleDaily, pattern: config.PAYOUTS_SETTLEMENT_CRON, backfillPeriodMs: SETTLEMENT_BACKFILL_MS, maxAttempts: 5 }],
      });
      await jobs.start();
      const definition = payouts.PayoutsServiceService;
      return {
        services: [{ name: 'payouts.v1.PayoutsService', definition, implementation: implement(definition, createPayoutHandlers(deps), log) }],
        workers: [charges, sellers, jobs, ...(settingsClient ? [{ stop: async () => settingsClient.close() }] : [])],
      };
    },
  };
}

export const payoutsAndPrepaymentService = definePayoutsAndPrepaymentService();
