import type { CardData } from '../../vault/domain/card';
import type { AntifraudStatus, DeclinedCode, PaymentType } from '../../charges/domain/charge';

/**
 * The one shape every payment provider has. The charge use cases talk only to these interfaces; a real
 * acquirer is one more class implementing them (see README.md, "Adding a real acquirer").
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
 * throws or never settles, and the caller records a technical failure. A decline with `try_again` or
 * `issuer_not_available` is technical too (see domain/routing.ts).
 */
export type AuthorizeResult =
  | ({ status: 'authorized'; transactionId: string; captured: boolean; cvvChecked: boolean } & NetworkCodes)
  | { status: 'pending'; transactionId: string; pix?: PixInstructions; boleto?: BoletoInstructions }
  | ({ status: 'declined'; declinedCode: DeclinedCode; message: string; transactionId?: string } & NetworkCodes)
  | { status: 'canceled'; transactionId?: string; message: string };

export interface OperationRequest {
  chargeId: string;
  /** The provider's id of the authorization. */
  transactionId: string;
  amount: number;
  currency: string;
}

export type OperationResult =
  | ({ status: 'success'; transactionId?: string } & NetworkCodes)
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
  authorize(request: AuthorizeRequest, call: ProviderCall): Promise<AuthorizeResult>;
  capture(request: OperationRequest, call: ProviderCall): Promise<OperationResult>;
  /** Cancels what was not captured: a pre-authorization, or a Pix or boleto not paid yet. */
  cancel(request: OperationRequest, call: ProviderCall): Promise<OperationResult>;
  /** Gives captured money back, whole or in part. */
  refund(request: OperationRequest, call: ProviderCall): Promise<OperationResult>;
  setupThreeDS(request: ThreeDSSetupRequest, call: ProviderCall): Promise<ThreeDSSetupResult>;
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

/** Thrown by an adapter that could not reach its provider (connection refused, 5xx): a technical failure. */
export class ProviderUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ProviderUnavailableError';
  }
}
