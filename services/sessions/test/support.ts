import { randomUUID } from 'node:crypto';
import { payments, sessions } from '@platform/contracts';
import { createLogger, createPromiseClient, errors, startService, type Clock, type Pool, type PromiseClient, type RunningService } from '@platform/kit';
import { createTestDatabase, testNatsUrl } from '@platform/testkit';
import type { PaymentsPort, SellersPort, SessionDeps } from '../src/app/deps';
import type { FeeRule } from '../src/domain/session';
import { defineSessionsService } from '../src/service';
import { createSessionStore } from '../src/store/sessionStore';

export type SessionsClient = PromiseClient<typeof sessions.SessionsServiceService>;

export const TEST_KEY_SECRET = '11'.repeat(32);

/**
 * Payments as sessions sees it: merchants of a client with their platform fee, and charges answered by payment
 * type (credit authorized, pix and boleto pending; a card holder named DECLINED is declined), after a short delay so
 * that buyers paying at once overlap.
 */
export class FakePayments implements PaymentsPort {
  readonly merchants = new Map<string, { clientId: string; fee: { enabled: boolean; rules: FeeRule[] } }>();
  readonly charges: payments.CreateChargeRequest[] = [];

  addMerchant(clientId: string, fee: { enabled: boolean; rules: FeeRule[] } = { enabled: false, rules: [] }): string {
    const id = randomUUID();
    this.merchants.set(id, { clientId, fee });
    return id;
  }

  async platformFee(clientId: string, merchantId: string): Promise<{ enabled: boolean; rules: FeeRule[] }> {
    const merchant = this.merchants.get(merchantId);
    if (!merchant || merchant.clientId !== clientId) throw errors.notFound('Merchant', merchantId);
    return merchant.fee;
  }

  async createCharge(request: payments.CreateChargeRequest): Promise<payments.Charge> {
    await new Promise((resolve) => setTimeout(resolve, 20));
    this.charges.push(request);
    const type = request.paymentMethod?.paymentType ?? '';
    if (request.paymentSource?.card?.cardHolderName === 'DECLINED') throw errors.declined('card_declined', 'The card was declined');
    const status = type === 'pix' || type === 'boleto' ? 'pending' : 'authorized';
    return payments.Charge.fromPartial({
      id: randomUUID(),
      clientId: request.clientId,
      merchantId: request.merchantId,
      sessionId: request.sessionId,
      amount: request.amount,
      currency: request.currency,
      status,
      paymentMethod: request.paymentMethod,
      createdAt: new Date(),
      updatedAt: new Date(),
    });
  }
}

/** sellers-and-reviews as sessions sees it: every seller can receive but the ones refused here, with their code. */
export class FakeSellers implements SellersPort {
  readonly refused = new Map<string, string>();
  readonly asked: Array<{ clientId: string; merchantId: string; sellerIds: string[] }> = [];

  async checkSplitReceivers(clientId: string, merchantId: string, sellerIds: readonly string[]): Promise<void> {
    if (sellerIds.length === 0) return;
    this.asked.push({ clientId, merchantId, sellerIds: [...sellerIds] });
    for (const id of sellerIds) {
      const code = this.refused.get(id);
      if (code) throw errors.businessRule(code, `seller ${id} of the split rules cannot receive`);
    }
  }
}

export interface RunningSessions {
  service: RunningService;
  client: SessionsClient;
  payments: FakePayments;
  sellers: FakeSellers;
  /** The service's own pool, for reading its tables. */
  pool: Pool;
  stop(): Promise<void>;
}

/** The real service in-process on a free port, on a fresh database, called through the generated client. */
export async function startSessions(options: { env?: NodeJS.ProcessEnv; clock?: Clock } = {}): Promise<RunningSessions> {
  const databaseUrl = await createTestDatabase('sessions');
  const fake = new FakePayments();
  const sellers = new FakeSellers();
  const service = await startService(defineSessionsService({ payments: fake, sellers, clock: options.clock }), {
    DATABASE_URL: databaseUrl,
    NATS_URL: testNatsUrl(),
    GRPC_HOST: '127.0.0.1',
    GRPC_PORT: '0',
    LOG_LEVEL: 'silent',
    SESSIONS_KEY_SECRET: TEST_KEY_SECRET,
    PAYMENTS_GRPC_URL: '127.0.0.1:1',
    SELLERS_AND_REVIEWS_GRPC_URL: '127.0.0.1:1',
    PUBLIC_URL: 'https://pay.example.test',
    SESSIONS_CHARGES_DURABLE: `sessions_test_${randomUUID().slice(0, 8)}`,
    ...options.env,
  });
  const client = createPromiseClient(sessions.SessionsServiceService, sessions.SessionsServiceClient, `127.0.0.1:${service.port}`);
  return {
    service,
    client,
    payments: fake,
    sellers,
    pool: service.runtime.pool,
    stop: async () => {
      client.close();
      await service.stop();
    },
  };
}

/**
 * What the running service's consumer and job handlers are given (its pool, the same fake payments and clock), so a
 * test can hand them a charge event or a due-date job directly instead of waiting for NATS or the job runner.
 */
export function depsOf(running: RunningSessions, clock: Clock): SessionDeps {
  return {
    pool: running.pool,
    store: createSessionStore(),
    clock,
    log: createLogger({ name: 'sessions-test', level: 'silent' }),
    payments: running.payments,
    sellers: running.sellers,
    keySecret: Buffer.from(TEST_KEY_SECRET, 'hex'),
    publicUrl: 'https://pay.example.test',
  };
}

export { failureOf } from '@platform/testkit';
