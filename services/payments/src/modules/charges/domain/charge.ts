import { CARD_PAYMENT_TYPES, isPaymentType, PAYMENT_TYPES, SPLIT_BASIS_POINTS, type ParsedSplitRule, type PaymentType } from '@platform/api-model';
import type { ChargeStatus } from './chargeStatus';

/**
 * The charge as stored and shown, and the vocabularies it is made of. Its rules live beside it, one job a file:
 * newCharge (what a valid create request is), splitRules, platformFee, chargeChanges (capture, void, refund and
 * notifications), chargeFilters (list filters).
 */

export { isPaymentType, PAYMENT_TYPES, type PaymentType };

/** Whether the payment type is authorized against a card (voucher is a benefit card). */
export function needsCard(paymentType: PaymentType): boolean {
  return (CARD_PAYMENT_TYPES as readonly PaymentType[]).includes(paymentType);
}

/** The declinedCode values of the product description; no other code is ever shown to a client. */
export const DECLINED_CODES = [
  'card_not_supported',
  'expired_card',
  'fraud_confirmed',
  'fraud_suspect',
  'generic',
  'insufficient_funds',
  'invalid_amount',
  'invalid_cvv',
  'invalid_data',
  'invalid_installment',
  'invalid_merchant',
  'invalid_number',
  'invalid_pin',
  'issuer_not_available',
  'lost_card',
  'not_permitted',
  'pickup_card',
  'pin_try_exceeded',
  'restricted_card',
  'security_violation',
  'service_not_allowed',
  'stolen_card',
  'transaction_not_allowed',
  'try_again',
] as const;
export type DeclinedCode = (typeof DECLINED_CODES)[number];

export function isDeclinedCode(value: string): value is DeclinedCode {
  return (DECLINED_CODES as readonly string[]).includes(value);
}

export const RECURRENCES = ['initial', 'subsequent', 'unscheduled'] as const;

/** Percentages are basis points: 10000 is the whole amount. */
export const BASIS_POINTS = SPLIT_BASIS_POINTS;


export type RequestType = 'authorization' | 'capture' | 'void' | 'refund' | 'antifraud';
/**
 * success: the provider did it; declined: the provider refused (a business answer); failed: no usable answer;
 * pending: a capture, void or refund reserved and being asked, never shown (see `settleOperation`).
 */
/** processing: an authorization whose outcome is unknown and could not be looked up yet (the status sync resolves it). */
export type RequestStatus = 'success' | 'declined' | 'failed' | 'pending' | 'processing';

export interface SellerAmount {
  sellerId: string;
  amount: number;
}

export interface TransactionRequestRecord {
  id: string;
  chargeId: string;
  clientId: string;
  idempotencyKey: string;
  providerId: string | null;
  providerType: string;
  transactionId: string | null;
  amount: number;
  authorizationNsu: string | null;
  requestStatus: RequestStatus;
  requestType: RequestType;
  responseMs: number;
  networkAuthorizationCode: string | null;
  networkResponseCode: string | null;
  declinedCode: string | null;
  message: string | null;
  /** How a refund is taken from the split receivers, when the client said so. */
  splitRules: SellerAmount[] | null;
  /** Authorizations: why this provider was tried at this place ("flow rule 2", "priority"); null for other requests. */
  routingReason?: string | null;
  createdAt: Date;
  updatedAt: Date;
}

/** A split rule of a charge, as the shared split check leaves it. */
export type SplitRule = ParsedSplitRule;

export interface ChargePaymentMethod {
  paymentType: PaymentType;
  installments: number;
  recurrence?: string;
  expiresIn?: number;
  expiresDate?: string;
  instructions?: string;
  interest?: Record<string, unknown>;
  fine?: Record<string, unknown>;
  qrCodeData?: string;
  qrCodeImageUrl?: string;
  barcodeData?: string;
  barcodeImageUrl?: string;
  digitableLine?: string;
  /** ISO timestamp: when the Pix QR code stops working. */
  expiresAt?: string;
}

/** What the charge shows of its source: never the card number or the CVV. */
export interface ChargeSourceView {
  sourceType: string;
  cardId?: string;
  customerId?: string;
  brand?: string;
  first6digits?: string;
  last4digits?: string;
  cardHolderName?: string;
  expirationMonth?: number;
  expirationYear?: number;
  cvvChecked?: boolean;
  /** The inline customer of the request, kept on this charge only. */
  customer?: Record<string, unknown>;
}

export interface PlatformFeeDetails {
  amount: number;
  percentage?: number;
  fixedAmount?: number;
}

export const ANTIFRAUD_STATUSES = ['pending', 'approved', 'reproved', 'failed'] as const;
export type AntifraudStatus = (typeof ANTIFRAUD_STATUSES)[number];

export interface AntifraudState {
  providerId: string;
  status: AntifraudStatus;
  updatedAt: string;
}

export interface Charge {
  id: string;
  clientId: string;
  merchantId: string;
  customerId: string | null;
  sessionId: string | null;
  cardId: string | null;
  amount: number;
  originalAmount: number;
  capturedAmount: number;
  refundedAmount: number;
  currency: string;
  orderId: string | null;
  statementDescriptor: string | null;
  description: string | null;
  capture: boolean;
  isDispute: boolean;
  status: ChargeStatus;
  paymentMethod: ChargePaymentMethod;
  paymentSource: ChargeSourceView;
  splitRules: SplitRule[];
  platformFee: PlatformFeeDetails | null;
  antifraud: AntifraudState | null;
  appInfo: Record<string, unknown> | null;
  fraudAnalysis: Record<string, unknown> | null;
  providerId: string | null;
  providerType: string | null;
  providerName: string | null;
  declinedCode: string | null;
  transactionRequests: TransactionRequestRecord[];
  createdAt: Date;
  updatedAt: Date;
}
