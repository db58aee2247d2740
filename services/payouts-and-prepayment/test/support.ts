import { randomUUID } from 'node:crypto';
import { payouts } from '@platform/contracts';
import { createLogger, createPromiseClient, startService, type Pool, type PromiseClient, type RunningService } from '@platform/kit';
import { createTestDatabase, ManualClock, testNatsUrl } from '@platform/testkit';
import type { PayoutAdapter, PayoutsDeps, SettingsPort } from '../src/app/deps';
import { sandboxPayouts } from '../src/app/sandboxPayouts';
import { BusinessCalendar } from '../src/domain/calendar';
import { definePayoutsAndPrepaymentService } from '../src/service';
import { createPayoutsStores } from '../src/store/stores';

export type PayoutsClient = PromiseClient<typeof payouts.PayoutsServiceService>;

/** Settings as payouts sees it: the clients enabled for prepayment. */
export class FakeSettings implements SettingsPort {
  readonly enabled = new Set<string>();
  async prepaymentEnabled(clientId: string): Promise<boolean> {
    return this.enabled.has(clientId);
  }
}

export interface RunningPayouts {
  service: RunningService;
  client: PayoutsClient;
  /** The service's own pool, for reading its tables. */
  pool: Pool;
  clock: ManualClock;
  settings: FakeSettings;
  /** What the service's use cases, consumers and jobs are given, to call them directly. */
  deps: PayoutsDeps;
  stop(): Promise<void>;
}

/**
 * The real service in-process on a free port, on a fresh database, on the injected clock, called through the
 * generated client. Its consumers use durables of their own.
 */
export async function startPayouts(options: { now?: Date; payouts?: PayoutAdapter } = {}): Promise<RunningPayouts> {
  const databaseUrl = await createTestDatabase('payouts');
  const clock = new ManualClock(options.now ?? new Date('2026-03-02T13:00:00.000Z'));
  const settings = new FakeSettings();
  const adapter = options.payouts ?? sandboxPayouts();
  const suffix = randomUUID().slice(0, 8);
  const service = await startService(definePayoutsAndPrepaymentService({ settings, payouts: adapter, clock }), {
    DATABASE_URL: databaseUrl,
    NATS_URL: testNatsUrl(),
    GRPC_HOST: '127.0.0.1',
    GRPC_PORT: '0',
    METRICS_PORT: '0',
    LOG_LEVEL: 'silent',
    SETTINGS_GRPC_URL: '127.0.0.1:1',
    PAYOUTS_CHARGES_DURABLE: `payouts_test_${suffix}`,
    PAYOUTS_SELLERS_DURABLE: `payouts_sellers_test_${suffix}`,
    // The daily cron runs on the wall clock: at 09:00 UTC it would settle today's real date in the middle of a
    // test that lives on the injected clock. Tests settle through advanceSettlement or call the job directly.
    PAYOUTS_SETTLEMENT_CRON: 'off',
  });
  const client = createPromiseClient(payouts.PayoutsServiceService, payouts.PayoutsServiceClient, `127.0.0.1:${service.port}`);
  const deps: PayoutsDeps = {
    pool: service.runtime.pool,
    log: createLogger({ name: 'payouts-test', level: 'silent' }),
    clock,
    calendar: new BusinessCalendar(),
    settings,
    payouts: adapter,
    ...createPayoutsStores(),
  };
  return {
    service,
    client,
    pool: service.runtime.pool,
    clock,
    settings,
    deps,
    stop: async () => {
      client.close();
      await service.stop();
    },
  };
}

export { failureOf } from '@platform/testkit';
