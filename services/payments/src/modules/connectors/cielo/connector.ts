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
import { HttpClients, type HttpAnswer, type HttpRequest } from '../kit/http';
import { cieloCredentials, type CieloCredentials } from './credentials';
import { failureOf } from './errors';
import { cieloNotifications } from './notifications';
import { fromCapture, fromSale, fromVoid, merchantOrderIdOf, paymentIdOf, requestIdOf, toQueryResult, toSaleRequest, type CieloGateway, type CieloOperationAnswer, type CieloPayment, type CieloSale } from './transformers';

export const CIELO_TYPE = 'CIELO';

/**
 * The hosts the manuals document. API E-commerce Cielo ("Overview"): one for requests (authorization, capture,
 * cancellation), one for queries. The Braspag gateway (API Pagador, "Test and Production Environments") has the
 * same pair. Each is replaced by the operator's variable when set.
 */
export const CIELO_HOSTS = {
  cielo: {
    api: { variable: 'CIELO_API_URL', sandbox: 'https://apisandbox.cieloecommerce.cielo.com.br', production: 'https://api.cieloecommerce.cielo.com.br' },
    query: { variable: 'CIELO_QUERY_URL', sandbox: 'https://apiquerysandbox.cieloecommerce.cielo.com.br', production: 'https://apiquery.cieloecommerce.cielo.com.br' },
    /** API 3.0's resources are under /1/. */
    prefix: '/1',
  },
  braspag: {
    api: { variable: 'CIELO_BRASPAG_API_URL', sandbox: 'https://apisandbox.braspag.com.br', production: 'https://api.braspag.com.br' },
    query: { variable: 'CIELO_BRASPAG_QUERY_URL', sandbox: 'https://apiquerysandbox.braspag.com.br', production: 'https://apiquery.braspag.com.br' },
    /** API Pagador's are under /v2/. */
    prefix: '/v2',
  },
} as const;

/** Where a request goes: the operator's variable for that host when set, else the documented host of the entry's environment. */
export function cieloBaseUrl(env: ConnectorEnvironment['env'], gateway: CieloGateway, host: 'api' | 'query', environment: unknown): string {
  const documented = CIELO_HOSTS[gateway][host];
  return endpoint(env, documented.variable, documented, environment);
}

export interface CieloProviderOptions {
  /** For answers that say when they were received but not when they expire; the system clock by default. */
  now?: () => Date;
}

/**
 * The adapter of Cielo's API E-commerce (API 3.0): credit (authorization with or without capture, partial
 * capture), debit, and Pix through Cielo; void, partial refund and query. Every request carries MerchantId,
 * MerchantKey and a RequestId derived from the attempt's idempotency key.
 */
export class CieloProvider implements PaymentProvider {
  readonly type = CIELO_TYPE;
  readonly paymentTypes = ['credit', 'debit', 'pix'] as const;
  readonly notifications = cieloNotifications;
  private readonly clients = new HttpClients();
  private readonly now: () => Date;

  constructor(
    private readonly environment: ConnectorEnvironment,
    options: CieloProviderOptions = {},
  ) {
    this.now = options.now ?? (() => new Date());
  }

  /** "Creating a credit card transaction", "Creating a debit transaction", "Creating a transaction with Pix QR Code". */
  async authorize(request: AuthorizeRequest, call: ProviderCall): Promise<AuthorizeResult> {
    const credentials = this.credentials(call);
    if (request.paymentType !== 'pix' && !request.card) {
      return { status: 'declined', declinedCode: 'invalid_data', message: 'Cielo needs card data for a card payment' };
    }
    if (request.currency !== 'BRL') {
      return { status: 'declined', declinedCode: 'not_permitted', message: `Cielo takes BRL only, not ${request.currency}` };
    }
    const body = toSaleRequest(request, {
      gateway: gatewayOf(credentials, call),
      braspagProvider: credentials.braspagProvider ?? (credentials.environment === 'sandbox' ? 'Simulado' : 'Cielo30'),
      customer: customerOf(request, call.options),
    });
    const answer = await this.send(credentials, call, 'api', { method: 'POST', path: '/sales/', body });
    if (answer.status !== 200 && answer.status !== 201) {
      const failure = failureOf(answer);
      return { status: 'declined', declinedCode: failure.kind === 'credentials' ? 'invalid_merchant' : 'invalid_data', message: failure.message };
    }
    // An HTML page, nothing, truncated JSON or a sale without its PaymentId: the sale may exist all the same.
    if (!readableSale(answer.body)) throw new ProviderOutcomeUnknownError(`Cielo answered the sale (HTTP ${answer.status}) with a body that is not a sale`);
    return fromSale(answer.body, this.now);
  }

