import { CardToken, MercadoPagoConfig, MPConnectionError, Payment, PaymentRefund } from 'mercadopago';
import { AppConfig } from 'mercadopago/dist/utils/config';
import type { CardTokenCreateBody } from 'mercadopago/dist/clients/cardToken/create/types';
import type {
  AuthorizeRequest,
  AuthorizeResult,
  LookupRequest,
  LookupResult,
  OperationRequest,
  OperationResult,
  PaymentProvider,
  ProviderCall,
  QueryRequest,
  QueryResult,
} from '../domain/types';
import { ProviderOutcomeUnknownError, ProviderUnavailableError } from '../domain/types';
import { endpoint, type ConnectorEnvironment } from '../kit/definition';
import { mercadoPagoCredentials, type MercadoPagoCredentials } from './credentials';
import { failureOf, type MercadoPagoFailure } from './errors';
import { mercadoPagoNotifications } from './notifications';
import {
  cardMethodOf,
  fromCancel,
  fromCapture,
  fromPayment,
  fromRefund,
  idempotencyKeyOf,
  identificationOf,
  toCardTokenRequest,
  toPaymentRequest,
  toQueryResult,
  toReais,
  type MercadoPagoPayment,
  type MercadoPagoRefund,
} from './transformers';

export const MERCADOPAGO_TYPE = 'MERCADOPAGO';

/**
 * The host Mercado Pago documents ("API reference": every resource under https://api.mercadopago.com). It has no
 * separate sandbox host: test credentials (TEST-..., or a test user's) make test payments on the same one. The
 * operator's MERCADOPAGO_API_URL replaces it.
 */
export const MERCADOPAGO_HOSTS = { sandbox: 'https://api.mercadopago.com', production: 'https://api.mercadopago.com' } as const;

export function mercadoPagoBaseUrl(env: ConnectorEnvironment['env'], environment: unknown): string {
  return endpoint(env, 'MERCADOPAGO_API_URL', MERCADOPAGO_HOSTS, environment);
}

/**
 * Runs one SDK call against `baseUrl`.
 *
 * The official SDK (mercadopago 3.x) has no per-client base URL: every request is sent to the static
 * `AppConfig.BASE_URL` (https://api.mercadopago.com), which `RestClient.fetch` reads while it builds the request's
 * URL, synchronously, before its first `await` (the URL is then kept for the whole request, retries included).
 * That static is the one supported place to point the SDK elsewhere. Setting it once for the process would do
 * for the operator's MERCADOPAGO_API_URL (a process-wide choice anyway), but it would leave a global that reads
 * differently from what the SDK documents, and two adapters with different hosts in one process (tests, or an
 * operator variable changed between them) would see each other's. So it is set only for the synchronous start of
 * the call and put back before this function returns: the request has its URL by then, and between calls the
 * static reads what it read before.
 */
export function atBaseUrl<T>(baseUrl: string, start: () => Promise<T>): Promise<T> {
  const settings: { BASE_URL: string } = AppConfig;
  const before = settings.BASE_URL;
  settings.BASE_URL = baseUrl.replace(/\/+$/, '');
  try {
    return start();
  } finally {
    settings.BASE_URL = before;
  }
}

/** The SDK stops waiting by itself after this long; the platform's own deadline (`call.signal`) comes first. */
const SDK_TIMEOUT_MS = 30_000;

/** Settles with the SDK's promise, or rejects as a technical failure when the platform's deadline passes first. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal, operation: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new ProviderUnavailableError(`Mercado Pago did not answer ${operation} in time`));
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

export interface MercadoPagoProviderOptions {
  /** For a Pix's date_of_expiration; the system clock by default. */
  now?: () => Date;
}

type Sdk = { payment: Payment; refund: PaymentRefund; cardToken: CardToken };

/**
 * The adapter of Mercado Pago's payments API through its official Node SDK: credit and debit cards (the card
 * tokenized first, `POST /v1/card_tokens`, then `POST /v1/payments`), with or without capture, partial capture,
 * cancel of what was not captured, total and partial refunds, Pix (the copia e cola as the pending charge's
 * instructions), and query. Every write carries an `X-Idempotency-Key` derived from the attempt's key.
 */
export class MercadoPagoProvider implements PaymentProvider {
  readonly type = MERCADOPAGO_TYPE;
  readonly paymentTypes = ['credit', 'debit', 'pix'] as const;
  readonly notifications = mercadoPagoNotifications;
  private readonly now: () => Date;

  constructor(
    private readonly environment: ConnectorEnvironment,
    options: MercadoPagoProviderOptions = {},
  ) {
    this.now = options.now ?? (() => new Date());
  }

