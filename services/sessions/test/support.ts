import { randomUUID } from 'node:crypto';
import { payments, sessions } from '@platform/contracts';
import { createLogger, createPromiseClient, errors, startService, withTransaction, type Clock, type Pool, type PromiseClient, type RunningService } from '@platform/kit';
import { createTestDatabase, testNatsUrl } from '@platform/testkit';
import type { PaymentsPort, SellersPort, SessionDeps } from '../src/app/deps';
import type { FeeRule } from '../src/domain/session';
import { applyChargeEvent } from '../src/app/applyChargeEvent';
import { PlaceQueue } from '../src/app/placeQueue';
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
  /** Charges by idempotency key: a key seen before answers with its charge again, as payments does. */
  readonly byKey = new Map<string, { request: string; made: Promise<payments.Charge> }>();
  /**
   * Runs once a charge is made, before it is answered: a test delivers its event here (the event first), or throws
   * (the answer lost on its way back although the charge was made).
   */
  afterCharge?: (charge: payments.Charge, request: payments.CreateChargeRequest) => Promise<void>;

  /** Card tokens by id: the client's, and the session whose public key made each ('' for a client key). */
  readonly tokens = new Map<string, { clientId: string; sessionId: string }>();
  readonly tokenQuestions: string[] = [];

  /** A token of the client, made with the public key of `sessionId` ('' for one made with a client key). */
  addToken(clientId: string, sessionId = ''): string {
    const id = randomUUID();
    this.tokens.set(id, { clientId, sessionId });
    return id;
  }

  async tokenSession(clientId: string, tokenId: string): Promise<string> {
    this.tokenQuestions.push(tokenId);
    const token = this.tokens.get(tokenId);
    if (!token || token.clientId !== clientId) throw errors.notFound('Token', tokenId);
    return token.sessionId;
  }

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

  async createCharge(request: payments.CreateChargeRequest, idempotencyKey?: string): Promise<payments.Charge> {
    const known = idempotencyKey ? this.byKey.get(idempotencyKey) : undefined;
    if (known) {
      // Payments refuses the key with another request, and answers a retry with the first try's charge (409 while
      // that try is still at work; here it waits).
      if (known.request !== JSON.stringify(request)) throw errors.businessRule('idempotency_key_reused', 'This X-Idempotency-Key was used with a different request');
      await known.made.catch(() => undefined);
      return known.made;
    }
    const made = (async () => {
      await new Promise((resolve) => setTimeout(resolve, 20));
      return this.charge(request);
    })();
    if (idempotencyKey) this.byKey.set(idempotencyKey, { request: JSON.stringify(request), made });
    const charge = await made;
    await this.afterCharge?.(charge, request);
    return charge;
  }

  private charge(request: payments.CreateChargeRequest): payments.Charge {
    this.charges.push(request);
    // As payments: a session is paid only with a token made for it.
    const tokenId = request.paymentSource?.sourceType === 'token' ? request.paymentSource.tokenId : undefined;
    if (tokenId !== undefined && this.tokens.get(tokenId)?.sessionId !== request.sessionId) {
      throw errors.businessRule('token_not_for_session', 'This token was not made for this session');
    }
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
  /** The service's queue of buyers waiting for a place. */
  places: PlaceQueue;
  /** The service's own pool, for reading its tables. */
  pool: Pool;
  stop(): Promise<void>;
}

/** The real service in-process on a free port, on a fresh database, called through the generated client. */
export async function startSessions(options: { env?: NodeJS.ProcessEnv; clock?: Clock } = {}): Promise<RunningSessions> {
  const databaseUrl = await createTestDatabase('sessions');
  const fake = new FakePayments();
  const sellers = new FakeSellers();
  const places = new PlaceQueue();
  const service = await startService(defineSessionsService({ payments: fake, sellers, clock: options.clock, places }), {
    DATABASE_URL: databaseUrl,
    NATS_URL: testNatsUrl(),
    GRPC_HOST: '127.0.0.1',
    GRPC_PORT: '0',
    METRICS_PORT: '0',
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
    places,
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
    places: running.places,
  };
}

/** A 1:1 session of two blue mugs (5,000), paid by credit unless `overrides` say otherwise, for a new merchant of the client. */
export function createTestSession(running: RunningSessions, clientId: string, overrides: Partial<sessions.CreateSessionRequest> = {}): Promise<sessions.Session> {
  return running.client.createSession({
    clientId,
    merchantId: running.payments.addMerchant(clientId),
    name: 'Blue mugs',
    orderId: 'order-1',
    currency: 'BRL',
    paymentMethods: [payments.PaymentMethod.fromPartial({ paymentType: 'credit', installments: 1 })],
    items: [{ name: 'Blue mug', unitPrice: 2500, quantity: 2, description: '' }],
    splitRules: [],
    statementDescriptor: '',
    ...overrides,
  });
}

/** A `payments.charge.<status>` event of a session's charge, handed to the consumer's handler as NATS would. */
export async function deliverChargeEvent(deps: SessionDeps, clientId: string, charge: payments.Charge, status: string): Promise<void> {
  await withTransaction(deps.pool, (tx) =>
    applyChargeEvent(deps, tx, clientId, {
      id: charge.id,
      sessionId: charge.sessionId ?? null,
      status,
      amount: charge.amount,
      paymentMethod: charge.paymentMethod ? { paymentType: charge.paymentMethod.paymentType } : null,
    }),
  );
}

export { failureOf } from '@platform/testkit';