  /**
   * "Consulta por MerchantOrderId": `GET /1/sales?merchantOrderId=` on the query host answers the PaymentIds of the
   * sales made with the order id the attempt sent (the charge's id, merchantOrderIdOf), then "Consulta por
   * PaymentId" reads each as "Criando uma transação" would have answered it. A 404 or an empty list is Cielo saying it
   * has none; anything else it cannot be read throws, which stops the cascade.
   */
  async lookup(request: LookupRequest, call: ProviderCall): Promise<LookupResult> {
    const credentials = this.credentials(call);
    const orderId = merchantOrderIdOf(request.authorization.chargeId);
    const list = await this.send(credentials, call, 'query', { method: 'GET', path: `/sales?merchantOrderId=${encodeURIComponent(orderId)}` });
    if (list.status === 404) return { found: false };
    if (list.status !== 200) throw new Error(`Cielo could not search the order: ${failureOf(list).message}`);
    const payments: unknown = typeof list.body === 'object' && list.body !== null ? (list.body as { Payments?: unknown }).Payments : undefined;
    if (!Array.isArray(payments)) throw new Error('Cielo answered the order search without Payments');
    const ids = payments.map((p: unknown) => (typeof p === 'object' && p !== null ? paymentIdOf(p as CieloPayment) : undefined));
    if (ids.some((id) => !id)) throw new Error('Cielo answered a payment of the order without PaymentId');
    if (ids.length === 0) return { found: false };
    const sales: CieloSale[] = [];
    for (const id of ids) {
      const answer = await this.send(credentials, call, 'query', { method: 'GET', path: `/sales/${encodeURIComponent(id!)}` });
      if (answer.status !== 200 || !readableSale(answer.body)) throw new Error(`Cielo could not read the sale ${id} of the order (HTTP ${answer.status})`);
      sales.push(answer.body);
    }
    // A sale that took the money (authorized or captured) first, else the newest one.
    const sale = sales.find((s) => s.Payment?.Status === 1 || s.Payment?.Status === 2) ?? sales[sales.length - 1]!;
    return { found: true, result: fromSale(sale, () => request.now) };
  }

  /** "Partial or total capture": `PUT /1/sales/{PaymentId}/capture?amount=` (cents). */
  async capture(request: OperationRequest, call: ProviderCall): Promise<OperationResult> {
    const credentials = this.credentials(call);
    const path = `/sales/${encodeURIComponent(request.transactionId)}/capture?amount=${request.amount}`;
    const answer = await this.send(credentials, call, 'api', { method: 'PUT', path });
    if (answer.status !== 200) return { status: 'failed', message: failureOf(answer).message };
    return settle(fromCapture(answer.body as CieloOperationAnswer, request.transactionId));
  }

  /** "Total cancellation" of what was not captured: `PUT /1/sales/{PaymentId}/void` (the whole authorization). */
  cancel(request: OperationRequest, call: ProviderCall): Promise<OperationResult> {
    return this.void(request, call, false);
  }

  /** "Partial cancellation" (and "Requesting Pix refund"): `PUT /1/sales/{PaymentId}/void?amount=` (cents). */
  refund(request: OperationRequest, call: ProviderCall): Promise<OperationResult> {
    return this.void(request, call, true);
  }

  /** "Searching for a transaction via PaymentId": `GET /1/sales/{PaymentId}` on the query host. */
  async query(request: QueryRequest, call: ProviderCall): Promise<QueryResult> {
    const credentials = this.credentials(call);
    const answer = await this.send(credentials, call, 'query', { method: 'GET', path: `/sales/${encodeURIComponent(request.transactionId)}` });
    if (answer.status === 200) return toQueryResult(answer.body as CieloSale);
    const failure = failureOf(answer);
    if (failure.kind === 'not_found') return { found: false };
    throw new Error(failure.message);
  }

