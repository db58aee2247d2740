import { createHash } from 'node:crypto';
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
import { pagarmeCredentials, type PagarmeCredentials } from './credentials';
import { failureOf } from './errors';
import { pagarmeNotifications } from './notifications';
import { PAGARME_CHARGE_STATUS } from './statusTable';
import { customerOf, fromCancel, fromCapture, fromOrder, orderCodeOf, toOrderRequest, toQueryResult, type OperationOutcome, type PagarmeCharge, type PagarmeOrder } from './transformers';

export const PAGARME_TYPE = 'PAGARME';

/**
 * The host the API Reference documents ("https://api.pagar.me/core/v5"): one for test and live keys alike (the
 * secret key says which), replaced by the operator's PAGARME_API_URL when set.
 *
 * The official SDK (@pagarme/pagarme-nodejs-sdk) is not used: its base URI is fixed to that host
 * (`getBaseUri` knows no other), so it could not be pointed at the operator's URL; requests go through kit/http.
 */
export const PAGARME_HOSTS = { variable: 'PAGARME_API_URL', sandbox: 'https://api.pagar.me/core/v5', production: 'https://api.pagar.me/core/v5' } as const;

export function pagarmeBaseUrl(env: ConnectorEnvironment['env'], environment: unknown): string {
  return endpoint(env, PAGARME_HOSTS.variable, PAGARME_HOSTS, environment);
}

/**
 * The `Idempotency-Key` header: derived from the attempt's idempotency key and the operation, so the same attempt
 * sent again carries the same key and Pagar.me answers its first answer.
 */
export function idempotencyKeyOf(idempotencyKey: string, operation: string): string {
  return createHash('sha256').update(`pagarme:${operation}:${idempotencyKey}`).digest('hex');
}

export interface PagarmeProviderOptions {
  /** For a Pix answer without its expiry; the system clock by default. */
  now?: () => Date;
}

/**
 * The adapter of Pagar.me's core API v5: orders with one charge by credit card (with or without capture), Pix or
 * boleto; capture (in part too), cancellation and partial refund of the charge, and its query. HTTP Basic with
 * the secret key as the user, and an Idempotency-Key on every request that changes something.
 *
 * Debit cards are not taken: Pagar.me's debit_card payments need a 3-D Secure authentication, which an
 * authorization here does not carry.
 */
export class PagarmeProvider implements PaymentProvider {
  readonly type = PAGARME_TYPE;
  readonly paymentTypes = ['credit', 'pix', 'boleto'] as const;
  readonly notifications = pagarmeNotifications;
  private readonly clients = new HttpClients();
  private readonly now: () => Date;

  constructor(
    private readonly environment: ConnectorEnvironment,
    options: PagarmeProviderOptions = {},
  ) {
    this.now = options.now ?? (() => new Date());
  }

  /** "Pedidos" > "Criar pedido": POST /orders with the items, the customer and one payment. */
  async authorize(request: AuthorizeRequest, call: ProviderCall): Promise<AuthorizeResult> {
    const credentials = this.credentials(call);
    if (request.paymentType === 'credit' && !request.card) {
      return { status: 'declined', declinedCode: 'invalid_data', message: 'Pagar.me needs card data for a card payment' };
    }
    if (request.currency !== 'BRL') {
      return { status: 'declined', declinedCode: 'not_permitted', message: `Pagar.me takes BRL only, not ${request.currency}` };
    }
    const customer = customerOf(request, call.options);
    if (!customer) {
      return { status: 'declined', declinedCode: 'invalid_data', message: 'Pagar.me needs a customer: the charge names none and the provider entry has no customer option' };
    }
    const description = typeof call.options.itemDescription === 'string' ? call.options.itemDescription : (request.statementDescriptor ?? 'Pedido');
    const body = toOrderRequest(request, customer, description);
    const answer = await this.send(credentials, call, { method: 'POST', path: '/orders', body }, 'order');
    if (answer.status !== 200 && answer.status !== 201) {
      const failure = failureOf(answer);
      return { status: 'declined', declinedCode: failure.kind === 'credentials' ? 'invalid_merchant' : 'invalid_data', message: failure.message };
    }
    // An HTML page, nothing, truncated JSON, or an order without a charge whose status can be read: the order may exist.
    if (!readableOrder(answer.body)) throw new ProviderOutcomeUnknownError(`Pagar.me answered the order (HTTP ${answer.status}) with a body that is not an order`);
    return fromOrder(answer.body, this.now, request.pix?.expiresIn ?? 3600);
  }

