import type { HttpClient } from '../kit/http';
import { ProviderOutcomeUnknownError, ProviderUnavailableError } from '../domain/types';
import { failureOf, type PixFailure } from './errors';
import type { TokenAuthentication } from './profiles';

/**
 * OAuth2 client credentials (RFC 6749 4.4) against a bank's token endpoint, with the tokens kept per (profile,
 * clientId, API base URL) and asked for again some seconds before `expires_in` runs out. While a token is being
 * fetched, every caller of the same key waits for that one request.
 */

/** Refresh this long before the token expires (or at half its life, if that is shorter). */
export const REFRESH_EARLY_MS = 60_000;

export class TokenRefusedError extends Error {
  constructor(readonly failure: PixFailure) {
    super(failure.message);
    this.name = 'TokenRefusedError';
  }
}

export interface TokenRequest {
  key: string;
  client: HttpClient;
  /** The token URL's query ('' or '?...'), appended to the client's base. */
  query: string;
  authentication: TokenAuthentication;
  clientId: string;
  clientSecret: string;
  scopes?: string;
  signal?: AbortSignal;
}

interface Held {
  token: string;
  refreshAt: number;
}

export class TokenCache {
  private readonly held = new Map<string, Held>();
  private readonly fetching = new Map<string, Promise<Held>>();

  constructor(private readonly now: () => Date) {}

  async token(request: TokenRequest): Promise<string> {
    const held = this.held.get(request.key);
    if (held && this.now().getTime() < held.refreshAt) return held.token;
    let pending = this.fetching.get(request.key);
    if (!pending) {
      pending = this.fetch(request).finally(() => this.fetching.delete(request.key));
      this.fetching.set(request.key, pending);
    }
    return (await pending).token;
  }

  /** A token the API refused (401): the next call asks for a new one. */
  forget(key: string, token: string): void {
    if (this.held.get(key)?.token === token) this.held.delete(key);
  }

  private async fetch(request: TokenRequest): Promise<Held> {
    const basic = `Basic ${Buffer.from(`${request.clientId}:${request.clientSecret}`).toString('base64')}`;
    const form = new URLSearchParams();
    let query = request.query;
    let headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
    let body: string;
    switch (request.authentication) {
      case 'basic-json':
        headers = { authorization: basic, 'content-type': 'application/json' };
        body = JSON.stringify({ grant_type: 'client_credentials' });
        break;
      case 'basic-form':
        headers.authorization = basic;
        form.set('grant_type', 'client_credentials');
        if (request.scopes) form.set('scope', request.scopes);
        body = form.toString();
        break;
      case 'form':
        form.set('grant_type', 'client_credentials');
        form.set('client_id', request.clientId);
        form.set('client_secret', request.clientSecret);
        if (request.scopes) form.set('scope', request.scopes);
        body = form.toString();
        break;
      case 'form-query-grant': {
        const params = new URLSearchParams(query.replace(/^\?/, ''));
        params.set('grant_type', 'client_credentials');
        query = `?${params.toString()}`;
        form.set('client_id', request.clientId);
        form.set('client_secret', request.clientSecret);
        if (request.scopes) form.set('scope', request.scopes);
        body = form.toString();
        break;
      }
    }
    const requestedAt = this.now().getTime();
    let answer;
    try {
      answer = await request.client.send({ method: 'POST', path: query, headers, body, signal: request.signal });
    } catch (error) {
      // Whatever became of it, a token request moves no money: no charge was asked for yet.
      if (error instanceof ProviderOutcomeUnknownError) throw new ProviderUnavailableError(error.message, { cause: error });
      throw error;
    }
    if (answer.status !== 200 && answer.status !== 201) throw new TokenRefusedError(failureOf(answer, 'the token endpoint'));
    const granted = typeof answer.body === 'object' && answer.body !== null ? (answer.body as Record<string, unknown>) : {};
    const token = granted.access_token;
    const lifetime = Number(granted.expires_in);
    if (typeof token !== 'string' || token === '') throw new ProviderUnavailableError('the token endpoint answered no access_token');
    const lifetimeMs = Number.isFinite(lifetime) && lifetime > 0 ? lifetime * 1000 : 300_000;
    const held = { token, refreshAt: requestedAt + lifetimeMs - Math.min(REFRESH_EARLY_MS, lifetimeMs / 2) };
    this.held.set(request.key, held);
    return held;
  }
}
