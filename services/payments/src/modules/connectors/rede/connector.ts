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
import { HttpClients, type HttpAnswer, type HttpClient } from '../kit/http';
import { redeCredentials, type RedeCredentials } from './credentials';
import { REDE_ALREADY_CANCELED, REDE_OPERATION_NOT_ALLOWED, REDE_REFERENCE_USED } from './declineTable';
import { checkAnswer, describeReturn, RedeCredentialsRefusedError, returnOf } from './errors';
import { redeNotifications } from './notifications';
import { RedeTokens } from './oauth';
import {
  declinedFrom,
  fromOperationAnswer,
  fromQueriedAuthorization,
  fromTransactionAnswer,
  referenceOf,
  toQueryResult,
  toTransactionRequest,
  type RedeQueryAnswer,
  type RedeTransactionAnswer,
} from './transformers';

export const REDE_TYPE = 'REDE';

/** The transaction resource Rede documents per environment (manual: "Endpoints", API v2); `REDE_API_URL` replaces it. */
export const REDE_TRANSACTION_HOSTS = {
  sandbox: 'https://sandbox-erede.useredecloud.com.br/v2/transactions',
  production: 'https://api.userede.com.br/erede/v2/transactions',
} as const;

/** The OAuth 2.0 token endpoint per environment (manual: "Autenticação OAuth 2.0"); `REDE_OAUTH_URL` replaces it. */
export const REDE_OAUTH_HOSTS = {
  sandbox: 'https://rl7-sandbox-api.useredecloud.com.br/oauth2/token',
  production: 'https://api.userede.com.br/redelabs/oauth2/token',
} as const;

/**
 * Where access tokens are asked: `REDE_OAUTH_URL` when set; else, when the operator moved the transactions
 * (`REDE_API_URL`: a simulator, a proxy), `/oauth2/token` on that same host, so a PV and its key never go to a host
 * the operator did not choose; else the documented endpoint of the entry's environment.
 */
export function redeOAuthUrl(env: ConnectorEnvironment['env'], environment: unknown): string {
  const configured = env.REDE_OAUTH_URL?.trim();
  if (configured) return configured;
  const transactions = env.REDE_API_URL?.trim();
  if (transactions) return new URL('/oauth2/token', transactions).toString();
  return endpoint(env, 'REDE_OAUTH_URL', REDE_OAUTH_HOSTS, environment);
}

/** How many operation answers are kept by idempotency key (Rede's capture and cancellation take no request id). */
const REMEMBERED_OPERATIONS = 10_000;

export interface RedeProviderOptions {
  /** The clock the access tokens expire by. */
  now?: () => number;
}

type Method = 'GET' | 'POST' | 'PUT';

/** Canceled whole, by a cancellation of this amount among its refunds: what a repeated cancellation finds. */
function canceledWith(queried: RedeQueryAnswer, amount: number): boolean {
  return queried.authorization?.status === 'Canceled' && (queried.refunds ?? []).some((r) => r.amount === amount && r.status === 'Done');
}

/**
 * The adapter of e.Rede (Itaú's acquirer): credit and debit cards over its REST API v2 with OAuth 2.0 client
 * credentials. Rede has no idempotency header: an authorization attempt is made idempotent by its `reference`
 * (unique per PV, derived from the attempt's key); a capture or cancellation repeated in this process gets its
 * first answer, and one repeated elsewhere is recognized from the transaction's state (Rede answers 171 or 355).
 */
export class RedeProvider implements PaymentProvider {
  readonly type = REDE_TYPE;
  readonly paymentTypes = ['credit', 'debit'] as const;
  readonly notifications = redeNotifications;
  private readonly clients = new HttpClients();
  private readonly tokens: RedeTokens;
  private readonly operations = new Map<string, OperationResult>();

  constructor(
    private readonly environment: ConnectorEnvironment,
    options: RedeProviderOptions = {},
  ) {
    this.tokens = new RedeTokens(options.now ?? Date.now);
  }

