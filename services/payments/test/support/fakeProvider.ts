import { createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { payments } from '@platform/contracts';
import { createPromiseClient, listJobs, scheduleJob, type Pool } from '@platform/kit';
import { eventually, ManualClock, startServiceForTest } from '@platform/testkit';
import { fromAdapters, type ProviderRegistry } from '../../src/modules/connectors/app/registry';
import { SandboxProvider } from '../../src/modules/connectors/sandbox/sandbox';
import {
  NotificationRefusedError,
  type AuthorizeRequest,
  type AuthorizeResult,
  type InboundNotification,
  type NotificationReading,
  type OperationRequest,
  type OperationResult,
  type PaymentProvider,
  type ProviderCall,
  type ProviderChargeStatus,
  type QueryRequest,
  type QueryResult,
} from '../../src/modules/connectors/domain/types';
import type { PaymentType } from '../../src/modules/charges/domain/charge';
import { definePaymentsService } from '../../src/service';
import { manualTimer, type OutcomeRecorder } from '../../src/modules/charges/app/outcomeRecorder';
import { FakeClientsPort } from './clients';
import { FakeCustomers } from './customers';
import { FakeSellers } from './sellers';
import { FakeSubscriptionSettings } from './subscriptionSettings';
import type { PaymentsClient } from './charges';

/** What the fake provider holds of one transaction, as its status query answers it. */
export interface FakeTransaction {
  status: ProviderChargeStatus;
  capturedAmount: number;
  refundedAmount: number;
}

export const SIGNATURE_HEADER = 'x-fake-signature';

/** The signature the fake provider puts on what it posts: HMAC-SHA256 of the body bytes under the entry's apiKey. */
export function signBody(apiKey: string, body: Buffer): string {
  return createHmac('sha256', apiKey).update(body).digest('hex');
}

/**
 * A provider with a status query and signed notifications, as a real acquirer's connector has them. Its
 * transactions live in memory; a test moves them (`settle`) as the provider's back office would, and scripts how
 * it answers captures and refunds (`operationAnswer`). The notification body is
 * `{"transactions": [{"id": "...", "status": "authorized"}]}`; a signed entry without `status` leaves the status
 * to be asked (`query`).
 */
export class FakeProvider implements PaymentProvider {
  readonly transactions = new Map<string, FakeTransaction>();
  readonly calls: Array<{ operation: string; transactionId?: string }> = [];
  /** How captures, cancels and refunds are answered. */
  operationAnswer: 'success' | 'pending' = 'success';
  /** When the Pix QR codes it makes stop working. */
  pixExpiresAt = new Date(Date.UTC(2030, 0, 1));
  /** Runs after a transaction is made and before the authorization is answered (a webhook racing the answer). */
  beforeAnswer?: (transactionId: string) => Promise<void>;

  constructor(
    readonly type: string,
    readonly paymentTypes?: readonly PaymentType[],
  ) {}

  async authorize(request: AuthorizeRequest, _call: ProviderCall): Promise<AuthorizeResult> {
    const transactionId = `fake_${randomUUID()}`;
    this.calls.push({ operation: 'authorize', transactionId });
    if (request.paymentType === 'pix') {
      this.transactions.set(transactionId, { status: 'pending', capturedAmount: 0, refundedAmount: 0 });
      const expiresAt = this.pixExpiresAt;
      await this.beforeAnswer?.(transactionId);
      return { status: 'pending', transactionId, pix: { qrCodeData: `00020126-${transactionId}`, qrCodeImageUrl: `https://fake.example.test/${transactionId}.png`, expiresAt } };
    }
    const status = request.capture ? 'authorized' : 'pre_authorized';
    this.transactions.set(transactionId, { status, capturedAmount: request.capture ? request.amount : 0, refundedAmount: 0 });
    return { status: 'authorized', transactionId, captured: request.capture, cvvChecked: true };
  }

  async capture(request: OperationRequest): Promise<OperationResult> {
    return this.operate('capture', request, (t) => ({ ...t, status: 'authorized', capturedAmount: request.amount }));
  }

  async cancel(request: OperationRequest): Promise<OperationResult> {
    return this.operate('cancel', request, (t) => ({ ...t, status: t.status === 'pending' ? 'canceled' : 'voided' }));
  }

  async refund(request: OperationRequest): Promise<OperationResult> {
    return this.operate('refund', request, (t) => {
      const refundedAmount = t.refundedAmount + request.amount;
      return { ...t, refundedAmount, status: refundedAmount >= t.capturedAmount ? 'voided' : 'authorized' };
    });
  }

  private async operate(operation: string, request: OperationRequest, done: (t: FakeTransaction) => FakeTransaction): Promise<OperationResult> {
    this.calls.push({ operation, transactionId: request.transactionId });
    const transaction = this.transactions.get(request.transactionId);
    if (!transaction) return { status: 'failed', message: 'unknown transaction' };
    if (this.operationAnswer === 'pending') {
      if (operation === 'refund') this.transactions.set(request.transactionId, { ...transaction, status: 'refund_pending' });
      if (operation === 'capture') this.transactions.set(request.transactionId, { ...transaction, status: 'capture_pending' });
      return { status: 'pending', transactionId: request.transactionId, message: `${operation} received` };
    }
    this.transactions.set(request.transactionId, done(transaction));
    return { status: 'success', transactionId: request.transactionId };
  }

  async query(request: QueryRequest, _call: ProviderCall): Promise<QueryResult> {
    this.calls.push({ operation: 'query', transactionId: request.transactionId });
    const transaction = this.transactions.get(request.transactionId);
    if (!transaction) return { found: false };
    return {
      found: true,
      status: transaction.status,
      providerStatus: `FAKE_${transaction.status.toUpperCase()}`,
      capturedAmount: transaction.capturedAmount,
      refundedAmount: transaction.refundedAmount,
    };
  }

  /** The provider's back office moves a transaction (a Pix paid, a refund confirmed or refused). */
  settle(transactionId: string, change: Partial<FakeTransaction>): void {
    const transaction = this.transactions.get(transactionId);
    if (!transaction) throw new Error(`no transaction ${transactionId}`);
    this.transactions.set(transactionId, { ...transaction, ...change });
  }

  count(operation: string): number {
    return this.calls.filter((c) => c.operation === operation).length;
  }

  readonly notifications = {
    read(notification: InboundNotification, credentials: Record<string, unknown>): NotificationReading {
      const signature = Buffer.from(notification.headers[SIGNATURE_HEADER] ?? '', 'hex');
      const expected = Buffer.from(signBody(String(credentials.apiKey), notification.rawBody), 'hex');
      if (signature.length !== expected.length || !timingSafeEqual(signature, expected)) throw new NotificationRefusedError('bad signature');
      const body = JSON.parse(notification.rawBody.toString('utf8')) as { transactions: Array<{ id: string; status?: ProviderChargeStatus }> };
      return {
        transactions: body.transactions.map((t) => ({ transactionId: t.id, ...(t.status ? { status: t.status, providerStatus: `FAKE_${t.status.toUpperCase()}` } : {}) })),
        reply: { status: 200, body: { ok: true } },
      };
    },
  };
}

export interface RunningWithProviders {
  client: PaymentsClient;
  pool: Pool;
  clock: ManualClock;
  /** The service's provider outcome recorder: its timer never fires, the tests flush it. */
  outcomes: OutcomeRecorder;
  stop(): Promise<void>;
}

/**
 * The real payments service on a fresh database, whose registry holds the given adapters (and the sandbox, if not
 * replaced), or is the given registry (the real connectors, pointed at simulators).
 */
export async function startWithProviders(
  adapters: PaymentProvider[] | ProviderRegistry,
  clock = new ManualClock(),
  /** More of the service's variables (ROUTING_*, ...). */
  env: Record<string, string> = {},
): Promise<RunningWithProviders> {
  const sandbox = new SandboxProvider({ publicUrl: 'https://pay.example.test' });
  const registry = Array.isArray(adapters) ? fromAdapters(adapters.some((a) => a.type === 'SANDBOX') ? adapters : [sandbox, ...adapters]) : adapters;
  let outcomes: OutcomeRecorder | undefined;
  const { service, address } = await startServiceForTest(
    definePaymentsService({
      clock,
      outcomesTimer: manualTimer,
      onOutcomeRecorder: (recorder) => {
        outcomes = recorder;
      },
      providers: registry,
      customers: new FakeCustomers({ strict: false }),
      sellers: new FakeSellers(),
      subscriptionSettings: new FakeSubscriptionSettings(),
      clients: new FakeClientsPort(),
    }),
    {
      env: {
        CARD_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
        CARD_FINGERPRINT_KEY: randomBytes(32).toString('hex'),
        PROVIDER_TIMEOUT_MS: '2000',
        PUBLIC_URL: 'https://pay.example.test',
        CUSTOMERS_GRPC_URL: '127.0.0.1:1',
        SELLERS_AND_REVIEWS_GRPC_URL: '127.0.0.1:1',
        SETTINGS_GRPC_URL: '127.0.0.1:1',
        ...env,
      },
    },
  );
  const client = createPromiseClient(payments.PaymentsServiceService, payments.PaymentsServiceClient, address);
  return {
    client,
    pool: service.runtime.pool,
    clock,
    outcomes: outcomes!,
    stop: async () => {
      client.close();
      await service.stop();
    },
  };
}

/** A merchant of `clientId` whose only payment provider is a SUBACQUIRER entry served by the fake (apiKey is its secret). */
export async function fakeMerchant(client: PaymentsClient, clientId: string, apiKey: string): Promise<{ merchantId: string; providerId: string }> {
  const merchant = await client.createMerchant({
    clientId,
    mcc: '5999',
    name: 'Loja Teste',
    merchantName: 'Loja Teste',
    merchantUrl: 'https://loja.example.test',
    providers: [{ name: 'acquirer', priority: 1, credentials: { type: 'SUBACQUIRER', apiKey }, options: {} }],
  });
  return { merchantId: merchant.id, providerId: merchant.providers[0]!.id };
}

/** A notification as the fake provider posts it, signed with `apiKey` unless a signature is given. */
export function notification(providerId: string, apiKey: string, transactions: Array<{ id: string; status?: ProviderChargeStatus }>, signature?: string): payments.ReceiveProviderNotificationRequest {
  const rawBody = Buffer.from(JSON.stringify({ transactions }));
  return { providerId, headers: { [SIGNATURE_HEADER]: signature ?? signBody(apiKey, rawBody), 'content-type': 'application/json' }, query: {}, rawBody };
}

/** Runs a charges job now, as its schedule would, and waits until the service's runner finished it (a failure throws). */
export async function runJob(pool: Pool, kind: string): Promise<void> {
  const id = await scheduleJob(pool, { kind, runAt: new Date(), maxAttempts: 1 });
  await eventually(async () => {
    const job = (await listJobs(pool, kind)).find((j) => j.id === id);
    if (job?.lastError) throw new Error(`${kind} failed: ${job.lastError}`);
    return job ? undefined : true;
  }, `${kind} done`);
}

export async function syncStateOf(pool: Pool, chargeId: string): Promise<{ nextAt: Date | null; attempts: number; stoppedAt: Date | null }> {
  const { rows } = await pool.query<{ sync_next_at: Date | null; sync_attempts: number; sync_stopped_at: Date | null }>(
    'SELECT sync_next_at, sync_attempts, sync_stopped_at FROM charges WHERE id = $1',
    [chargeId],
  );
  const row = rows[0]!;
  return { nextAt: row.sync_next_at, attempts: row.sync_attempts, stoppedAt: row.sync_stopped_at };
}
