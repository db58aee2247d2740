import { createHash } from 'node:crypto';
import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import Stripe from 'stripe';
import type {
  AuthorizeRequest,
  AuthorizeResult,
  NotificationReader,
  OperationRequest,
  OperationResult,
  PaymentProvider,
  ProviderCall,
  QueryRequest,
  QueryResult,
} from '../domain/types';
import { ProviderUnavailableError } from '../domain/types';
import { endpoint, type ConnectorEnvironment } from '../kit/definition';
import { saleFailure, trustedAuthorities } from '../kit/http';
import { isTechnicalDecline } from '../kit/tables';
import { stripeCredentials, type StripeCredentials } from './credentials';
import { failureOf, type StripeFailure } from './errors';
import { stripeNotifications } from './notifications';
import { fromCancel, fromCapture, fromCardFailure, fromIntent, fromRefund, STRIPE_INSTALLMENTS_CURRENCY, toIntentParams, toQueryResult } from './transformers';

export const STRIPE_TYPE = 'STRIPE';

/**
 * Stripe's API has one documented host for test and live mode alike (the key decides the mode): the official
 * SDK's default, https://api.stripe.com. `STRIPE_API_URL` replaces it (its scheme, host and port: the SDK's
 * `protocol`, `host` and `port` options; the SDK adds the `/v1/` paths itself).
 */
export const STRIPE_HOSTS = { sandbox: 'https://api.stripe.com', production: 'https://api.stripe.com' } as const;

export function stripeBaseUrl(env: ConnectorEnvironment['env'], environment: unknown): string {
  return endpoint(env, 'STRIPE_API_URL', STRIPE_HOSTS, environment);
}

/** How long the SDK waits for an answer at most; the call's own signal usually ends the wait sooner. */
const SDK_TIMEOUT_MS = 60_000;

export interface StripeProviderOptions {
  /** The clock webhook signatures' timestamps are checked against; the system clock by default. */
  now?: () => Date;
}

/**
 * The adapter of Stripe's PaymentIntents through the official Node SDK: credit and debit cards confirmed at once
 * from the card's data (capture at once or a pre-authorization, partial capture), Pix with its QR code; cancel,
 * partial refunds and retrieval. Every request that changes something carries the attempt's idempotency key as
 * Stripe's `Idempotency-Key`; the SDK's own retries are off (the platform retries an attempt with the same key,
 * or fails over).
 */
export class StripeProvider implements PaymentProvider {
  readonly type = STRIPE_TYPE;
  /**
   * Cards (Stripe tells credit from debit by the card's funding) and Pix ("Pix payments": PaymentIntents of type
   * `pix`, BRL, confirmed into a QR code the payer pays in their bank's app). Boleto is not taken here.
   */
  readonly paymentTypes = ['credit', 'debit', 'pix'] as const;
  readonly notifications: NotificationReader;
  private readonly clients = new Map<string, Stripe>();

  constructor(
    private readonly environment: ConnectorEnvironment,
    options: StripeProviderOptions = {},
  ) {
    this.notifications = stripeNotifications(options.now ?? (() => new Date()));
  }

  /** "Create a PaymentIntent" with `confirm=true` (transformers.ts `toIntentParams`). */
  async authorize(request: AuthorizeRequest, call: ProviderCall): Promise<AuthorizeResult> {
    const credentials = this.credentials(call);
    if (request.paymentType !== 'pix' && !request.card) {
      return { status: 'declined', declinedCode: 'invalid_data', message: 'Stripe needs card data for a card payment' };
    }
    if (request.paymentType === 'pix' && request.currency.toUpperCase() !== 'BRL') {
      return { status: 'declined', declinedCode: 'not_permitted', message: `Stripe takes Pix in BRL only, not ${request.currency}` };
    }
    if (request.paymentType !== 'pix' && request.installments > 1 && request.currency.toUpperCase() !== STRIPE_INSTALLMENTS_CURRENCY) {
      return { status: 'declined', declinedCode: 'invalid_installment', message: `Stripe takes card installments in ${STRIPE_INSTALLMENTS_CURRENCY} only, not ${request.currency}` };
    }
    const params = toIntentParams(request);
    try {
      const intent = await this.send(credentials, call, true, (stripe, options) => stripe.paymentIntents.create(params as Stripe.PaymentIntentCreateParams, options));
      return fromIntent(intent);
    } catch (error) {
      let failure;
      try {
        failure = failureOf(error);
      } catch (technical) {
        // No answer, a 5xx, a reset: the PaymentIntent may exist. Only a request that never left moves the charge on.
        throw saleFailure(technical, error);
      }
      // A technical decline (processing_error, try_again_later, ...) is a decline too: the routing moves on.
      if (failure.kind === 'card') return fromCardFailure(failure);
      return { status: 'declined', declinedCode: declinedCodeOf(failure), message: failure.message };
    }
  }

  /** "Capture a PaymentIntent": `amount_to_capture` (the rest of the authorization is released). */
  async capture(request: OperationRequest, call: ProviderCall): Promise<OperationResult> {
    const credentials = this.credentials(call);
    try {
      const intent = await this.send(credentials, call, true, (stripe, options) =>
        stripe.paymentIntents.capture(request.transactionId, { amount_to_capture: request.amount, expand: ['latest_charge'] }, options),
      );
      return fromCapture(intent);
    } catch (error) {
      return operationFailure(failureOf(error));
    }
  }

