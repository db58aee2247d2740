import { randomBytes, randomUUID } from 'node:crypto';
import { payments } from '@platform/contracts';
import { createPromiseClient, type Pool, type PromiseClient, type RunningService } from '@platform/kit';
import { ManualClock, startServiceForTest } from '@platform/testkit';
import { definePaymentsService } from '../../src/service';
import { manualTimer, type OutcomeRecorder } from '../../src/modules/charges/app/outcomeRecorder';
import { FakeCustomers } from './customers';
import { FakeSellers } from './sellers';
import { FakeClientsPort } from './clients';
import { FakeSubscriptionSettings } from './subscriptionSettings';
import { cardNumberEnding } from './cards';
import { outboxOf, type OutboxEvent } from './fixtures';

export { cardNumberEnding };

export type PaymentsClient = PromiseClient<typeof payments.PaymentsServiceService>;

export const PROVIDER_TIMEOUT_MS = 200;
export const PUBLIC_URL = 'https://pay.example.test';

export interface RunningCharges {
  service: RunningService;
  client: PaymentsClient;
  /** The service's own pool, for reading its tables. */
  pool: Pool;
  clock: ManualClock;
  /** The customers directory the service asks. */
  customers: FakeCustomers;
  /** The sellers directory the service asks about split receivers. */
  sellers: FakeSellers;
  /** The subscription settings the service reads. */
  subscriptionSettings: FakeSubscriptionSettings;
  /** The service's provider outcome recorder: its timer never fires, the tests flush it. */
  outcomes: OutcomeRecorder;
  /** Its database, to start the service again on the same data. */
  databaseUrl: string;
  stop(): Promise<void>;
}

/**
 * The real payments service in-process on a free port, on a fresh database (or on `databaseUrl`, the data of an
 * earlier start), called through the generated client. `env` overrides its configuration (pool size, provider
 * timeout, keys); `customers` is the directory it asks about customers.
 */
export async function startCharges(
  env: Record<string, string> = {},
  options: {
    customers?: FakeCustomers;
    sellers?: FakeSellers;
    reportPageRows?: number;
    beforeReportBuild?: (report: { clientId: string; id: string }) => Promise<void>;
    rewrapBatch?: number;
    databaseUrl?: string;
  } = {},
): Promise<RunningCharges> {
  const clock = new ManualClock();
  const customers = options.customers ?? new FakeCustomers({ strict: false });
  const sellers = options.sellers ?? new FakeSellers();
  const subscriptionSettings = new FakeSubscriptionSettings();
  let outcomes: OutcomeRecorder | undefined;
  const { service, address, databaseUrl } = await startServiceForTest(definePaymentsService({
      clock,
      outcomesTimer: manualTimer,
      onOutcomeRecorder: (recorder) => {
        outcomes = recorder;
      },
      customers,
      sellers,
      subscriptionSettings,
      clients: new FakeClientsPort(),
      ...(options.reportPageRows ? { reportPageRows: options.reportPageRows } : {}),
      ...(options.beforeReportBuild ? { beforeReportBuild: options.beforeReportBuild } : {}),
      ...(options.rewrapBatch ? { rewrapBatch: options.rewrapBatch } : {}),
    }), {
    ...(options.databaseUrl ? { databaseUrl: options.databaseUrl } : {}),
    env: {
      CARD_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
      CARD_FINGERPRINT_KEY: randomBytes(32).toString('hex'),
      PROVIDER_TIMEOUT_MS: String(PROVIDER_TIMEOUT_MS),
      PUBLIC_URL,
      CUSTOMERS_GRPC_URL: '127.0.0.1:1',
      SELLERS_AND_REVIEWS_GRPC_URL: '127.0.0.1:1',
      SETTINGS_GRPC_URL: '127.0.0.1:1',
      ...env,
    },
  });
  const client = createPromiseClient(payments.PaymentsServiceService, payments.PaymentsServiceClient, address);
  return {
    service,
    client,
    pool: service.runtime.pool,
    clock,
    customers,
    sellers,
    subscriptionSettings,
    outcomes: outcomes!,
    databaseUrl,
    stop: async () => {
      client.close();
      await service.stop();
    },
  };
}

