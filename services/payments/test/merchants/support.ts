import { randomBytes } from 'node:crypto';
import { payments } from '@platform/contracts';
import { createPromiseClient, startService, type Pool, type PromiseClient, type RunningService } from '@platform/kit';
import { createTestDatabase, testNatsUrl } from '@platform/testkit';
import { paymentsConfig } from '../../src/config';
import type { PaymentsDeps } from '../../src/deps';
import { definePaymentsService } from '../../src/service';
import { Vault } from '../../src/vault/crypto';
import { TestClock } from './fixtures';

export type PaymentsClient = PromiseClient<typeof payments.PaymentsServiceService>;

export interface RunningPayments {
  service: RunningService;
  client: PaymentsClient;
  /** The service's own pool, for reading its tables. */
  pool: Pool;
  clock: TestClock;
  /** Dependencies equal to the service's (same keys, pool and clock), for calling the ports directly. */
  deps: PaymentsDeps;
  stop(): Promise<void>;
}

/** The real service in-process on a free port, on a fresh database, called through the generated client. */
export async function startPayments(): Promise<RunningPayments> {
  const clock = new TestClock();
  const env = {
    DATABASE_URL: await createTestDatabase('payments'),
    NATS_URL: testNatsUrl(),
    GRPC_HOST: '127.0.0.1',
    GRPC_PORT: '0',
    LOG_LEVEL: 'silent',
    CARD_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
    CARD_FINGERPRINT_KEY: randomBytes(32).toString('hex'),
  };
  const service = await startService(definePaymentsService({ clock }), env);
  const client = createPromiseClient(payments.PaymentsServiceService, payments.PaymentsServiceClient, `127.0.0.1:${service.port}`);
  const config = paymentsConfig.parse(env);
  const deps: PaymentsDeps = {
    pool: service.runtime.pool,
    log: service.runtime.log,
    config,
    clock,
    outbox: { kick: () => undefined },
    vault: new Vault(config.CARD_ENCRYPTION_KEY, config.CARD_FINGERPRINT_KEY),
  };
  return {
    service,
    client,
    pool: service.runtime.pool,
    clock,
    deps,
    stop: async () => {
      client.close();
      await service.stop();
    },
  };
}

export * from './fixtures';
