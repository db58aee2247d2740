import { createHash } from 'node:crypto';
import { ProviderUnavailableError } from '../domain/types';
import type { HttpClient } from '../kit/http';
import { RedeCredentialsRefusedError } from './errors';

/**
 * e.Rede's access tokens (manual: "Autenticação OAuth 2.0", mandatory since 2026-01-05): `POST` to the OAuth
 * endpoint with HTTP Basic over `PV:integration key` and the form `grant_type=client_credentials`; the answer's
 * `access_token` is sent as `Authorization: Bearer` on every transaction request until `expires_in` (1440 seconds)
 * runs out. Tokens are kept per (OAuth URL, PV, key) and renewed a minute before they expire, or at once when Rede
 * refuses one; concurrent requests share one token request.
 */
const RENEW_BEFORE_MS = 60_000;

interface Held {
  accessToken: string;
  expiresAt: number;
}

export interface TokenRequest {
  client: HttpClient;
  oauthUrl: string;
  pv: string;
  key: string;
  signal: AbortSignal;
}

export class RedeTokens {
  private readonly held = new Map<string, Held>();
  private readonly asking = new Map<string, Promise<Held>>();

  constructor(private readonly now: () => number) {}

  async token(request: TokenRequest): Promise<string> {
    const id = this.idOf(request);
    const held = this.held.get(id);
    if (held && held.expiresAt - RENEW_BEFORE_MS > this.now()) return held.accessToken;
    let asking = this.asking.get(id);
    if (!asking) {
      asking = this.ask(request).finally(() => this.asking.delete(id));
      this.asking.set(id, asking);
    }
    const fresh = await asking;
    this.held.set(id, fresh);
    return fresh.accessToken;
  }

  /** Rede refused the token before it expired (revoked, rotated key): the next request asks for another. */
  forget(request: Pick<TokenRequest, 'oauthUrl' | 'pv' | 'key'>): void {
    this.held.delete(this.idOf(request));
  }

  private idOf(request: Pick<TokenRequest, 'oauthUrl' | 'pv' | 'key'>): string {
    // The key is a secret: it never becomes a map key as it is.
    return `${request.oauthUrl}|${request.pv}|${createHash('sha256').update(request.key).digest('hex')}`;
  }

  private async ask(request: TokenRequest): Promise<Held> {
    const answer = await request.client.send({
      method: 'POST',
      path: '',
      headers: {
        authorization: `Basic ${Buffer.from(`${request.pv}:${request.key}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: 'grant_type=client_credentials',
      signal: request.signal,
    });
    const body = (typeof answer.body === 'object' && answer.body !== null ? answer.body : {}) as Record<string, unknown>;
    if (answer.status === 429) throw new ProviderUnavailableError('e.Rede is limiting token requests (HTTP 429)');
    if (answer.status !== 200) {
      const code = typeof body.error === 'string' ? body.error.slice(0, 60) : `http_${answer.status}`;
      throw new RedeCredentialsRefusedError(`e.Rede refused the credentials (HTTP ${answer.status}, ${code})`);
    }
    const accessToken = body.access_token;
    const expiresIn = Number(body.expires_in);
    if (typeof accessToken !== 'string' || accessToken === '') throw new ProviderUnavailableError('e.Rede answered the token request without an access token');
    return { accessToken, expiresAt: this.now() + (Number.isFinite(expiresIn) && expiresIn > 0 ? expiresIn : 1440) * 1000 };
  }
}