export interface ProviderSpec {
  name: string;
  priority: number;
  type?: string;
}

export async function createMerchant(
  client: PaymentsClient,
  clientId: string,
  providers: ProviderSpec[] = [{ name: 'sandbox', priority: 1 }],
): Promise<payments.Merchant> {
  return client.createMerchant({
    clientId,
    mcc: '5999',
    name: 'Loja Teste',
    merchantName: 'Loja Teste',
    merchantUrl: 'https://loja.example.test',
    providers: providers.map((p) => ({ name: p.name, priority: p.priority, credentials: { type: p.type ?? 'SANDBOX', apiKey: 'sk_test_secret' }, options: {} })),
  });
}

export function providerIdOf(merchant: payments.Merchant, name: string): string {
  const found = merchant.providers.find((p) => p.name === name);
  if (!found) throw new Error(`merchant has no provider ${name}`);
  return found.id;
}

export function expiration(): string {
  return `12/${new Date().getUTCFullYear() + 3}`;
}

export function paymentMethod(overrides: Partial<payments.PaymentMethod> = {}): payments.PaymentMethod {
  return {
    paymentType: 'credit',
    installments: 1,
    recurrence: '',
    expiresIn: 0,
    expiresDate: '',
    instructions: '',
    qrCodeData: '',
    qrCodeImageUrl: '',
    barcodeData: '',
    barcodeImageUrl: '',
    digitableLine: '',
    ...overrides,
  };
}

export function paymentSource(overrides: Partial<payments.PaymentSource> = {}): payments.PaymentSource {
  return { sourceType: 'card', cardId: '', cardCvv: '', tokenId: '', customerId: '', ...overrides };
}

export function inlineCard(number: string, cvv = '123'): payments.CardInput {
  return { cardHolderName: 'Maria Souza', cardNumber: number, cardCvv: cvv, cardExpirationDate: expiration() };
}

export function cardCharge(clientId: string, merchantId: string, number: string, overrides: Partial<payments.CreateChargeRequest> = {}): payments.CreateChargeRequest {
  return {
    clientId,
    merchantId,
    amount: 1000,
    currency: 'BRL',
    orderId: `order-${randomUUID().slice(0, 8)}`,
    statementDescriptor: 'LOJA TESTE',
    description: '',
    customerId: '',
    sessionId: '',
    paymentMethod: paymentMethod(),
    paymentSource: paymentSource({ card: inlineCard(number) }),
    splitRules: [],
    ...overrides,
  };
}

export function pixCharge(clientId: string, merchantId: string, overrides: Partial<payments.CreateChargeRequest> = {}): payments.CreateChargeRequest {
  return cardCharge(clientId, merchantId, '', {
    paymentMethod: paymentMethod({ paymentType: 'pix', expiresIn: 3600 }),
    paymentSource: paymentSource({ sourceType: 'customer', customerId: randomUUID() }),
    ...overrides,
  });
}

export function boletoCharge(
  clientId: string,
  merchantId: string,
  expiresDate: string,
  overrides: Partial<payments.CreateChargeRequest> = {},
): payments.CreateChargeRequest {
  return cardCharge(clientId, merchantId, '', {
    paymentMethod: paymentMethod({ paymentType: 'boleto', expiresDate, instructions: 'Não receber após o vencimento' }),
    paymentSource: paymentSource({ sourceType: 'customer', customerId: randomUUID() }),
    ...overrides,
  });
}

export { failureOf } from '@platform/testkit';

export { outboxOf, type OutboxEvent };

export async function chargeEventsOf(pool: Pool, clientId: string): Promise<OutboxEvent[]> {
  return (await outboxOf(pool, clientId)).filter((e) => e.subject.startsWith('payments.charge.'));
}

export async function chargeCount(pool: Pool, clientId: string): Promise<number> {
  const { rows } = await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM charges WHERE client_id = $1', [clientId]);
  return rows[0]!.n;
}

export const requestSummary = (charge: payments.Charge) =>
  charge.transactionRequests.map((r) => ({ type: r.requestType, status: r.requestStatus, amount: r.amount, providerId: r.providerId }));
