import type { ProviderEnvironment } from '../kit/definition';
import type { PixType } from './credentials';

/**
 * What differs between banks that expose the Central Bank's API Pix: where the API and its OAuth2 token endpoint
 * are (per environment), how the token request authenticates, which scopes it asks for, whether the token
 * endpoint wants the client certificate, and extra parameters. The API itself (paths, bodies, answers, problems)
 * is the standard one. `PIX_<BANK>_API_URL` and `PIX_<BANK>_TOKEN_URL` override the hosts (kit `endpoint()`).
 */

/**
 * - `basic-json`: HTTP Basic (client_id:client_secret), JSON body `{"grant_type":"client_credentials"}` (Efí).
 * - `basic-form`: HTTP Basic, form body `grant_type=client_credentials&scope=...` (Banco do Brasil).
 * - `form`: form body with grant_type, client_id and client_secret (Itaú).
 * - `form-query-grant`: `?grant_type=client_credentials` in the URL, form body with client_id and client_secret (Santander).
 */
export type TokenAuthentication = 'basic-json' | 'basic-form' | 'form' | 'form-query-grant';

export interface PixProfile {
  type: PixType;
  /** The suffix of the operator's variables: PIX_<bank>_API_URL, PIX_<bank>_TOKEN_URL. */
  bank: 'EFI' | 'ITAU' | 'SANTANDER' | 'BB';
  api: Readonly<Record<ProviderEnvironment, string>>;
  token: Readonly<Record<ProviderEnvironment, string>>;
  tokenAuthentication: TokenAuthentication;
  /** Asked for in the token request; undefined where the bank grants the scopes set on the application. */
  scopes?: string;
  /** The token endpoint wants the client certificate too (mutual TLS). */
  tokenMutualTls: Readonly<Record<ProviderEnvironment, boolean>>;
  /** BB: `gw-dev-app-key=<developerKey>` on every API call. */
  developerKeyParameter?: string;
  /** Headers of the webhook registration (Efí: `x-skip-mtls-checking`, see registerWebhook). */
  webhookHeaders?: Readonly<Record<string, string>>;
}

const STANDARD_SCOPES = 'cob.write cob.read pix.write pix.read webhook.write webhook.read';

export const PIX_PROFILES: Readonly<Record<PixType, PixProfile>> = {
  // Efí, "API Pix > Credenciais, Certificado e Autorização": base routes https://pix.api.efipay.com.br (production)
  // and https://pix-h.api.efipay.com.br (homologation), endpoints under /v2; POST /oauth/token with HTTP Basic and the
  // P12 certificate "obrigatório em todas as requisições, inclusive na requisição de autorização"; scopes are
  // those enabled on the application.
  PIX_EFI: {
    type: 'PIX_EFI',
    bank: 'EFI',
    api: { production: 'https://pix.api.efipay.com.br/v2', sandbox: 'https://pix-h.api.efipay.com.br/v2' },
    token: { production: 'https://pix.api.efipay.com.br/oauth/token', sandbox: 'https://pix-h.api.efipay.com.br/oauth/token' },
    tokenAuthentication: 'basic-json',
    tokenMutualTls: { production: true, sandbox: true },
    // Efí, "API Pix > Webhooks": without this header Efí first checks that the webhook's server asks for Efí's
    // client certificate; with it, the platform's own edge is trusted to authenticate the callback.
    webhookHeaders: { 'x-skip-mtls-checking': 'true' },
  },
  // Itaú Developers, "Pix Recebimentos" (pix_recebimentos v2): production API at secure.api.itau with the token from
  // sts.itau.com.br (client credentials in the form, mutual TLS); the sandbox at devportal.itau.com.br without a
  // client certificate on its token endpoint.
  PIX_ITAU: {
    type: 'PIX_ITAU',
    bank: 'ITAU',
    api: { production: 'https://secure.api.itau/pix_recebimentos/v2', sandbox: 'https://devportal.itau.com.br/sandboxapi/pix_recebimentos_ext_v2/v2' },
    token: { production: 'https://sts.itau.com.br/api/oauth/token', sandbox: 'https://devportal.itau.com.br/api/jwt' },
    tokenAuthentication: 'form',
    tokenMutualTls: { production: true, sandbox: false },
  },
  // Santander, "Pagamento Instantâneo Pix API - User Guide": trust-pix (production) and trust-pix-h (homologation),
  // API under /api/v1, token at /oauth/token?grant_type=client_credentials with client_id and client_secret in
  // the form, mutual TLS on both.
  PIX_SANTANDER: {
    type: 'PIX_SANTANDER',
    bank: 'SANTANDER',
    api: { production: 'https://trust-pix.santander.com.br/api/v1', sandbox: 'https://trust-pix-h.santander.com.br/api/v1' },
    token: { production: 'https://trust-pix.santander.com.br/oauth/token', sandbox: 'https://trust-pix-h.santander.com.br/oauth/token' },
    tokenAuthentication: 'form-query-grant',
    tokenMutualTls: { production: true, sandbox: true },
  },
  // Banco do Brasil developers portal, "API Pix v2", connection settings: production https://api-pix.bb.com.br/pix/v2
  // and homologation https://api-pix.hm.bb.com.br/pix/v2, both with mutual TLS (the homologation host without it,
  // api.extranet.hm.bb.com.br, is not used: the connector always presents the entry's certificate); the token from
  // oauth.bb.com.br / oauth.hm.bb.com.br with HTTP Basic and a form body with grant_type and scope, no client
  // certificate; the application key as the `gw-dev-app-key` query parameter of every API call, in both.
  PIX_BB: {
    type: 'PIX_BB',
    bank: 'BB',
    api: { production: 'https://api-pix.bb.com.br/pix/v2', sandbox: 'https://api-pix.hm.bb.com.br/pix/v2' },
    token: { production: 'https://oauth.bb.com.br/oauth/token', sandbox: 'https://oauth.hm.bb.com.br/oauth/token' },
    tokenAuthentication: 'basic-form',
    scopes: STANDARD_SCOPES,
    tokenMutualTls: { production: false, sandbox: false },
    developerKeyParameter: 'gw-dev-app-key',
  },
};
