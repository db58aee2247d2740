/** What the gateway knows about the caller once its credentials are checked. */
export interface AuthenticatedClient {
  clientId: string;
  environment: string;
  /** "secret" or "public". */
  keyKind: string;
  keyId: string;
  /** Resources a public key reaches ("*" for all); empty for a secret key. */
  scopes: string[];
}

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      requestId: string;
      /** Set by the authentication guard on routes that need a client. */
      client?: AuthenticatedClient;
      /** Set by the admin guard: the id of the admin token the request carried (never the token). */
      admin?: string;
    }
  }
}