  /** "Cancel a PaymentIntent": releases an uncaptured authorization, or a Pix not paid yet. */
  async cancel(request: OperationRequest, call: ProviderCall): Promise<OperationResult> {
    const credentials = this.credentials(call);
    try {
      const intent = await this.send(credentials, call, true, (stripe, options) => stripe.paymentIntents.cancel(request.transactionId, {}, options));
      return fromCancel(intent);
    } catch (error) {
      return operationFailure(failureOf(error));
    }
  }

  /** "Create a refund" of the PaymentIntent's charge, whole or in part (`amount`). */
  async refund(request: OperationRequest, call: ProviderCall): Promise<OperationResult> {
    const credentials = this.credentials(call);
    try {
      const refund = await this.send(credentials, call, true, (stripe, options) =>
        stripe.refunds.create({ payment_intent: request.transactionId, amount: request.amount, metadata: { charge_id: request.chargeId } }, options),
      );
      return fromRefund(refund, request.transactionId);
    } catch (error) {
      return operationFailure(failureOf(error));
    }
  }

  /** "Retrieve a PaymentIntent" with its latest charge (captured and refunded amounts). */
  async query(request: QueryRequest, call: ProviderCall): Promise<QueryResult> {
    const credentials = this.credentials(call);
    try {
      const intent = await this.send(credentials, call, false, (stripe, options) =>
        stripe.paymentIntents.retrieve(request.transactionId, { expand: ['latest_charge'] }, options),
      );
      return toQueryResult(intent);
    } catch (error) {
      const failure = failureOf(error);
      if (failure.kind === 'not_found') return { found: false };
      throw new Error(failure.message);
    }
  }

  private credentials(call: ProviderCall): StripeCredentials {
    const parsed = stripeCredentials.safeParse(call.credentials);
    // Where it is wrong, never the values (they are secrets).
    if (!parsed.success) throw new Error(`STRIPE credentials are invalid: ${parsed.error.issues.map((i) => i.path.join('.') || 'credentials').join(', ')}`);
    return parsed.data;
  }

  /** One SDK client per (base URL, key): its own keep-alive agent, the platform's trusted authorities. */
  private client(credentials: StripeCredentials): Stripe {
    const baseUrl = stripeBaseUrl(this.environment.env, credentials.environment);
    const cacheKey = `${baseUrl}\n${createHash('sha256').update(credentials.secretKey).digest('hex')}`;
    let client = this.clients.get(cacheKey);
    if (!client) {
      const url = new URL(baseUrl);
      const protocol = url.protocol === 'http:' ? 'http' : 'https';
      client = new Stripe(credentials.secretKey, {
        protocol,
        host: url.hostname,
        port: url.port || (protocol === 'https' ? 443 : 80),
        httpAgent: protocol === 'https' ? new HttpsAgent({ keepAlive: true, ca: trustedAuthorities(), rejectUnauthorized: true }) : new HttpAgent({ keepAlive: true }),
        maxNetworkRetries: 0,
        timeout: SDK_TIMEOUT_MS,
        telemetry: false,
      });
      this.clients.set(cacheKey, client);
    }
    return client;
  }

  /**
   * Runs one SDK request, giving up when the call's signal ends (the SDK takes no signal: its answer, if one
   * comes later, is dropped). `idempotent` requests carry the attempt's key as `Idempotency-Key`.
   */
  private send<T>(credentials: StripeCredentials, call: ProviderCall, idempotent: boolean, run: (stripe: Stripe, options: Stripe.RequestOptions) => Promise<T>): Promise<T> {
    if (call.signal.aborted) return Promise.reject(new ProviderUnavailableError('Stripe: no time was left for the request'));
    const stripe = this.client(credentials);
    const request = run(stripe, idempotent ? { idempotencyKey: call.idempotencyKey } : {});
    return new Promise<T>((resolve, reject) => {
      const onAbort = () => reject(new ProviderUnavailableError('Stripe did not answer in time'));
      call.signal.addEventListener('abort', onAbort, { once: true });
      request.then(resolve, reject).finally(() => call.signal.removeEventListener('abort', onAbort));
    });
  }
}

function declinedCodeOf(failure: Exclude<StripeFailure, { kind: 'card' }>) {
  if (failure.kind === 'credentials') return 'invalid_merchant' as const;
  if (failure.kind === 'request') return failure.declinedCode;
  return 'invalid_data' as const;
}

/** A capture, cancel or refund Stripe refused. A card error here (rare) that is technical fails over. */
function operationFailure(failure: StripeFailure): OperationResult {
  if (failure.kind === 'card') {
    if (isTechnicalDecline(failure.entry)) throw new ProviderUnavailableError(failure.message);
    return { status: 'failed', declinedCode: failure.entry.declinedCode, message: failure.message };
  }
  return { status: 'failed', declinedCode: declinedCodeOf(failure), message: failure.message };
}
