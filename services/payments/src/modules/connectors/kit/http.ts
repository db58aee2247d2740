import { readFileSync } from 'node:fs';
import { rootCertificates } from 'node:tls';
import { Agent, request as undiciRequest } from 'undici';
import { ProviderOutcomeUnknownError, ProviderUnavailableError } from '../domain/types';

/**
 * The one way a connector reaches its provider: undici with keep-alive, certificates verified against the
 * system's authorities plus those in NODE_EXTRA_CA_CERTS (a bank's private CA, the simulators' test CA), and,
 * where the provider asks for it, the client certificate of the merchant's credentials (mutual TLS).
 * Verification is never turned off. A connection refused, a name that does not resolve or a connect timeout is
 * ProviderUnavailableError (nothing was sent: the charge may move on); a 5xx, a connection reset or aborted after the
 * request was sent, or a JSON answer that does not parse is ProviderOutcomeUnknownError (the provider may have carried
 * it out: the attempt is looked up before the charge moves on).
 */

/** A client certificate: PEM certificate and key (one PEM may hold both), or PKCS#12 with its passphrase. */
export type ClientCertificate = { pem: string } | { pkcs12: Buffer; passphrase?: string };

export interface HttpClientOptions {
  baseUrl: string;
  clientCertificate?: ClientCertificate;
  /** How long an idle connection is kept for the next request. */
  keepAliveMs?: number;
}

export interface HttpRequest {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Appended to the base URL's path. */
  path: string;
  headers?: Record<string, string>;
  /** Sent as JSON unless it is already a string (then sent as is, with the caller's content-type). */
  body?: unknown;
  signal?: AbortSignal;
}

export interface HttpAnswer {
  status: number;
  headers: Record<string, string>;
  /** Parsed JSON when the provider answered JSON, else the text (empty string for no body). */
  body: unknown;
}

let extraCas: string[] | undefined;

/** The authorities a connector trusts: Node's bundled roots and the PEM file NODE_EXTRA_CA_CERTS names. */
export function trustedAuthorities(): string[] {
  if (!extraCas) {
    const file = process.env.NODE_EXTRA_CA_CERTS;
    extraCas = file ? [readFileSync(file, 'utf8')] : [];
  }
  return [...rootCertificates, ...extraCas];
}

/** For tests that change NODE_EXTRA_CA_CERTS inside one process. */
export function forgetTrustedAuthorities(): void {
  extraCas = undefined;
}

export interface HttpClient {
  send(request: HttpRequest): Promise<HttpAnswer>;
  close(): Promise<void>;
}

export function createHttpClient(options: HttpClientOptions): HttpClient {
  const base = new URL(options.baseUrl);
  const certificate = options.clientCertificate;
  const agent = new Agent({
    keepAliveTimeout: options.keepAliveMs ?? 30_000,
    connect: {
      ca: trustedAuthorities(),
      rejectUnauthorized: true,
      ...(certificate && 'pem' in certificate ? { cert: certificate.pem, key: certificate.pem } : {}),
      ...(certificate && 'pkcs12' in certificate ? { pfx: certificate.pkcs12, passphrase: certificate.passphrase } : {}),
    },
  });
  const basePath = base.pathname.replace(/\/+$/, '');
  return {
    async send(request) {
      const url = new URL(base.origin + basePath + request.path);
      const headers: Record<string, string> = { accept: 'application/json', ...request.headers };
      let body: string | undefined;
      if (request.body !== undefined) {
        body = typeof request.body === 'string' ? request.body : JSON.stringify(request.body);
        if (typeof request.body !== 'string') headers['content-type'] = 'application/json';
      }
      let answer;
      try {
        answer = await undiciRequest(url, { method: request.method, headers, body, signal: request.signal, dispatcher: agent });
      } catch (error) {
        // Never the URL's query or the body: they may carry secrets.
        const what = `${request.method} ${url.host}${url.pathname} failed: ${describe(error)}`;
        // Refused, unresolved or not connected in time: nothing reached the provider. Anything else (a reset, a
        // closed socket, an abort) may have come after the request was carried out.
        if (nothingSent(error)) throw new ProviderUnavailableError(what, { cause: error });
        throw new ProviderOutcomeUnknownError(what, { cause: error });
      }
      let text: string;
      try {
        text = await answer.body.text();
      } catch (error) {
        throw new ProviderOutcomeUnknownError(`${request.method} ${url.host}${url.pathname} answer cut short: ${describe(error)}`, { cause: error });
      }
      const flat: Record<string, string> = {};
      for (const [name, value] of Object.entries(answer.headers)) {
        if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value;
      }
      if (answer.statusCode >= 500) {
        // The provider may have carried the request out before failing to answer it.
        throw new ProviderOutcomeUnknownError(`${request.method} ${url.host}${url.pathname} answered ${answer.statusCode}`);
      }
      const contentType = flat['content-type'];
      const parsed = parse(text, contentType);
      if (contentType?.includes('json') && typeof parsed === 'string' && text.trim() !== '') {
        throw new ProviderOutcomeUnknownError(`${request.method} ${url.host}${url.pathname} answered ${answer.statusCode} with JSON that does not parse`);
      }
      return { status: answer.statusCode, headers: flat, body: parsed };
    },
    close: () => agent.close(),
  };
}