  /** "Card tokens" > create, then "Payments" > create (cards); "Pix" > create payment. */
  async authorize(request: AuthorizeRequest, call: ProviderCall): Promise<AuthorizeResult> {
    const credentials = this.credentials(call);
    if (request.currency !== 'BRL') return { status: 'declined', declinedCode: 'not_permitted', message: `Mercado Pago (Brazil) takes BRL only, not ${request.currency}` };
    const payerEmail = request.payer?.email ?? (typeof call.options.payerEmail === 'string' ? call.options.payerEmail : undefined);
    if (!payerEmail) {
      return { status: 'declined', declinedCode: 'invalid_data', message: "Mercado Pago needs the payer's e-mail (the charge's customer, or the entry option payerEmail)" };
    }
    const identification = identificationOf(request.payer?.document);
    const now = this.now();
    let token: string | undefined;
    let paymentMethodId = 'pix';
    if (request.paymentType !== 'pix') {
      const card = request.card;
      if (!card) return { status: 'declined', declinedCode: 'invalid_data', message: 'Mercado Pago needs card data for a card payment' };
      const method = cardMethodOf(request.paymentType, card.brand);
      if (!method) return { status: 'declined', declinedCode: 'card_not_supported', message: `Mercado Pago does not take ${card.brand} ${request.paymentType} cards` };
      paymentMethodId = method;
      // The SDK's type omits `cardholder`, which the card tokens API takes (and its sandbox reads): the body is sent as JSON whole.
      const body: CardTokenCreateBody = toCardTokenRequest(card, identification);
      const created = await this.run(credentials, call, 'the card token', (sdk) =>
        sdk.cardToken.create({ body, requestOptions: this.requestOptions(call, 'card-token') }),
      );
      if (!created.ok) return { status: 'declined', declinedCode: created.failure.kind === 'credentials' ? 'invalid_merchant' : 'invalid_data', message: created.failure.message };
      token = created.value.id;
      if (!token) return { status: 'declined', declinedCode: 'generic', message: 'Mercado Pago answered a card token without id' };
    }
    const body = toPaymentRequest(request, { payerEmail, ...(identification ? { identification } : {}), ...(token ? { token } : {}), paymentMethodId, now });
    const created = await this.run(
      credentials,
      call,
      'the payment',
      (sdk) => sdk.payment.create({ body, requestOptions: this.requestOptions(call, 'payment') }),
      { sale: true },
    );
    if (!created.ok) return { status: 'declined', declinedCode: created.failure.kind === 'credentials' ? 'invalid_merchant' : 'invalid_data', message: created.failure.message };
    const payment = created.value as MercadoPagoPayment;
    // The SDK reads an unreadable 2xx body (HTML, truncated JSON, nothing) as `{}`: a payment that may exist.
    if (!readablePayment(payment)) throw new ProviderOutcomeUnknownError('Mercado Pago answered the payment with a body that is not a payment');
    return fromPayment(payment, { cvvSent: Boolean(request.card?.cvv), pixExpiresAt: new Date(now.getTime() + (request.pix?.expiresIn ?? 3600) * 1000) });
  }

  /**
   * "Payments" > "Search payments": `GET /v1/payments/search?external_reference=<the charge's id>`, newest first.
   * The attempt's payment carries the charge's id as its `external_reference` (toPaymentRequest), so the payment
   * found is the one the unknown attempt made (one attempt per provider entry and charge). No result is Mercado
   * Pago saying it has none; an answer that cannot be read throws.
   */
  async lookup(request: LookupRequest, call: ProviderCall): Promise<LookupResult> {
    const credentials = this.credentials(call);
    const authorization = request.authorization;
    const found = await this.run(credentials, call, 'the payment search', (sdk) =>
      sdk.payment.search({
        options: { external_reference: authorization.chargeId, sort: 'date_created', criteria: 'desc', limit: 10 },
        requestOptions: this.requestOptions(call),
      }),
    );
    if (!found.ok) throw new Error(found.failure.message);
    const results: unknown = (found.value as { results?: unknown }).results;
    if (!Array.isArray(results)) throw new Error('Mercado Pago answered the payment search without results');
    const own = (results as MercadoPagoPayment[]).filter((payment) => payment.external_reference === undefined || payment.external_reference === null || payment.external_reference === authorization.chargeId);
    if (own.length === 0) return { found: false };
    // A payment that took the money first (approved, authorized), else the newest.
    const payment = own.find((p) => p.status === 'approved' || p.status === 'authorized') ?? own[0]!;
    if (!readablePayment(payment)) throw new Error('Mercado Pago answered a payment search result that is not a payment');
    const pixExpiresAt = new Date(request.now.getTime() + (authorization.pix?.expiresIn ?? 3600) * 1000);
    return { found: true, result: fromPayment(payment, { cvvSent: Boolean(authorization.card?.cvv), pixExpiresAt }) };
  }

  /** "Capture authorized payment": `PUT /v1/payments/{id}` with `capture: true` and the amount (decimal reais), whole or part. */
  async capture(request: OperationRequest, call: ProviderCall): Promise<OperationResult> {
    const credentials = this.credentials(call);
    const captured = await this.run(credentials, call, 'the capture', (sdk) =>
      sdk.payment.capture({ id: request.transactionId, transaction_amount: toReais(request.amount), requestOptions: this.requestOptions(call, 'capture') }),
    );
    if (!captured.ok) return { status: 'failed', message: captured.failure.message };
    return fromCapture(captured.value as MercadoPagoPayment, request.transactionId);
  }