  /**
   * "Pedidos" > "Listar pedidos": `GET /orders?code=<the order's code>`. The attempt's order carries the charge's
   * id as its `code` (toOrderRequest), so the order found is the one the unknown attempt created; it is read as
   * "Criar pedido" would have answered it. An empty list is Pagar.me saying it has none; an answer that cannot be
   * read (or an error) throws.
   */
  async lookup(request: LookupRequest, call: ProviderCall): Promise<LookupResult> {
    const credentials = this.credentials(call);
    const code = orderCodeOf(request.authorization.chargeId);
    const answer = await this.send(credentials, call, { method: 'GET', path: `/orders?code=${encodeURIComponent(code)}&page=1&size=10` }, 'lookup');
    if (answer.status !== 200) throw new Error(`Pagar.me could not list the orders: ${failureOf(answer).message}`);
    const data: unknown = typeof answer.body === 'object' && answer.body !== null ? (answer.body as { data?: unknown }).data : undefined;
    if (!Array.isArray(data)) throw new Error('Pagar.me answered the order list without data');
    const own = (data as PagarmeOrder[]).filter((order) => order?.code === undefined || order.code === code);
    if (own.length === 0) return { found: false };
    // An order that took the money (paid, or an authorization held) first, else the newest.
    const order = own.find((o) => ['paid', 'overpaid', 'underpaid'].includes(o.charges?.[0]?.status ?? '') || o.charges?.[0]?.last_transaction?.status === 'authorized_pending_capture') ?? own[0];
    if (!readableOrder(order)) throw new Error('Pagar.me answered an order without a charge whose status can be read');
    return { found: true, result: fromOrder(order, () => request.now, request.authorization.pix?.expiresIn ?? 3600) };
  }

  /** "Cobranças" > "Capturar cobrança": POST /charges/{charge_id}/capture with the amount (centavos). */
  async capture(request: OperationRequest, call: ProviderCall): Promise<OperationResult> {
    const credentials = this.credentials(call);
    const path = `/charges/${encodeURIComponent(request.transactionId)}/capture`;
    const answer = await this.send(credentials, call, { method: 'POST', path, body: { amount: request.amount } }, 'capture');
    if (answer.status !== 200) return { status: 'failed', message: failureOf(answer).message };
    return settle(fromCapture(answer.body as PagarmeCharge, request.transactionId));
  }

  /** "Cobranças" > "Cancelar cobrança" of what was not captured or paid: DELETE /charges/{charge_id}, whole. */
  cancel(request: OperationRequest, call: ProviderCall): Promise<OperationResult> {
    return this.delete(request, call, 'cancel');
  }

  /** "Cobranças" > "Cancelar cobrança" of what was paid, in part: DELETE /charges/{charge_id} with the amount (centavos). */
  refund(request: OperationRequest, call: ProviderCall): Promise<OperationResult> {
    return this.delete(request, call, 'refund');
  }

  /** "Cobranças" > "Obter cobrança": GET /charges/{charge_id}. */
  async query(request: QueryRequest, call: ProviderCall): Promise<QueryResult> {
    const credentials = this.credentials(call);
    const answer = await this.send(credentials, call, { method: 'GET', path: `/charges/${encodeURIComponent(request.transactionId)}` }, 'query');
    if (answer.status === 200) return toQueryResult(answer.body as PagarmeCharge);
    const failure = failureOf(answer);
    if (failure.kind === 'not_found') return { found: false };
    throw new Error(failure.message);
  }

  private async delete(request: OperationRequest, call: ProviderCall, operation: 'cancel' | 'refund'): Promise<OperationResult> {
    const credentials = this.credentials(call);
    const path = `/charges/${encodeURIComponent(request.transactionId)}`;
    const answer = await this.send(credentials, call, { method: 'DELETE', path, body: { amount: request.amount } }, operation);
    if (answer.status !== 200) return { status: 'failed', message: failureOf(answer).message };
    return settle(fromCancel(answer.body as PagarmeCharge, request.transactionId));
  }

  private credentials(call: ProviderCall): PagarmeCredentials {
    const parsed = pagarmeCredentials.safeParse(call.credentials);
    // Where it is wrong, never the values (they are secrets).
    if (!parsed.success) throw new Error(`PAGARME credentials are invalid: ${parsed.error.issues.map((i) => i.path.join('.') || 'credentials').join(', ')}`);
    return parsed.data;
  }

  private send(credentials: PagarmeCredentials, call: ProviderCall, request: Omit<HttpRequest, 'headers' | 'signal'>, operation: string): Promise<HttpAnswer> {
    const baseUrl = pagarmeBaseUrl(this.environment.env, credentials.environment);
    return this.clients.for(baseUrl, { baseUrl }).send({
      ...request,
      signal: call.signal,
      headers: {
        // "Autenticação": HTTP Basic, the secret key as the user and an empty password.
        authorization: `Basic ${Buffer.from(`${credentials.secretKey}:`).toString('base64')}`,
        ...(request.method !== 'GET' ? { 'idempotency-key': idempotencyKeyOf(call.idempotencyKey, operation) } : {}),
      },
    });
  }
}

/** A refusal the acquirer could not decide is technical: the caller retries or fails over. */
function settle(outcome: OperationOutcome): OperationResult {
  if (outcome.technical && outcome.result.status === 'failed') throw new ProviderUnavailableError(outcome.result.message);
  return outcome.result;
}

/** An order as "Criar pedido" documents it: a charge with an id and a status of the charge status table. */
function readableOrder(body: unknown): body is PagarmeOrder {
  if (typeof body !== 'object' || body === null) return false;
  const charge = (body as PagarmeOrder).charges?.[0];
  if (typeof charge !== 'object' || charge === null) return false;
  return typeof charge.id === 'string' && charge.id !== '' && typeof charge.status === 'string' && Object.hasOwn(PAGARME_CHARGE_STATUS, charge.status);
}
