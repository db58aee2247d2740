import type { CardData } from '../../vault/domain/card';
import type { AntifraudStatus, DeclinedCode, PaymentType } from '../../charges/domain/charge';
import type { Payer } from '../../../shared/customersPort';

/**
 * What a decline lets the platform do next, one vocabulary for every connector:
 * - `retry_other_provider`: a soft or technical decline (the issuer or the acquirer could not decide, a generic
 *   refusal another acquirer may approve): the charge moves on to its next provider, within the cascade cap and
 *   the card brands' retry rules (charges/domain/cascade.ts);
 * - `do_not_retry`: a hard decline (lost, stolen, pickup, confirmed fraud, invalid number, closed account, bad
 *   data, and the brands' "never retry" answers such as Mastercard's merchant advice codes 03 and 21): the
 *   charge stops at once, no provider is asked again;
 * - `retry_later`: the issuer may approve the same card later (insufficient funds, "try again in n hours"): the
 *   charge stops now; another acquirer asked at once would get the same answer.
 */
export const DECLINE_DECISIONS = ['retry_other_provider', 'do_not_retry', 'retry_later'] as const;
export type DeclineDecision = (typeof DECLINE_DECISIONS)[number];

/**
 * The one shape every payment provider has. The charge use cases talk only to these interfaces; a real
 * provider is one more connector implementing them (docs/adding-a-connector.md).
 */

/** What every call to a provider carries. */
export interface ProviderCall {
  /** One per request, derived from the charge and the attempt: a provider that sees it again answers the first result. */
  idempotencyKey: string;
  /** Aborted when the request's time is up (PROVIDER_TIMEOUT_MS); an adapter stops waiting and gives up. */
  signal: AbortSignal;
  /** The provider's decrypted credentials ({type, ...secrets}). */
  credentials: Record<string, unknown>;
  options: Record<string, unknown>;
}

export interface AuthorizeRequest {
  chargeId: string;
  merchantId: string;
  amount: number;
  currency: string;
  /** false: hold the amount (pre-authorization) until a capture. */
  capture: boolean;
  paymentType: PaymentType;
  installments: number;
  recurrence?: string;
  statementDescriptor?: string;
  /** For card payment types; the number and CVV live only in memory for this request. */
  card?: CardData;
  pix?: { expiresIn: number };
  /** Who pays, when the charge names a customer (inline or stored): for providers that must name the payer. */
  payer?: Payer;
  boleto?: { expiresDate: string; instructions?: string };
}

export interface NetworkCodes {
  nsu?: string;
  networkAuthorizationCode?: string;
  networkResponseCode?: string;
}

export interface PixInstructions {
  /** The EMV "copia e cola" payload the QR code encodes. */
  qrCodeData: string;
  qrCodeImageUrl: string;
  expiresAt: Date;
}

export interface BoletoInstructions {
  /** The 44 digits of the bar code. */
  barcodeData: string;
  /** The 47 digits people type. */
  digitableLine: string;
  barcodeImageUrl: string;
  expiresDate: string;
}

/**
 * A provider's answer. No answer at all (a timeout, an unreachable provider) is not a result: the adapter
 * throws or never settles, and the caller records a technical failure. A decline carries the decision of the
 * connector's decline table (kit/tables.ts): `retry_other_provider` moves the charge on to its next provider; a
 * decline without one is decided by its declinedCode (charges/domain/cascade.ts).
 */
export type AuthorizeResult =
  | ({ status: 'authorized'; transactionId: string; captured: boolean; cvvChecked: boolean } & NetworkCodes)
  | { status: 'pending'; transactionId: string; pix?: PixInstructions; boleto?: BoletoInstructions }
  | ({ status: 'declined'; declinedCode: DeclinedCode; message: string; transactionId?: string; decision?: DeclineDecision } & NetworkCodes)
  | { status: 'canceled'; transactionId?: string; message: string };

export interface OperationRequest {
  chargeId: string;
  /** The provider's id of the authorization. */
  transactionId: string;
  amount: number;
  currency: string;
}

/**
 * pending: the provider took the capture, cancel or refund and settles it later (a refund the issuer confirms in
 * days, a capture batched at night). The request stays pending and the charge `capture_pending` or
 * `refund_pending` until a notification or the status sync tells how it ended.
 */
export type OperationResult =
  | ({ status: 'success'; transactionId?: string } & NetworkCodes)
  | { status: 'pending'; transactionId?: string; message?: string }
  | { status: 'failed'; message: string; declinedCode?: DeclinedCode };

export interface ThreeDSSetupRequest {
  setupId: string;
  cardId?: string;
  tokenId?: string;
}

export interface ThreeDSSetupResult {
  /** The JWT the device data collection page is opened with. */
  token: string;
  collectUrl: string;
}

