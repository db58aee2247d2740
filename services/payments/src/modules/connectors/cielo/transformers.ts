import { createHash } from 'node:crypto';
import type { CardBrand } from '../../vault/domain/card';
import type { AuthorizeRequest, AuthorizeResult, OperationResult, QueryResult } from '../domain/types';
import { declineOf, isTechnicalDecline, retriesOnOtherProvider, statusOf, withAdviceCode } from '../kit/tables';
import { CIELO_CANCELLATION_CODES, CIELO_DECLINES } from './declineTable';
import { redact } from './errors';
import { CIELO_STATUS, CIELO_STATUS_NAMES } from './statusTable';

/**
 * Our requests -> API E-commerce Cielo's, and its answers -> our results. Field names are the manual's
 * ("API E-commerce Cielo", developercielo.github.io); the section each shape follows is named beside it.
 *
 * Amounts: Cielo takes and answers amounts in cents, as integers ("Payment.Amount: Order amount (to be sent
 * in cents)"), which are our minor units: they pass through unchanged, never as decimals.
 */

export type CieloGateway = 'cielo' | 'braspag';

/** "Creating a credit card transaction" > Request, `Payment.CreditCard` (and `Payment.DebitCard`, "Creating a debit transaction"). */
export interface CieloCard {
  CardNumber: string;
  Holder: string;
  /** MM/YYYY. */
  ExpirationDate: string;
  SecurityCode?: string;
  Brand: string;
}

/** "Creating a credit card transaction" / "Creating a debit transaction" / "Creating a transaction with Pix QR Code" > Request. */
export interface CieloSaleRequest {
  MerchantOrderId: string;
  Customer: { Name: string; Identity?: string; IdentityType?: string };
  Payment: {
    Type: 'CreditCard' | 'DebitCard' | 'Pix';
    /** Cents. */
    Amount: number;
    Currency?: 'BRL';
    Country?: 'BRA';
    /** Braspag gateway only (API Pagador): the acquirer, "Cielo30" or "Simulado". */
    Provider?: string;
    Installments?: number;
    Interest?: 'ByMerchant';
    Capture?: boolean;
    Authenticate?: boolean;
    SoftDescriptor?: string;
    CreditCard?: CieloCard;
    DebitCard?: CieloCard;
  };
}

/** "Creating a credit card transaction" > Response, and "Searching for a transaction via PaymentId" > Response. */
export interface CieloPayment {
  PaymentId?: string;
  /** The manual's Pix response example spells it so. */
  Paymentid?: string;
  Type?: string;
  Amount?: number;
  CapturedAmount?: number;
  VoidedAmount?: number;
  Status?: number;
  ReturnCode?: string | number;
  ReturnMessage?: string;
  /** Braspag gateway: the acquirer's return. */
  ProviderReturnCode?: string | number;
  /** The Mastercard issuer's merchant advice code on a refusal ("MerchantAdviceCode": "1"). */
  MerchantAdviceCode?: string | number;
  ProviderReturnMessage?: string;
  ReasonCode?: number;
  ReasonMessage?: string;
  Tid?: string;
  ProofOfSale?: string;
  AuthorizationCode?: string;
  ReceivedDate?: string;
  QrCodeString?: string;
  QrcodeBase64Image?: string;
}

export interface CieloSale {
  MerchantOrderId?: string;
  Payment?: CieloPayment;
}

/** "Partial or total capture" and "Canceling a transaction" > Response. */
export interface CieloOperationAnswer {
  Status?: number;
  Tid?: string;
  ProofOfSale?: string;
  AuthorizationCode?: string;
  ReturnCode?: string | number;
  ReturnMessage?: string;
  ProviderReturnCode?: string | number;
  ProviderReturnMessage?: string;
  ReasonCode?: number;
  ReasonMessage?: string;
}