  async authorize(request: AuthorizeRequest, call: ProviderCall): Promise<AuthorizeResult> {
    if (!request.card) return { status: 'declined', declinedCode: 'invalid_data', message: 'e.Rede takes card payments only' };
    const credentials = this.credentialsOf(call);
    if (!credentials) return { status: 'declined', declinedCode: 'invalid_merchant', message: 'the REDE provider entry has incomplete credentials' };
    const reference = referenceOf(call.idempotencyKey);
    const securityCodeSent = Boolean(request.card.cvv);
    try {
      const answer = await this.send(call, credentials, 'POST', '', toTransactionRequest(request, reference));
      const { returnCode } = returnOf(answer);
      // An HTML page, nothing, or an answer without a return code: the authorization may have been made all the same.
      if (!returnCode) throw new ProviderOutcomeUnknownError(describeReturn(answer));
      if (returnCode === REDE_REFERENCE_USED) {
        // This attempt reached Rede before (its answer was lost): Rede's record of it is the answer.
        const found = await this.byReference(call, credentials, reference);
        if (found.status !== 200) return declinedFrom(REDE_REFERENCE_USED);
        return fromQueriedAuthorization(found.body as RedeQueryAnswer, request, securityCodeSent);
      }
      return fromTransactionAnswer(answer.body as RedeTransactionAnswer, request, securityCodeSent);
    } catch (error) {
      if (error instanceof RedeCredentialsRefusedError) return { status: 'declined', declinedCode: 'invalid_merchant', message: error.message };
      throw error;
    }
  }

  /**
   * Manual: "Consulta" by reference, `GET /v2/transactions?reference=`: the authorization the unknown attempt made with
   * the reference derived from its key, read as "Autorização" would have answered it. A 404 is Rede saying it has
   * none; any other answer it cannot be read throws, which stops the cascade.
   */
  async lookup(request: LookupRequest, call: ProviderCall): Promise<LookupResult> {
    const credentials = this.credentialsOf(call);
    if (!credentials) throw new RedeCredentialsRefusedError('the REDE provider entry has incomplete credentials');
    const card = request.authorization.card;
    const found = await this.byReference(call, credentials, referenceOf(call.idempotencyKey));
    if (found.status === 404) return { found: false };
    const queried = found.body as RedeQueryAnswer;
    if (found.status !== 200 || typeof queried !== 'object' || queried === null || !queried.authorization?.tid) {
      throw new Error(`e.Rede could not tell the reference's transaction: ${describeReturn(found)}`);
    }
    return { found: true, result: fromQueriedAuthorization(queried, request.authorization, Boolean(card?.cvv)) };
  }

  private byReference(call: ProviderCall, credentials: RedeCredentials, reference: string): Promise<HttpAnswer> {
    return this.send(call, credentials, 'GET', `?reference=${encodeURIComponent(reference)}`);
  }

  /** Manual: "Captura": PUT /v2/transactions/{tid} with the amount (up to the authorized one: partial captures too). */
  capture(request: OperationRequest, call: ProviderCall): Promise<OperationResult> {
    return this.operate(call, request, 'PUT', '', (queried) => queried.capture?.amount === request.amount, REDE_OPERATION_NOT_ALLOWED);
  }

  /** Manual: "Cancelamento": of an authorization not captured, the same endpoint as a refund. */
  cancel(request: OperationRequest, call: ProviderCall): Promise<OperationResult> {
    return this.operate(call, request, 'POST', '/refunds', (queried) => canceledWith(queried, request.amount), REDE_ALREADY_CANCELED);
  }

  /** Manual: "Cancelamento": POST /v2/transactions/{tid}/refunds with the amount, whole or in part. */
  refund(request: OperationRequest, call: ProviderCall): Promise<OperationResult> {
    return this.operate(call, request, 'POST', '/refunds', (queried) => canceledWith(queried, request.amount), REDE_ALREADY_CANCELED);
  }

