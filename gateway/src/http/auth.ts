import { createHash, timingSafeEqual } from 'node:crypto';
import { SERVICES, type Scope } from '@platform/catalog';
import { AppError, errors, systemClock, type CallMeta, type Clock } from '@platform/kit';
import type { Request, RequestHandler } from 'express';
import type { SettingsClient } from '../clients';
import type { AuthenticatedClient } from './context';
import { routeNotFound } from './errors';

/** The resources a public key can be scoped to, as route `resource` names: every catalog service's scopes. */
export const RESOURCES: readonly Scope[] = SERVICES.flatMap((s) => s.scopes as readonly Scope[]).sort();
export type Resource = Scope;
/**
 * Who may call a route: a client whose key reaches the resource, anyone, the operator, a secret key only, or
 * (`sessionKey`) the public key of the session named by the path's `{id}` (a client key reaching `sessions` too).
 */
export type Access = Resource | 'public' | 'admin' | 'secretOnly' | 'sessionKey';

const MAX_CACHE_ENTRIES = 10_000;
const MAX_CLIENT_ID_LENGTH = 128;
const MAX_API_KEY_LENGTH = 512;

function sha256(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

export interface Authenticator {
  authenticate(clientId: string, apiKey: string, meta: CallMeta): Promise<AuthenticatedClient>;
}

interface CacheEntry {
  /** Infinity while the call is in flight: concurrent requests with the same key share it. */
  expiresAt: number;
  value: Promise<AuthenticatedClient>;
}

/**
 * Asks settings who a key belongs to and remembers successful answers for ttlMs, keyed by the client id and
 * the SHA-256 of the key (never the key itself). Failures are not remembered, and a revoked key stops
 * working once its entry expires.
 */
export function createAuthenticator(options: { settings: SettingsClient; ttlMs: number; clock?: Clock }): Authenticator {
  const clock = options.clock ?? systemClock;
  const cache = new Map<string, CacheEntry>();

  const evict = (now: number) => {
    for (const [key, entry] of cache) if (entry.expiresAt <= now) cache.delete(key);
    while (cache.size >= MAX_CACHE_ENTRIES) {
      const oldest = cache.keys().next().value;
      if (oldest === undefined) break;
      cache.delete(oldest);
    }
  };

  const ask = async (clientId: string, apiKey: string, meta: CallMeta): Promise<AuthenticatedClient> => {
    const answer = await options.settings.authenticate({ clientId, apiKey }, { requestId: meta.requestId });
    if (!answer.client) throw new AppError('internal', 'Authenticate answered without a client');
    return {
      clientId: answer.client.id,
      environment: answer.client.environment,
      keyKind: answer.keyKind,
      keyId: answer.keyId,
      scopes: answer.scopes,
    };
  };

  return {
    authenticate(clientId, apiKey, meta) {
      const cacheKey = `${clientId}\n${sha256(apiKey).toString('hex')}`;
      const now = clock.now().getTime();
      const cached = cache.get(cacheKey);
      if (cached && cached.expiresAt > now) return cached.value;
      if (cache.size >= MAX_CACHE_ENTRIES) evict(now);
      const entry: CacheEntry = { expiresAt: Infinity, value: ask(clientId, apiKey, meta) };
      cache.set(cacheKey, entry);
      entry.value.then(
        () => {
          entry.expiresAt = clock.now().getTime() + options.ttlMs;
        },
        () => {
          if (cache.get(cacheKey) === entry) cache.delete(cacheKey);
        },
      );
      return entry.value;
    },
  };
}

function reaches(client: AuthenticatedClient, access: Resource | 'secretOnly'): boolean {
  if (client.keyKind === 'secret') return true;
  if (access === 'secretOnly') return false;
  return client.scopes.includes('*') || client.scopes.includes(access);
}

/** Only sandbox clients see sandbox-only routes; every other environment is answered as if the route did not exist. */
function seesSandboxRoutes(client: AuthenticatedClient): boolean {
  return client.environment === 'sandbox';
}

/**
 * Requires X-Client-Id and X-Api-Key, and a key that reaches `access`. A sandbox-only route answers a client
 * outside the sandbox with the same 404 as an unknown route, before its scope is looked at, so it looks absent.
 */
export function requireClient(authenticator: Authenticator, access: Resource | 'secretOnly', options: { sandboxOnly?: boolean } = {}): RequestHandler {
  return async (req, _res, next) => {
    const clientId = req.get('x-client-id');
    const apiKey = req.get('x-api-key');
    if (!clientId || !apiKey) {
      throw new AppError('unauthenticated', 'X-Client-Id and X-Api-Key headers are required', { key: 'missing_credentials' });
    }
    if (clientId.length > MAX_CLIENT_ID_LENGTH || apiKey.length > MAX_API_KEY_LENGTH) throw errors.unauthenticated();
    const client = await authenticator.authenticate(clientId, apiKey, { requestId: req.requestId });
    req.client = client;
    if (options.sandboxOnly && !seesSandboxRoutes(client)) throw routeNotFound(req.method, req.path);
    if (!reaches(client, access)) {
      throw access === 'secretOnly'
        ? new AppError('forbidden', 'This operation needs a secret API key', { key: 'secret_key_required' })
        : new AppError('forbidden', `This key does not reach ${access}`, { key: 'scope_not_allowed' });
    }
    next();
  };
}

/** Sessions' public keys carry this prefix; any other key is a client key. */
export const SESSION_KEY_PREFIX = 'sk_session_';

/** Answers whether a key is the public key of that session of that client (the sessions service knows). */
export interface SessionKeyChecker {
  check(input: { clientId: string; sessionId: string; key: string }, meta: CallMeta): Promise<boolean>;
  /** The id of the client's session whose public key this is, or '' when it is none. */
  find(input: { clientId: string; key: string }, meta: CallMeta): Promise<string>;
}

/**
 * A client key goes through `asClient`; a session's public key (its prefix) is that one session, whose id `sessionOf`
 * gives from the request and the key ('' when the key is no session's of that client): the caller is then that session
 * (`keyKind` 'session', `keyId` its id), and nothing else of the client.
 */
function clientOrSession(
  asClient: RequestHandler,
  sessionOf: (req: Request, input: { clientId: string; key: string }, checker: SessionKeyChecker) => Promise<string>,
  checker: SessionKeyChecker | undefined,
): RequestHandler {
  return async (req, res, next) => {
    const clientId = req.get('x-client-id');
    const apiKey = req.get('x-api-key');
    if (!clientId || !apiKey || !apiKey.startsWith(SESSION_KEY_PREFIX)) {
      await asClient(req, res, next);
      return;
    }
    if (clientId.length > MAX_CLIENT_ID_LENGTH || apiKey.length > MAX_API_KEY_LENGTH || !checker) throw errors.unauthenticated();
    const sessionId = await sessionOf(req, { clientId, key: apiKey }, checker);
    if (!sessionId) throw errors.unauthenticated();
    req.client = { clientId, environment: '', keyKind: 'session', keyId: sessionId, scopes: [] };
    next();
  };
}

/**
 * A session's public key reaches that one session's `sessionKey` routes and nothing else: every other route asks
 * settings, which knows no session key. A client key is checked as for the `sessions` resource.
 */
export function requireSessionKey(authenticator: Authenticator, checker: SessionKeyChecker | undefined): RequestHandler {
  return clientOrSession(
    requireClient(authenticator, 'sessions'),
    async (req, input, known) => {
      const sessionId = String(req.params.id ?? '');
      return (await known.check({ ...input, sessionId }, { requestId: req.requestId })) ? sessionId : '';
    },
    checker,
  );
}

/**
 * A route a client key reaches through `access`, that a session's public key reaches too (POST /v1/tokens: the buyer's
 * card is tokenized for that session's payment).
 */
export function requireClientOrSessionKey(
  authenticator: Authenticator,
  checker: SessionKeyChecker | undefined,
  access: Resource,
  options: { sandboxOnly?: boolean } = {},
): RequestHandler {
  return clientOrSession(requireClient(authenticator, access, options), (req, input, known) => known.find(input, { requestId: req.requestId }), checker);
}

/** An admin token as the gateway knows it: a stable, non-secret id for the logs, and the token itself. */
export interface AdminToken {
  id: string;
  token: string;
}

/** The shortest admin token accepted. */
export const ADMIN_TOKEN_MIN_LENGTH = 16;

/** `name:token` in ADMIN_TOKENS names a token; a name is a word of letters, digits, `.`, `_` and `-`. */
const NAMED_TOKEN = /^([A-Za-z0-9][A-Za-z0-9._-]{0,63}):(.*)$/s;

/** The id of a token without a name: the first 8 hex digits of its SHA-256 (`printf %s "$TOKEN" | sha256sum`). */
export function adminTokenId(token: string): string {
  return sha256(token).toString('hex').slice(0, 8);
}

/** One ADMIN_TOKENS entry: `name:token` is known as `name`, a bare token by its adminTokenId. */
export function adminTokenOf(entry: string): AdminToken {
  const named = NAMED_TOKEN.exec(entry);
  if (named) return { id: named[1]!, token: named[2]! };
  return { id: adminTokenId(entry), token: entry };
}

/**
 * Requires an X-Admin-Token equal to one of the configured tokens. The given token is compared with every one, in
 * constant time each, and the request remembers which one matched (`req.admin`, its id) for the audit log.
 */
export function requireAdmin(tokens: readonly AdminToken[]): RequestHandler {
  const expected = tokens.map((t) => ({ id: t.id, digest: sha256(t.token) }));
  return (req, _res, next) => {
    const given = req.get('x-admin-token');
    let matched: string | undefined;
    if (given !== undefined) {
      const digest = sha256(given);
      for (const one of expected) if (timingSafeEqual(digest, one.digest)) matched ??= one.id;
    }
    if (matched === undefined) {
      throw new AppError('unauthenticated', 'A valid X-Admin-Token header is required', { key: 'invalid_admin_token' });
    }
    req.admin = matched;
    next();
  };
}
