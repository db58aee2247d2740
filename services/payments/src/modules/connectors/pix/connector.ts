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
import { endpoint, type ConnectorEnvironment } from '../kit/definition';
import { HttpClients, type ClientCertificate, type HttpAnswer, type HttpClient } from '../kit/http';
import { pixCredentials, type PixCredentials, type PixType } from './credentials';
import { failureOf, type PixFailure } from './errors';
import { pixNotifications } from './notifications';
import { PIX_PROFILES, type PixProfile } from './profiles';
import { TokenCache, TokenRefusedError } from './token';
import {
  devolucaoIdFor,
  isTxid,
  parseCob,
  parseCreatedCob,
  parseDevolucao,
  refundable,
  sameCob,
  toAuthorizeResult,
  toCobRequest,
  toDevolucaoRequest,
  toQueryResult,
  txidFor,
  type CobAnswer,
  type DevolucaoAnswer,
} from './transformers';

export interface PixProviderOptions {
  /** The clock tokens expire by. */
  now?: () => Date;
}

/** The entry's credentials do not make a provider entry of this type. */
class CredentialsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CredentialsError';
  }
}

interface Context {
  credentials: PixCredentials;
  profile: PixProfile;
  api: HttpClient;
  apiUrl: string;
  token: HttpClient;
  tokenQuery: string;
  tokenKey: string;
}

function certificateOf(credentials: PixCredentials): ClientCertificate {
  if (credentials.certificate.includes('-----BEGIN')) return { pem: credentials.certificate };
  return { pkcs12: Buffer.from(credentials.certificate.replace(/\s+/g, ''), 'base64'), ...(credentials.certificatePassphrase !== undefined ? { passphrase: credentials.certificatePassphrase } : {}) };
}

/**
 * Where an entry's calls go: `PIX_<BANK>_API_URL` and `PIX_<BANK>_TOKEN_URL` when the operator set them, else the
 * hosts the bank documents for the entry's environment (production unless it says sandbox).
 */
export function pixEndpoints(profile: PixProfile, env: ConnectorEnvironment['env'], environment: unknown): { api: string; token: string } {
  return {
    api: endpoint(env, `PIX_${profile.bank}_API_URL`, profile.api, environment),
    token: endpoint(env, `PIX_${profile.bank}_TOKEN_URL`, profile.token, environment),
  };
}

/**
 * The callback of the Pix webhook goes to `{webhookUrl}/pix` (API Pix v2.9.0, callback `listaPix`); the
 * platform receives notifications at the URL it registers. Efí documents the way to keep that URL: end it with
 * `?ignorar=` so that the `/pix` the PSP appends lands in a query parameter nobody reads. Every PSP that appends
 * `/pix` literally takes it the same way.
 */
export function webhookUrlFor(url: string): string {
  if (/[?&]ignorar=/.test(url)) return url;
  return `${url}${url.includes('?') ? '&' : '?'}ignorar=`;
}

/**
 * One bank's API Pix (the Central Bank's standard, v2.9.0) for charges paid by Pix: an immediate cob per charge
 * (`PUT /cob/{txid}`), its status (`GET /cob/{txid}`), its removal while unpaid (`PATCH /cob/{txid}`) and refunds
 * of what was received (`PUT /pix/{e2eid}/devolucao/{id}`), over mutual TLS with the merchant's certificate and an
 * OAuth2 client-credentials token. The bank's differences live in profiles.ts.
 */
export class PixProvider implements PaymentProvider {
  readonly paymentTypes = ['pix'] as const;
  readonly notifications = pixNotifications;
  private readonly profile: PixProfile;
  private readonly clients = new HttpClients();
  private readonly tokens: TokenCache;

  constructor(
    readonly type: PixType,
    private readonly environment: ConnectorEnvironment,
    options: PixProviderOptions = {},
  ) {
    this.profile = PIX_PROFILES[type];
    this.tokens = new TokenCache(options.now ?? (() => new Date()));
  }

