import { randomBytes } from 'node:crypto';
import { payments } from '@platform/contracts';
import { createPromiseClient, type Pool, type PromiseClient, type RunningService } from '@platform/kit';
import { ManualClock, startServiceForTest } from '@platform/testkit';
import { createMerchantsPort } from '../../src/modules/merchants/app/merchantsPort';
import type { CardSource, MerchantsPort } from '../../src/shared/ports';
import { createCardSource } from '../../src/modules/vault/app/cardSource';
import { paymentsConfig } from '../../src/config';
import type { PaymentsDeps } from '../../src/shared/deps';
import { definePaymentsService } from '../../src/service';
import { FakeCustomers } from './customers';
import { FakeSellers } from './sellers';
import { FakeClientsPort } from './clients';
import { FakeSubscriptionSettings } from './subscriptionSettings';
import { createCardStore } from '../../src/modules/vault/store/cardStore';
import { createMerchantStore } from '../../src/modules/merchants/store/merchantStore';
import { createTokenStore } from '../../src/modules/vault/store/tokenStore';
import { vaultFromConfig } from '../../src/modules/vault/crypto/keyRing';

export type PaymentsClient = PromiseClient<typeof payments.PaymentsServiceService>;

export interface RunningPayments {
  service: RunningService;
  client: PaymentsClient;
  /** The service's own pool, for reading its tables. */
  pool: Pool;
  clock: ManualClock;
  /** The customers directory the service asks. */
  customers: FakeCustomers;
  /** The sellers directory the service asks about split receivers. */
  sellers: FakeSellers;
  /** Dependencies equal to the service's (same keys, pool and clock), for calling the ports directly. */
  deps: PaymentsDeps;
  stop(): Promise<void>;
}

/** The real service in-process on a free port, on a fresh database, called through the generated client. */
export async function startPayments(options: { customers?: FakeCustomers; sellers?: FakeSellers } = {}): Promise<RunningPayments> {
  const clock = new ManualClock();
  const customers = options.customers ?? new FakeCustomers({ strict: false });
  const sellers = options.sellers ?? new FakeSellers();
  const env = {
    CARD_ENCRYPTION_KEYS: `k1:${randomBytes(32).toString('hex')}`,
    CARD_FINGERPRINT_KEY: randomBytes(32).toString('hex'),
    CUSTOMERS_GRPC_URL: '127.0.0.1:1',
    SELLERS_AND_REVIEWS_GRPC_URL: '127.0.0.1:1',
    SETTINGS_GRPC_URL: '127.0.0.1:1',
  };
  const { service, address } = await startServiceForTest(definePaymentsService({ clock, customers, sellers, subscriptionSettings: new FakeSubscriptionSettings(), clients: new FakeClientsPort() }), { env });
  const client = createPromiseClient(payments.PaymentsServiceService, payments.PaymentsServiceClient, address);
  const config = paymentsConfig.parse(env);
  const deps: PaymentsDeps = {
    pool: service.runtime.pool,
    log: service.runtime.log,
    config,
    clock,
    outbox: { kick: () => undefined },
    vault: vaultFromConfig(config),
  };
  return {
    service,
    client,
    pool: service.runtime.pool,
    clock,
    customers,
    sellers,
    deps,
    stop: async () => {
      client.close();
      await service.stop();
    },
  };
}

/** The merchant directory the charges use, on the service's keys and the real store. */
export function merchantsPortOf(running: RunningPayments): MerchantsPort {
  return createMerchantsPort({ vault: running.deps.vault, merchants: createMerchantStore() });
}

/** The card source the charges use, on the service's keys, clock and the real stores. */
export function cardSourceOf(running: RunningPayments): CardSource {
  return createCardSource({ vault: running.deps.vault, clock: running.clock, cards: createCardStore(), tokens: createTokenStore() });
}

export * from './fixtures';