  /** Manual: "Consulta": GET /v2/transactions/{tid}. */
  async query(request: QueryRequest, call: ProviderCall): Promise<QueryResult> {
    const credentials = this.credentialsOf(call);
    if (!credentials) throw new RedeCredentialsRefusedError('the REDE provider entry has incomplete credentials');
    const answer = await this.send(call, credentials, 'GET', `/${encodeURIComponent(request.transactionId)}`);
    if (answer.status === 404) return { found: false };
    if (answer.status !== 200) throw new ProviderUnavailableError(describeReturn(answer));
    return toQueryResult(answer.body as RedeQueryAnswer);
  }

  /**
   * A capture or cancellation. When Rede refuses it with `repeatCode` (already captured, already canceled), the
   * transaction is read: if it is in the state this operation leads to, an earlier try of it went through.
   */
  private async operate(
    call: ProviderCall,
    request: OperationRequest,
    method: Method,
    suffix: '' | '/refunds',
    alreadyDone: (queried: RedeQueryAnswer) => boolean,
    repeatCode: string,
  ): Promise<OperationResult> {
    const remembered = this.operations.get(call.idempotencyKey);
    if (remembered) return remembered;
    const credentials = this.credentialsOf(call);
    if (!credentials) return { status: 'failed', declinedCode: 'invalid_merchant', message: 'the REDE provider entry has incomplete credentials' };
    const path = `/${encodeURIComponent(request.transactionId)}`;
    let result: OperationResult;
    try {
      const answer = await this.send(call, credentials, method, `${path}${suffix}`, { amount: request.amount });
      const { returnCode } = returnOf(answer);
      if (!returnCode) throw new ProviderUnavailableError(describeReturn(answer));
      result = fromOperationAnswer(answer.body as RedeTransactionAnswer, request.transactionId);
      if (returnCode === repeatCode) {
        const found = await this.send(call, credentials, 'GET', path);
        if (found.status === 200 && alreadyDone(found.body as RedeQueryAnswer)) result = { status: 'success', transactionId: request.transactionId };
      }
    } catch (error) {
      if (error instanceof RedeCredentialsRefusedError) return { status: 'failed', declinedCode: 'invalid_merchant', message: error.message };
      throw error;
    }
    if (result.status !== 'failed') {
      this.operations.set(call.idempotencyKey, result);
      if (this.operations.size > REMEMBERED_OPERATIONS) this.operations.delete(this.operations.keys().next().value!);
    }
    return result;
  }

  private credentialsOf(call: ProviderCall): RedeCredentials | undefined {
    const parsed = redeCredentials.safeParse(call.credentials);
    return parsed.success ? parsed.data : undefined;
  }

  /** One request with a bearer token; a token Rede refuses is replaced once (it may have been revoked early). */
  private async send(call: ProviderCall, credentials: RedeCredentials, method: Method, path: string, body?: unknown): Promise<HttpAnswer> {
    const baseUrl = endpoint(this.environment.env, 'REDE_API_URL', REDE_TRANSACTION_HOSTS, credentials.environment);
    const oauthUrl = redeOAuthUrl(this.environment.env, credentials.environment);
    const transactions = this.clientFor(baseUrl, credentials.pv);
    const tokenRequest = { client: this.clientFor(oauthUrl, credentials.pv), oauthUrl, pv: credentials.pv, key: credentials.token, signal: call.signal };
    let answer: HttpAnswer | undefined;
    for (let attempt = 0; attempt < 2; attempt++) {
      const accessToken = await this.tokens.token(tokenRequest);
      answer = await transactions.send({
        method,
        path,
        body,
        signal: call.signal,
        headers: { authorization: `Bearer ${accessToken}`, 'transaction-response': 'brand-return-opened' },
      });
      if (answer.status !== 401) break;
      this.tokens.forget(tokenRequest);
    }
    checkAnswer(answer!);
    return answer!;
  }

  private clientFor(baseUrl: string, pv: string): HttpClient {
    return this.clients.for(`${baseUrl}|${pv}`, { baseUrl });
  }
}