function parse(text: string, contentType: string | undefined): unknown {
  if (text === '') return '';
  if (contentType?.includes('json') || /^[[{]/.test(text.trimStart())) {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return text;
    }
  }
  return text;
}

const NOTHING_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'UND_ERR_CONNECT_TIMEOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ERR_TLS_CERT_ALTNAME_INVALID', 'UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'DEPTH_ZERO_SELF_SIGNED_CERT', 'SELF_SIGNED_CERT_IN_CHAIN', 'CERT_HAS_EXPIRED']);

/** A failure known to have happened before the request left: the connection was never made. */
function nothingSent(error: unknown): boolean {
  const code = codeOf(error);
  return code !== undefined && NOTHING_SENT_CODES.has(code);
}

/**
 * Whether an SDK's error says its request never left: a connection code of "not connected" on the error or on what
 * it wraps (`cause`, Stripe's `detail`, a few levels down). Anything else may have come after the provider acted.
 */
export function requestNeverSent(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && typeof current === 'object' && current !== null; depth++) {
    if (nothingSent(current)) return true;
    // Some SDKs keep only the message of what failed (Adyen's library: "connect ECONNREFUSED 10.0.0.1:443").
    const message = (current as { message?: unknown }).message;
    if (typeof message === 'string' && [...NOTHING_SENT_CODES].some((code) => new RegExp(`\\b${code}\\b`).test(message))) return true;
    const wrapper = current as { cause?: unknown; detail?: unknown; __cause__?: unknown };
    current = wrapper.cause ?? wrapper.detail ?? wrapper.__cause__;
  }
  return false;
}

/**
 * The error a sale's technical failure is: ProviderUnavailableError only when the request never left (the charge may
 * move on), otherwise ProviderOutcomeUnknownError (the provider may have made the sale; it is looked up first).
 */
export function saleFailure(technical: unknown, thrown: unknown): unknown {
  if (technical instanceof ProviderUnavailableError && !requestNeverSent(thrown)) return new ProviderOutcomeUnknownError(technical.message, { cause: technical });
  return technical;
}

/**
 * The error's code, or its cause's. Read by shape, not `instanceof Error`: errors made in another realm (undici's,
 * under a test runner's sandbox) are errors all the same.
 */
function codeOf(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { code, cause } = error as { code?: unknown; cause?: unknown };
  if (typeof code === 'string') return code;
  const causeCode = typeof cause === 'object' && cause !== null ? (cause as { code?: unknown }).code : undefined;
  return typeof causeCode === 'string' ? causeCode : undefined;
}

function describe(error: unknown): string {
  if (typeof error !== 'object' || error === null) return 'unknown error';
  const { name, message } = error as { name?: unknown; message?: unknown };
  const code = codeOf(error);
  if (code) return `${String(name ?? 'Error')} ${code}`;
  if (name === 'AbortError') return 'aborted';
  return typeof message === 'string' ? message.slice(0, 200) : 'unknown error';
}

/**
 * The HTTP clients of one adapter, one per key (a base URL, with what else tells the connections apart: the
 * account, the client certificate), made on first use and kept for the keep-alive.
 */
export class HttpClients {
  private readonly clients = new Map<string, HttpClient>();

  for(key: string, options: HttpClientOptions): HttpClient {
    let client = this.clients.get(key);
    if (!client) {
      client = createHttpClient(options);
      this.clients.set(key, client);
    }
    return client;
  }

  async close(): Promise<void> {
    const all = [...this.clients.values()];
    this.clients.clear();
    await Promise.all(all.map((c) => c.close()));
  }
}