/** Our card brands -> `Brand` ("Products and Supported Brands": Visa, Master, Amex, Elo, Diners, Hipercard, ...). */
export const CIELO_BRANDS: Readonly<Record<CardBrand, string>> = {
  visa: 'Visa',
  mastercard: 'Master',
  amex: 'Amex',
  elo: 'Elo',
  hipercard: 'Hipercard',
  diners: 'Diners',
};

/** "The QRCode for Cielo Pix expires in two hours" (section "Pix"); it cannot be configured. */
export const CIELO_PIX_LIFETIME_MS = 2 * 60 * 60 * 1000;

/**
 * The `RequestId` header (GUID): derived from the attempt's idempotency key, so the same attempt sent again
 * carries the same RequestId and Cielo recognises it.
 */
export function requestIdOf(idempotencyKey: string): string {
  const hex = createHash('sha256').update(`cielo-request-id:${idempotencyKey}`).digest('hex');
  // Laid out as a name-based UUID (version 5 nibble, RFC 4122 variant).
  const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** `MerchantOrderId`: "a-z, A-Z, 0-9. Special characters and blank spaces are not allowed", 50 at most. */
export function merchantOrderIdOf(chargeId: string): string {
  return chargeId.replace(/[^A-Za-z0-9]/g, '').slice(0, 50);
}

/** `SoftDescriptor`: 13 characters, no special characters. */
function softDescriptorOf(descriptor: string | undefined): string | undefined {
  if (!descriptor) return undefined;
  const plain = descriptor
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9 ]/g, '')
    .trim()
    .slice(0, 13)
    .trim();
  return plain === '' ? undefined : plain;
}

/** `Holder`: 25 characters at most ("Customer's name printed on the card"). */
function holderOf(name: string): string {
  return name.trim().slice(0, 25);
}

export interface SaleOptions {
  gateway: CieloGateway;
  /** Braspag gateway: `Payment.Provider`. */
  braspagProvider?: string;
  /** Pix: "Customer.Name", "Customer.Identity" (CPF/CNPJ) and "Customer.IdentityType" are required. */
  customer?: { name?: string; identity?: string; identityType?: string };
}

/** Our authorization -> "Creating a credit card transaction" / "Creating a debit transaction" / "Creating a transaction with Pix QR Code". */
export function toSaleRequest(request: AuthorizeRequest, options: SaleOptions): CieloSaleRequest {
  const provider = options.gateway === 'braspag' ? { Provider: options.braspagProvider ?? 'Cielo30' } : {};
  const MerchantOrderId = merchantOrderIdOf(request.chargeId);
  if (request.paymentType === 'pix') {
    // "Creating a transaction with Pix QR Code" > Request: Type "Pix" and Amount in cents.
    const identity = options.customer?.identity?.replace(/\D/g, '');
    return {
      MerchantOrderId,
      Customer: {
        Name: options.customer?.name?.trim() || 'Pagador',
        ...(identity ? { Identity: identity, IdentityType: options.customer?.identityType ?? (identity.length > 11 ? 'CNPJ' : 'CPF') } : {}),
      },
      Payment: { Type: 'Pix', Amount: request.amount, ...provider },
    };
  }
  const card = request.card;
  if (!card) throw new Error('a card payment without card data');
  const cieloCard: CieloCard = {
    CardNumber: card.number,
    Holder: holderOf(card.holderName),
    ExpirationDate: `${String(card.expirationMonth).padStart(2, '0')}/${card.expirationYear}`,
    ...(card.cvv ? { SecurityCode: card.cvv } : {}),
    Brand: CIELO_BRANDS[card.brand],
  };
  if (request.paymentType === 'debit') {
    // "Creating a debit transaction": without 3DS data the debit goes unauthenticated ("Debit without
    // authentication", which the issuer must have allowed); it is captured in its authorization, in one
    // installment. Only the fields the debit request documents are sent.
    return {
      MerchantOrderId,
      Customer: { Name: holderOf(card.holderName) },
      Payment: { Type: 'DebitCard', Authenticate: false, Amount: request.amount, ...provider, DebitCard: cieloCard },
    };
  }
  const softDescriptor = softDescriptorOf(request.statementDescriptor);
  return {
    MerchantOrderId,
    Customer: { Name: holderOf(card.holderName) },
    Payment: {
      Type: 'CreditCard',
      Amount: request.amount,
      Currency: 'BRL',
      Country: 'BRA',
      Installments: Math.max(1, request.installments),
      Interest: 'ByMerchant',
      Capture: request.capture,
      Authenticate: false,
      ...(softDescriptor ? { SoftDescriptor: softDescriptor } : {}),
      ...provider,
      CreditCard: cieloCard,
    },
  };
}