  async authorize(request: AuthorizeRequest, call: ProviderCall): Promise<AuthorizeResult> {
    if (request.paymentType !== 'pix') return { status: 'declined', declinedCode: 'invalid_data', message: `${this.type} takes Pix only, not ${request.paymentType}` };
    let context: Context;
    let cob: ReturnType<typeof toCobRequest>;
    try {
      context = this.context(call.credentials);
      cob = toCobRequest(request, context.credentials.pixKey);
    } catch (error) {
      if (error instanceof CredentialsError) return { status: 'declined', declinedCode: 'invalid_merchant', message: error.message };
      if (error instanceof RangeError) return { status: 'declined', declinedCode: 'invalid_amount', message: error.message };
      throw error;
    }
    const txid = txidFor(request.chargeId);
    try {
      const created = await this.send(context, 'PUT', `/cob/${txid}`, cob, call.signal);
      if (created.status === 200 || created.status === 201) return toAuthorizeResult(parseCreatedCob(created.body), cob);
      if (created.status === 400 || created.status === 409) {
        // The txid is the charge's: a cob already made for it (an earlier attempt whose answer was lost) is this one.
        const existing = await this.send(context, 'GET', `/cob/${txid}`, undefined, call.signal);
        if (existing.status === 200) {
          const found = parseCob(existing.body);
          if (sameCob(found, cob)) return toAuthorizeResult(found, cob);
        }
      }
      return this.declined(failureOf(created, 'PUT /cob/{txid}'), txid);
    } catch (error) {
      if (error instanceof TokenRefusedError) return this.declined(error.failure, txid);
      throw error;
    }
  }

  /**
   * The cob an `authorize` whose answer was lost may have made (API Pix, "Consultar cobrança imediata":
   * GET /cob/{txid}), by the txid derived from the charge, the one that PUT named: 200 is the cob, read as
   * `authorize` reads the answer to its PUT (pending with its BR Code, canceled once removed); the API's 404 (a
   * problem, CobNaoEncontrado) is none (the PUT never reached the bank, or the bank made nothing of it). Anything else cannot tell and throws: another answer,
   * a cob of another amount or key under the charge's txid, an answer that is not a cob, a token refused.
   */
  async lookup(request: LookupRequest, call: ProviderCall): Promise<LookupResult> {
    const authorization = request.authorization;
    if (authorization.paymentType !== 'pix') return { found: false };
    let context: Context;
    let cob: ReturnType<typeof toCobRequest>;
    try {
      context = this.context(call.credentials);
      cob = toCobRequest(authorization, context.credentials.pixKey);
    } catch (error) {
      // authorize declined these without asking the bank: there is nothing to find.
      if (error instanceof CredentialsError || error instanceof RangeError) return { found: false };
      throw error;
    }
    const txid = txidFor(authorization.chargeId);
    try {
      const answer = await this.send(context, 'GET', `/cob/${txid}`, undefined, call.signal);
      // The API's 404 is a problem (JSON); a page that is not (a proxy's or a gateway's, a wrong base URL) says nothing of the cob.
      if (answer.status === 404 && typeof answer.body === 'object' && answer.body !== null) return { found: false };
      if (answer.status !== 200) throw new Error(`the lookup could not tell: ${failureOf(answer, 'GET /cob/{txid}').message}`);
      const found = parseCob(answer.body);
      if (found.txid !== txid || !sameCob(found, cob)) throw new Error('GET /cob/{txid} answered a cob that is not the charge\'s (another txid, amount or key)');
      return { found: true, result: toAuthorizeResult(found, cob) };
    } catch (error) {
      if (error instanceof TokenRefusedError) throw new Error(`the lookup could not tell: ${error.failure.message}`);
      throw error;
    }
  }

  /** A Pix is paid whole by the payer: there is nothing to capture. */
  async capture(_request: OperationRequest, _call: ProviderCall): Promise<OperationResult> {
    return { status: 'failed', message: 'a Pix has no capture: the payer pays the cob in full, and it is authorized when paid' };
  }