export interface PaymentProvider {
  /** credentials.type this adapter serves. */
  readonly type: string;
  /**
   * The payment types the provider takes; a charge of another type skips it (the reason is recorded among the
   * charge's transactionRequests) and it is never asked. Absent: every type.
   */
  readonly paymentTypes?: readonly PaymentType[];
  authorize(request: AuthorizeRequest, call: ProviderCall): Promise<AuthorizeResult>;
  capture(request: OperationRequest, call: ProviderCall): Promise<OperationResult>;
  /** Cancels what was not captured: a pre-authorization, or a Pix or boleto not paid yet. */
  cancel(request: OperationRequest, call: ProviderCall): Promise<OperationResult>;
  /** Gives captured money back, whole or in part. */
  refund(request: OperationRequest, call: ProviderCall): Promise<OperationResult>;
  /** Only providers that simulate or run 3DS2 device data collection have it. */
  setupThreeDS?(request: ThreeDSSetupRequest, call: ProviderCall): Promise<ThreeDSSetupResult>;
  /**
   * Finds the authorization an earlier `authorize` call of this attempt may have made, by the reference the platform
   * sent with it (Cielo's MerchantOrderId, Rede's reference, the Pix txid, a PSP's idempotency key or order
   * reference), when that call's outcome is unknown: no answer in time, a 5xx, a reset connection, an answer the
   * connector could not read. `{found: false}` only when the provider says for certain it has none (the charge may
   * then move on to its next provider); throws (or never settles) when it cannot tell, which stops the cascade.
   * A connector without it is never assumed to have nothing: an unknown outcome there stops the cascade.
   */
  lookup?(request: LookupRequest, call: ProviderCall): Promise<LookupResult>;
  /** Where a transaction stands at the provider now (the status-sync job and notifications that are verified by asking back). */
  query?(request: QueryRequest, call: ProviderCall): Promise<QueryResult>;
  /**
   * Tells the provider where to post the notifications of a provider entry (`url` is the platform's
   * `/v1/provider-notifications/{providerId}`): the Pix webhook registration. Called when an entry is saved.
   */
  registerNotifications?(url: string, call: ProviderCall): Promise<void>;
  /** Reads and verifies what the provider posts to `/v1/provider-notifications/{providerId}`. */
  readonly notifications?: NotificationReader;
}

/**
 * The charge statuses a provider's own status maps to (each connector's status table). The platform moves the
 * charge there only along CHARGE_TRANSITIONS (`notification`): a late or repeated answer never moves it backwards.
 */
export type ProviderChargeStatus = 'pending' | 'pre_authorized' | 'authorized' | 'capture_pending' | 'refund_pending' | 'voided' | 'canceled' | 'failed' | 'charged_back';

export interface QueryRequest {
  chargeId: string;
  /** The provider's id of the authorization (the Pix txid, Cielo's PaymentId, Rede's tid). */
  transactionId: string;
  paymentType: PaymentType;
  amount: number;
  currency: string;
  /** The platform's clock, for providers whose answers say when something expires rather than that it did. */
  now: Date;
}

/**
 * The attempt to find: the same AuthorizeRequest and the same call (idempotencyKey, credentials, options) the
 * unknown `authorize` was made with, so a connector derives the same reference it sent, plus the platform's clock.
 */
export interface LookupRequest {
  authorization: AuthorizeRequest;
  now: Date;
}

/** What a lookup found: the authorization's result as `authorize` would have answered it, or nothing at all. */
export type LookupResult = { found: true; result: AuthorizeResult } | { found: false };

export interface QueryResult {
  /** Unknown to the provider: nothing changes. */
  found: boolean;
  status?: ProviderChargeStatus;
  /** The provider's own status, as it said it (kept in the request's message). */
  providerStatus?: string;
  capturedAmount?: number;
  refundedAmount?: number;
  declinedCode?: DeclinedCode;
}

export interface InboundNotification {
  headers: Record<string, string>;
  /** The body exactly as received (signatures are computed over bytes, not over parsed JSON). */
  rawBody: Buffer;
  query: Record<string, string>;
}

/**
 * What a notification named. The platform never trusts a status in the body: for each transaction it asks the
 * provider (`query`), unless the connector verified a signature over the body and gives the status itself.
 */
/**
 * A notification about one capture, cancel or refund (a modification), named by the provider's own reference for it
 * (what the connector answered as the pending operation's transactionId). Settles exactly that operation once: the
 * same notification again finds it settled and changes nothing, whatever the charge's status says.
 */
export interface NotifiedOperation {
  type: 'capture' | 'void' | 'refund';
  reference: string;
  succeeded: boolean;
  /** In minor units, when the provider says it (a refund made at the provider, not through the platform, is recorded with it). */
  amount?: number;
}

export interface NotificationReading {
  transactions: Array<{ transactionId: string; status?: ProviderChargeStatus; providerStatus?: string; operation?: NotifiedOperation }>;
  /** What the provider expects back (most want a bare 200). */
  reply?: { status: number; body?: unknown };
}

export interface NotificationReader {
  /**
   * Verifies (signature, shared secret) and parses; throws NotificationRefusedError when it is not the provider's.
   * `credentials` are the receiving provider entry's.
   */
  read(notification: InboundNotification, credentials: Record<string, unknown>): NotificationReading;
}

/** The notification is not the provider's (bad signature, wrong secret, a shape it never sends). */
export class NotificationRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NotificationRefusedError';
  }
}

export interface AntifraudRequest {
  chargeId: string;
  amount: number;
  currency: string;
  paymentType: PaymentType;
  fraudAnalysis: Record<string, unknown>;
  card?: { brand: string; first6: string; last4: string };
}

export interface AntifraudResult {
  status: AntifraudStatus;
  transactionId: string;
  message?: string;
}

export interface AntifraudProvider {
  readonly type: string;
  analyze(request: AntifraudRequest, call: ProviderCall): Promise<AntifraudResult>;
}

/**
 * Thrown by an adapter (or the connectors' HTTP client) when a request may have been carried out but its answer
 * cannot be known: a 5xx, a connection reset or aborted after the request was sent, a body that is not what the
 * provider documents (truncated JSON, an HTML page, an empty 200). The outcome of the attempt is unknown: it is looked
 * up (`lookup`) before the charge moves on, never taken for a failure.
 */
export class ProviderOutcomeUnknownError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ProviderOutcomeUnknownError';
  }
}

/** Thrown by an adapter that could not reach its provider (connection refused before anything was sent, no adapter): a technical failure that is known to have done nothing. */
export class ProviderUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ProviderUnavailableError';
  }
}