/** The acquirer's return code: `ReturnCode` (Cielo) or `ProviderReturnCode` (Braspag gateway). */
export function returnCodeOf(answer: CieloPayment | CieloOperationAnswer): string | undefined {
  const code = answer.ReturnCode ?? answer.ProviderReturnCode;
  return code === undefined || code === null ? undefined : String(code).replace(/\s+/g, '');
}

function returnMessageOf(answer: CieloPayment | CieloOperationAnswer): string {
  return redact(String(answer.ReturnMessage ?? answer.ProviderReturnMessage ?? answer.ReasonMessage ?? ''));
}

export function paymentIdOf(payment: CieloPayment): string | undefined {
  return payment.PaymentId ?? payment.Paymentid;
}

/** "YYYY-MM-DD HH:mm:SS", Brasília time (UTC-3). */
export function parseCieloDate(value: string | undefined): Date | undefined {
  const match = value ? /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})/.exec(value) : null;
  if (!match) return undefined;
  const [, y, mo, d, h, mi, s] = match.map(Number) as [number, number, number, number, number, number, number];
  return new Date(Date.UTC(y, mo - 1, d, h + 3, mi, s));
}

function networkCodes(payment: CieloPayment | CieloOperationAnswer) {
  const code = returnCodeOf(payment);
  return {
    ...(payment.ProofOfSale ? { nsu: payment.ProofOfSale } : {}),
    ...(payment.AuthorizationCode ? { networkAuthorizationCode: payment.AuthorizationCode } : {}),
    ...(code !== undefined ? { networkResponseCode: code } : {}),
  };
}

/** "Creating a credit card transaction" / "... debit ..." / "... Pix QR Code" > Response -> our result. */
export function fromSale(sale: CieloSale, now: () => Date): AuthorizeResult {
  const payment = sale.Payment ?? {};
  const transactionId = paymentIdOf(payment);
  const status = payment.Status;
  const code = returnCodeOf(payment);
  const message = returnMessageOf(payment);
  if (!transactionId) return { status: 'declined', declinedCode: 'generic', message: 'Cielo answered a sale without PaymentId' };
  if (payment.Type === 'Pix' && status === 12) {
    // "Creating a transaction with Pix QR Code" > Response: QrCodeString (copia e cola), QrcodeBase64Image.
    const received = parseCieloDate(payment.ReceivedDate) ?? now();
    return {
      status: 'pending',
      transactionId,
      pix: {
        qrCodeData: payment.QrCodeString ?? '',
        qrCodeImageUrl: payment.QrcodeBase64Image ? `data:image/png;base64,${payment.QrcodeBase64Image}` : '',
        expiresAt: new Date(received.getTime() + CIELO_PIX_LIFETIME_MS),
      },
    };
  }
  switch (status) {
    case 1:
      return { status: 'authorized', transactionId, captured: false, cvvChecked: false, ...networkCodes(payment) };
    case 2:
      return { status: 'authorized', transactionId, captured: true, cvvChecked: false, ...networkCodes(payment) };
    case 0:
    case 12:
    case 20:
      // NotFinished / Pending / Scheduled: not decided yet; the status sync asks again.
      return { status: 'pending', transactionId };
    case 10:
    case 11:
      return { status: 'canceled', transactionId, message: `Cielo: ${CIELO_STATUS_NAMES[String(status)]}` };
    default: {
      // Payment.MerchantAdviceCode (Mastercard only, "Card Brands Retry Program"): 03 and 21 forbid any retry.
      const entry = withAdviceCode(declineOf(CIELO_DECLINES, code), payment.MerchantAdviceCode);
      return {
        status: 'declined',
        declinedCode: entry.declinedCode,
        decision: entry.decision,
        transactionId,
        message: `Cielo ${CIELO_STATUS_NAMES[String(status)] ?? `status ${String(status)}`}: ${code ?? '(no code)'} ${message || entry.meaning}`.trim(),
        ...networkCodes(payment),
      };
    }
  }
}