  /** Removes a cob not paid yet (API Pix, "Revisar cobrança imediata": PATCH /cob/{txid} with status REMOVIDA_PELO_USUARIO_RECEBEDOR). */
  async cancel(request: OperationRequest, call: ProviderCall): Promise<OperationResult> {
    if (!isTxid(request.transactionId)) return { status: 'failed', declinedCode: 'invalid_data', message: 'the transaction id is not a txid' };
    return this.operate(call, async (context) => {
      const path = `/cob/${request.transactionId}`;
      const removed = await this.send(context, 'PATCH', path, { status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR' }, call.signal);
      if (removed.status === 200) return { status: 'success', transactionId: request.transactionId };
      if (removed.status === 400) {
        const current = await this.send(context, 'GET', path, undefined, call.signal);
        if (current.status === 200) {
          const cob = parseCob(current.body);
          if (cob.status === 'REMOVIDA_PELO_USUARIO_RECEBEDOR' || cob.status === 'REMOVIDA_PELO_PSP') return { status: 'success', transactionId: request.transactionId };
          if (cob.status === 'CONCLUIDA') return { status: 'failed', declinedCode: 'transaction_not_allowed', message: 'the cob is already paid (CONCLUIDA): refund it instead' };
        }
      }
      return this.failed(failureOf(removed, 'PATCH /cob/{txid}'));
    });
  }

  /**
   * Gives back part or all of a paid cob (API Pix, "Solicitar devolução": PUT /pix/{e2eid}/devolucao/{id},
   * natureza ORIGINAL): the e2eid of a Pix the cob received that still has that much to give back, found by
   * GET /cob/{txid}; the id derived from the request's idempotency key, so a repeated request is the same
   * devolução. DEVOLVIDO is done, EM_PROCESSAMENTO is pending (the status sync and the webhook settle it),
   * NAO_REALIZADO failed.
   */
  async refund(request: OperationRequest, call: ProviderCall): Promise<OperationResult> {
    if (!isTxid(request.transactionId)) return { status: 'failed', declinedCode: 'invalid_data', message: 'the transaction id is not a txid' };
    if (!Number.isSafeInteger(request.amount) || request.amount <= 0) return { status: 'failed', declinedCode: 'invalid_amount', message: 'the refund amount must be a positive number of centavos' };
    const id = devolucaoIdFor(call.idempotencyKey);
    return this.operate(call, async (context) => {
      const current = await this.send(context, 'GET', `/cob/${request.transactionId}`, undefined, call.signal);
      if (current.status !== 200) return this.failed(failureOf(current, 'GET /cob/{txid}'));
      const cob: CobAnswer = parseCob(current.body);
      if (cob.status !== 'CONCLUIDA') return { status: 'failed', declinedCode: 'transaction_not_allowed', message: `the cob is ${cob.status}, not paid: nothing to refund` };
      const received = cob.pix ?? [];
      const asked = received.flatMap((p) => p.devolucoes ?? []).find((d) => d.id === id);
      if (asked) return this.outcome(asked);
      const pix = received.find((p) => refundable(p) >= request.amount);
      if (!pix) return { status: 'failed', declinedCode: 'invalid_amount', message: 'no Pix of the cob has that much left to refund' };
      const path = `/pix/${pix.endToEndId}/devolucao/${id}`;
      const asking = await this.send(context, 'PUT', path, toDevolucaoRequest(request.amount), call.signal);
      if (asking.status === 200 || asking.status === 201) return this.outcome(parseDevolucao(asking.body));
      if (asking.status === 400 || asking.status === 409) {
        const existing = await this.send(context, 'GET', path, undefined, call.signal);
        if (existing.status === 200) return this.outcome(parseDevolucao(existing.body));
      }
      return this.failed(failureOf(asking, 'PUT /pix/{e2eid}/devolucao/{id}'));
    });
  }

  async query(request: QueryRequest, call: ProviderCall): Promise<QueryResult> {
    if (!isTxid(request.transactionId)) return { found: false };
    const context = this.context(call.credentials);
    try {
      const answer = await this.send(context, 'GET', `/cob/${request.transactionId}`, undefined, call.signal);
      if (answer.status === 404) return { found: false };
      if (answer.status !== 200) throw new Error(failureOf(answer, 'GET /cob/{txid}').message);
      return toQueryResult(parseCob(answer.body), request.now);
    } catch (error) {
      if (error instanceof TokenRefusedError) throw new Error(error.failure.message);
      throw error;
    }
  }

  /**
   * Registers where the bank posts the Pix webhook of the entry's key (API Pix, "Configurar o Webhook Pix":
   * PUT /webhook/{chave} with `{webhookUrl}`), with the profile's headers (Efí: x-skip-mtls-checking).
   */
  async registerWebhook(credentials: Record<string, unknown>, url: string, signal?: AbortSignal): Promise<void> {
    const context = this.context(credentials);
    try {
      const answer = await this.send(context, 'PUT', `/webhook/${encodeURIComponent(context.credentials.pixKey)}`, { webhookUrl: webhookUrlFor(url) }, signal, this.profile.webhookHeaders);
      if (answer.status >= 200 && answer.status < 300) return;
      throw new Error(failureOf(answer, 'PUT /webhook/{chave}').message);
    } catch (error) {
      if (error instanceof TokenRefusedError) throw new Error(error.failure.message);
      throw error;
    }
  }

  registerNotifications(url: string, call: ProviderCall): Promise<void> {
    return this.registerWebhook(call.credentials, url, call.signal);
  }

  async close(): Promise<void> {
    await this.clients.close();
  }

  private outcome(devolucao: DevolucaoAnswer): OperationResult {
    if (devolucao.status === 'DEVOLVIDO') return { status: 'success', transactionId: devolucao.id };
    if (devolucao.status === 'EM_PROCESSAMENTO') return { status: 'pending', transactionId: devolucao.id, message: 'the devolução is EM_PROCESSAMENTO' };
    return { status: 'failed', declinedCode: 'transaction_not_allowed', message: `the devolução is ${devolucao.status}${devolucao.motivo ? `: ${devolucao.motivo.slice(0, 140)}` : ''}` };
  }

  private async operate(call: ProviderCall, run: (context: Context) => Promise<OperationResult>): Promise<OperationResult> {
    try {
      return await run(this.context(call.credentials));
    } catch (error) {
      if (error instanceof CredentialsError) return { status: 'failed', declinedCode: 'invalid_merchant', message: error.message };
      if (error instanceof TokenRefusedError) return this.failed(error.failure);
      throw error;
    }
  }

  private declined(failure: PixFailure, transactionId: string): AuthorizeResult {
    return { status: 'declined', declinedCode: failure.declinedCode, message: failure.message, transactionId };
  }

  private failed(failure: PixFailure): OperationResult {
    return { status: 'failed', declinedCode: failure.declinedCode, message: failure.message };
  }

  /** The API call with the entry's token; a token the API no longer takes (401) is replaced once. */
  private async send(context: Context, method: 'GET' | 'PUT' | 'PATCH', path: string, body: unknown, signal?: AbortSignal, headers: Readonly<Record<string, string>> = {}): Promise<HttpAnswer> {
    const tokenRequest = {
      key: context.tokenKey,
      client: context.token,
      query: context.tokenQuery,
      authentication: context.profile.tokenAuthentication,
      clientId: context.credentials.clientId,
      clientSecret: context.credentials.clientSecret,
      ...(context.profile.scopes ? { scopes: context.profile.scopes } : {}),
      ...(signal ? { signal } : {}),
    };
    const target = this.withParameters(context, path);
    for (let attempt = 0; ; attempt++) {
      const token = await this.tokens.token(tokenRequest);
      const answer = await context.api.send({ method, path: target, headers: { ...headers, authorization: `Bearer ${token}` }, ...(body === undefined ? {} : { body }), ...(signal ? { signal } : {}) });
      if (answer.status !== 401 || attempt > 0) return answer;
      this.tokens.forget(context.tokenKey, token);
    }
  }

  private withParameters(context: Context, path: string): string {
    const name = context.profile.developerKeyParameter;
    if (!name || !context.credentials.developerKey) return path;
    return `${path}${path.includes('?') ? '&' : '?'}${name}=${encodeURIComponent(context.credentials.developerKey)}`;
  }

  private context(raw: Record<string, unknown>): Context {
    const parsed = pixCredentials.safeParse(raw);
    if (!parsed.success) throw new CredentialsError(`the provider entry's credentials are not a Pix entry's (${[...new Set(parsed.error.issues.map((i) => i.path.join('.') || '(credentials)'))].join(', ')})`);
    const credentials = parsed.data;
    if (credentials.type !== this.type) throw new CredentialsError(`the provider entry is ${credentials.type}, not ${this.type}`);
    const profile = this.profile;
    const urls = pixEndpoints(profile, this.environment.env, credentials.environment);
    const apiUrl = urls.api;
    const tokenUrl = new URL(urls.token);
    const certificate = certificateOf(credentials);
    const fingerprint = createHash('sha256')
      .update(`${credentials.clientId}\0${credentials.certificate}\0${credentials.certificatePassphrase ?? ''}`)
      .digest('hex');
    const mutualToken = profile.tokenMutualTls[credentials.environment === 'sandbox' ? 'sandbox' : 'production'];
    return {
      credentials,
      profile,
      apiUrl,
      api: this.client(apiUrl, fingerprint, certificate),
      token: this.client(tokenUrl.origin + tokenUrl.pathname, mutualToken ? fingerprint : 'none', mutualToken ? certificate : undefined),
      tokenQuery: tokenUrl.search,
      tokenKey: `${profile.type}\0${credentials.clientId}\0${apiUrl}\0${createHash('sha256').update(credentials.clientSecret).digest('hex')}`,
    };
  }

  /** One HTTP client (keep-alive, mutual TLS) per base URL and credentials. */
  private client(baseUrl: string, fingerprint: string, certificate: ClientCertificate | undefined): HttpClient {
    return this.clients.for(`${baseUrl}\0${fingerprint}`, { baseUrl, ...(certificate ? { clientCertificate: certificate } : {}) });
  }
}

/**
 * Registers the platform's notification URL as the Pix webhook of a provider entry's key at its bank, for the
 * platform to call when a Pix entry is created or its credentials change.
 */
export async function registerWebhook(
  credentials: Record<string, unknown>,
  url: string,
  environment: ConnectorEnvironment = { env: process.env, publicUrl: '' },
  signal?: AbortSignal,
): Promise<void> {
  const type = credentials.type;
  if (typeof type !== 'string' || !(type in PIX_PROFILES)) throw new Error('the credentials are not a Pix entry\'s');
  const provider = new PixProvider(type as PixType, environment);
  try {
    await provider.registerWebhook(credentials, url, signal);
  } finally {
    await provider.close();
  }
}