  private async void(request: OperationRequest, call: ProviderCall, withAmount: boolean): Promise<OperationResult> {
    const credentials = this.credentials(call);
    const path = `/sales/${encodeURIComponent(request.transactionId)}/void${withAmount ? `?amount=${request.amount}` : ''}`;
    const answer = await this.send(credentials, call, 'api', { method: 'PUT', path });
    if (answer.status !== 200) return { status: 'failed', message: failureOf(answer).message };
    return settle(fromVoid(answer.body as CieloOperationAnswer, request.transactionId));
  }

  private credentials(call: ProviderCall): CieloCredentials {
    const parsed = cieloCredentials.safeParse(call.credentials);
    // Where it is wrong, never the values (they are secrets).
    if (!parsed.success) throw new Error(`CIELO credentials are invalid: ${parsed.error.issues.map((i) => i.path.join('.') || 'credentials').join(', ')}`);
    return parsed.data;
  }

  private send(credentials: CieloCredentials, call: ProviderCall, host: 'api' | 'query', request: Omit<HttpRequest, 'headers' | 'signal'>): Promise<HttpAnswer> {
    const gateway = gatewayOf(credentials, call);
    const baseUrl = cieloBaseUrl(this.environment.env, gateway, host, credentials.environment);
    return this.clients.for(baseUrl, { baseUrl }).send({
      ...request,
      path: `${CIELO_HOSTS[gateway].prefix}${request.path}`,
      signal: call.signal,
      headers: {
        MerchantId: credentials.merchantId,
        MerchantKey: credentials.merchantKey,
        RequestId: requestIdOf(call.idempotencyKey),
        ...(request.body === undefined && request.method !== 'GET' ? { 'content-length': '0' } : {}),
      },
    });
  }
}

/** A sale Cielo answered: an object whose Payment has its PaymentId. */
function readableSale(body: unknown): body is CieloSale {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return false;
  const payment = (body as CieloSale).Payment;
  return typeof payment === 'object' && payment !== null && typeof paymentIdOf(payment) === 'string';
}

/**
 * Which gateway an entry goes through: its credentials' `gateway`, else its options' `gateway` (a provider
 * entry option), else Cielo's own API.
 */
function gatewayOf(credentials: CieloCredentials, call: ProviderCall): CieloGateway {
  if (credentials.gateway) return credentials.gateway;
  return call.options.gateway === 'braspag' ? 'braspag' : 'cielo';
}

/** A refusal the acquirer could not decide (its "try again" codes) is technical: the caller retries or fails over. */
function settle(outcome: { result: OperationResult; technical: boolean }): OperationResult {
  if (outcome.technical && outcome.result.status === 'failed') throw new ProviderUnavailableError(outcome.result.message);
  return outcome.result;
}

/**
 * Pix through Cielo requires the payer ("Customer.Name", "Customer.Identity", "Customer.IdentityType"): the charge's
 * customer (inline or stored) when it has a CPF or CNPJ, else the provider entry's options
 * (`pixCustomer: {name, identity, identityType}`), a merchant's fallback payer.
 */
function customerOf(request: AuthorizeRequest, options: Record<string, unknown>): { name?: string; identity?: string; identityType?: string } | undefined {
  const document = request.payer?.document;
  if (document && (document.type === 'cpf' || document.type === 'cnpj')) {
    return { ...(request.payer?.name ? { name: request.payer.name } : {}), identity: document.number, identityType: document.type.toUpperCase() };
  }
  const customer = options.pixCustomer;
  if (typeof customer !== 'object' || customer === null) return undefined;
  const { name, identity, identityType } = customer as Record<string, unknown>;
  return {
    ...(typeof name === 'string' ? { name } : {}),
    ...(typeof identity === 'string' ? { identity } : {}),
    ...(typeof identityType === 'string' ? { identityType } : {}),
  };
}