/** What a capture, void or refund answer with a code that is not a success means. */
export interface OperationRefusal {
  result: OperationResult;
  technical: boolean;
}

/** "Partial or total capture" > Response: Status 2 (PaymentConfirmed) is the capture done. */
export function fromCapture(answer: CieloOperationAnswer, transactionId: string): OperationRefusal {
  if (answer.Status === 2) return { result: { status: 'success', transactionId, ...networkCodes(answer) }, technical: false };
  const code = returnCodeOf(answer);
  const entry = declineOf(CIELO_DECLINES, code);
  return {
    result: { status: 'failed', declinedCode: entry.declinedCode, message: `Cielo did not capture: ${code ?? '(no code)'} ${returnMessageOf(answer) || entry.meaning}`.trim() },
    technical: isTechnicalDecline(entry),
  };
}

/**
 * "Canceling a transaction" > Response ("Total cancellation", "Partial cancellation", "Requesting Pix refund"):
 * ReturnCode 0 (cancellation approved) or 9 (total cancellation approved) is done; other codes are the
 * "Cancellation Return Codes".
 */
export function fromVoid(answer: CieloOperationAnswer, transactionId: string): OperationRefusal {
  const code = returnCodeOf(answer);
  const reasonOk = answer.ReasonCode === undefined || answer.ReasonCode === 0;
  if ((code === '0' || code === '9') && reasonOk) return { result: { status: 'success', transactionId, ...networkCodes(answer) }, technical: false };
  const entry = declineOf(CIELO_CANCELLATION_CODES, code);
  return {
    result: { status: 'failed', declinedCode: entry.declinedCode, message: `Cielo did not cancel: ${code ?? '(no code)'} ${returnMessageOf(answer) || entry.meaning}`.trim() },
    technical: retriesOnOtherProvider(entry),
  };
}

/** "Searching for a transaction via PaymentId" > Response -> where the transaction stands. */
export function toQueryResult(sale: CieloSale): QueryResult {
  const payment = sale.Payment ?? {};
  const status = payment.Status;
  const mapped = statusOf(CIELO_STATUS, status);
  const captured = typeof payment.CapturedAmount === 'number' ? payment.CapturedAmount : undefined;
  const voided = typeof payment.VoidedAmount === 'number' ? payment.VoidedAmount : undefined;
  const code = returnCodeOf(payment);
  return {
    found: true,
    ...(mapped ? { status: mapped } : {}),
    providerStatus: `${String(status)} ${CIELO_STATUS_NAMES[String(status)] ?? 'unknown'}${code !== undefined ? ` (ReturnCode ${code})` : ''}`,
    ...(captured !== undefined && captured > 0 ? { capturedAmount: captured } : {}),
    // VoidedAmount: "Canceled/refunded amount, in cents"; a refund only once something was captured.
    ...(captured !== undefined && captured > 0 && voided !== undefined && voided > 0 ? { refundedAmount: voided } : {}),
    ...(status === 3 ? { declinedCode: declineOf(CIELO_DECLINES, code).declinedCode } : {}),
  };
}