  /** "Cancellations": `PUT /v1/payments/{id}` with `status: "cancelled"` (an authorization not captured, a Pix not paid). */
  async cancel(request: OperationRequest, call: ProviderCall): Promise<OperationResult> {
    const credentials = this.credentials(call);
    const cancelled = await this.run(credentials, call, 'the cancellation', (sdk) =>
      sdk.payment.cancel({ id: request.transactionId, requestOptions: this.requestOptions(call, 'cancel') }),
    );
    if (!cancelled.ok) return { status: 'failed', message: cancelled.failure.message };
    return fromCancel(cancelled.value as MercadoPagoPayment, request.transactionId);
  }

  /** "Refunds" > "Create refund": `POST /v1/payments/{id}/refunds` with `amount` (decimal reais); total when it is all that was captured. */
  async refund(request: OperationRequest, call: ProviderCall): Promise<OperationResult> {
    const credentials = this.credentials(call);
    const refunded = await this.run(credentials, call, 'the refund', (sdk) =>
      sdk.refund.create({ payment_id: request.transactionId, body: { amount: toReais(request.amount) }, requestOptions: this.requestOptions(call, 'refund') }),
    );
    if (!refunded.ok) return { status: 'failed', message: refunded.failure.message };
    return fromRefund(refunded.value as MercadoPagoRefund, request.transactionId);
  }

  /** "Get payment": `GET /v1/payments/{id}`. */
  async query(request: QueryRequest, call: ProviderCall): Promise<QueryResult> {
    const credentials = this.credentials(call);
    const found = await this.run(credentials, call, 'the query', (sdk) => sdk.payment.get({ id: request.transactionId, requestOptions: this.requestOptions(call) }));
    if (found.ok) return toQueryResult(found.value as MercadoPagoPayment);
    if (found.failure.kind === 'not_found') return { found: false };
    throw new Error(found.failure.message);
  }

  /** The SDK's request options: its own retries off (the platform retries and fails over), and the write's idempotency key. */
  private requestOptions(call: ProviderCall, purpose?: Parameters<typeof idempotencyKeyOf>[1]) {
    return { timeout: SDK_TIMEOUT_MS, maxRetries: 0, ...(purpose ? { idempotencyKey: idempotencyKeyOf(call.idempotencyKey, purpose) } : {}) };
  }

  /**
   * One SDK call with fresh clients: the SDK's clients merge each call's options into their shared configuration,
   * so they are not shared between calls (they hold no connections: the SDK sends through Node's fetch, whose
   * connections are kept alive by the process).
   */
  private async run<T>(
    credentials: MercadoPagoCredentials,
    call: ProviderCall,
    operation: string,
    send: (sdk: Sdk) => Promise<T>,
    options: { sale?: boolean } = {},
  ): Promise<{ ok: true; value: T } | { ok: false; failure: MercadoPagoFailure }> {
    if (call.signal.aborted) throw new ProviderUnavailableError(`Mercado Pago was not asked ${operation}: the request's time was up`);
    const config = new MercadoPagoConfig({ accessToken: credentials.accessToken });
    const sdk: Sdk = { payment: new Payment(config), refund: new PaymentRefund(config), cardToken: new CardToken(config) };
    const baseUrl = mercadoPagoBaseUrl(this.environment.env, credentials.environment);
    try {
      const value = await untilAborted(
        atBaseUrl(baseUrl, () => send(sdk)),
        call.signal,
        operation,
      );
      return { ok: true, value };
    } catch (error) {
      if (!options.sale) return { ok: false, failure: failureOf(error, operation) };
      // The request was sent: no answer in time, a reset, a 5xx or a locked key may each hide a payment made.
      try {
        return { ok: false, failure: failureOf(error, operation) };
      } catch (technical) {
        if (technical instanceof ProviderUnavailableError && !nothingSent(error)) throw new ProviderOutcomeUnknownError(technical.message, { cause: technical });
        throw technical;
      }
    }
  }

  private credentials(call: ProviderCall): MercadoPagoCredentials {
    const parsed = mercadoPagoCredentials.safeParse(call.credentials);
    // Where it is wrong, never the values (they are secrets).
    if (!parsed.success) throw new Error(`MERCADOPAGO credentials are invalid: ${parsed.error.issues.map((i) => i.path.join('.') || 'credentials').join(', ')}`);
    return parsed.data;
  }
}

/** A payment as "Create payment" documents it: an id and a status to read. */
function readablePayment(payment: MercadoPagoPayment | undefined): boolean {
  if (typeof payment !== 'object' || payment === null) return false;
  const id = payment.id as unknown;
  return (typeof id === 'number' || (typeof id === 'string' && id !== '')) && typeof payment.status === 'string' && payment.status !== '';
}

/** The connection codes that say the request never left (no connection was made): nothing can have been paid. */
const NOT_CONNECTED = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

/** Whether the SDK's error says the request was never sent: fetch could not connect at all. */
function nothingSent(error: unknown): boolean {
  if (!(error instanceof MPConnectionError)) return false;
  const fetchError = (error as unknown as { __cause__?: { cause?: { code?: unknown } } }).__cause__;
  const code = fetchError?.cause?.code;
  return typeof code === 'string' && NOT_CONNECTED.has(code);
}
