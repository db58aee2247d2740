import { createHash } from 'node:crypto';
import type { CardBrand, CardData } from '../../vault/domain/card';
import type { PaymentType } from '../../charges/domain/charge';
import type { AuthorizeRequest, AuthorizeResult, OperationResult, QueryResult } from '../domain/types';
import { declineOf, statusOf } from '../kit/tables';
import { MERCADOPAGO_DECLINES } from './declineTable';
import { redact } from './errors';
import { MERCADOPAGO_STATUS } from './statusTable';

/**
 * Our requests -> Mercado Pago's payments API (API reference "Payments", "Card tokens", "Refunds"), and its
 * answers -> our results. The section each shape follows is named beside it.
 *
 * Amounts: Mercado Pago takes and answers decimal reais (`transaction_amount: 10.5`, refund `amount: 2.5`), the
 * platform keeps integer centavos. They are converted here and only here: `toReais` on the way out (1050 -> 10.5),
 * `toCentavos` on the way back (10.5 -> 1050, rounded to the centavo so a binary fraction never costs one).
 */

export function toReais(centavos: number): number {
  return Math.round(centavos) / 100;
}

export function toCentavos(reais: unknown): number {
  return typeof reais === 'number' && Number.isFinite(reais) ? Math.round(reais * 100) : 0;
}

/**
 * The `X-Idempotency-Key` of a request: derived from the attempt's idempotency key and what the request does, so
 * the same attempt sent again carries the same key and Mercado Pago answers it once; laid out as a UUID, the form
 * Mercado Pago's examples use.
 */
export function idempotencyKeyOf(idempotencyKey: string, purpose: 'payment' | 'card-token' | 'capture' | 'cancel' | 'refund'): string {
  const hex = createHash('sha256').update(`mercadopago:${purpose}:${idempotencyKey}`).digest('hex');
  const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/**
 * `payment_method_id` of a card in Brazil ("Payment methods" of MLB): credit brands, and the debit ones Mercado
 * Pago names with a `deb` prefix. A brand absent from its list is not taken.
 */
export const MERCADOPAGO_CARD_METHODS: Readonly<Record<'credit' | 'debit', Partial<Record<CardBrand, string>>>> = {
  credit: { visa: 'visa', mastercard: 'master', amex: 'amex', elo: 'elo', hipercard: 'hipercard' },
  debit: { visa: 'debvisa', mastercard: 'debmaster', elo: 'debelo' },
};

export function cardMethodOf(paymentType: PaymentType, brand: CardBrand): string | undefined {
  if (paymentType !== 'credit' && paymentType !== 'debit') return undefined;
  return MERCADOPAGO_CARD_METHODS[paymentType][brand];
}

export interface MercadoPagoIdentification {
  type: 'CPF' | 'CNPJ';
  number: string;
}

/** `payer.identification` / `cardholder.identification`: the payer's CPF or CNPJ, digits only. */
export function identificationOf(document: { type: string; number: string } | undefined): MercadoPagoIdentification | undefined {
  if (!document) return undefined;
  const type = document.type.toUpperCase();
  const number = document.number.replace(/\D/g, '');
  return (type === 'CPF' || type === 'CNPJ') && number !== '' ? { type, number } : undefined;
}

/**
 * "Card tokens" > `POST /v1/card_tokens`: a payment takes a card token, never the card itself. The browser's
 * MercadoPago.js makes one with the public key; a server that holds the card (as the platform's vault does)
 * posts the same body with its access token as `Authorization: Bearer`, which is how Mercado Pago's own Node SDK
 * tests tokenize their sandbox cards (card_number, expiration_month/year, security_code, cardholder name and
 * identification). Expiration month and year as the SDK types them (strings); `cardholder.name` is what the
 * sandbox reads to force an outcome (APRO, OTHE, CONT, ...). A token is used once, by the payment that follows.
 */
export interface MercadoPagoCardTokenRequest {
  card_number: string;
  expiration_month: string;
  expiration_year: string;
  security_code?: string;
  cardholder: { name: string; identification?: MercadoPagoIdentification };
}

export function toCardTokenRequest(card: CardData, identification: MercadoPagoIdentification | undefined): MercadoPagoCardTokenRequest {
  return {
    card_number: card.number,
    expiration_month: String(card.expirationMonth).padStart(2, '0'),
    expiration_year: String(card.expirationYear),
    ...(card.cvv ? { security_code: card.cvv } : {}),
    cardholder: { name: card.holderName.trim(), ...(identification ? { identification } : {}) },
  };
}

/** "Payments" > `POST /v1/payments`: the request body. */
export interface MercadoPagoPaymentRequest {
  /** Decimal reais. */
  transaction_amount: number;
  payment_method_id: string;
  payer: { email: string; first_name?: string; identification?: MercadoPagoIdentification };
  external_reference: string;
  description?: string;
  token?: string;
  installments?: number;
  capture?: boolean;
  statement_descriptor?: string;
  /** Pix: "yyyy-MM-dd'T'HH:mm:ss.SSSz". */
  date_of_expiration?: string;
}

export interface PaymentOptions {
  payerEmail: string;
  identification?: MercadoPagoIdentification;
  /** The card token (card payments). */
  token?: string;
  paymentMethodId: string;
  now: Date;
}

/** `statement_descriptor`: how the charge reads on the card's statement (plain letters and digits, 22 at most). */
function statementDescriptorOf(descriptor: string | undefined): string | undefined {
  if (!descriptor) return undefined;
  const plain = descriptor
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9 *.-]/g, '')
    .trim()
    .slice(0, 22)
    .trim();
  return plain === '' ? undefined : plain;
}

/** Dates as Mercado Pago takes them: ISO 8601 with milliseconds and an offset. */
export function mercadoPagoDate(at: Date): string {
  return at.toISOString().replace('Z', '+00:00');
}

/** Our authorization -> "Payments" > "Create payment": a card payment with its token, or a Pix ("payment_method_id": "pix"). */
export function toPaymentRequest(request: AuthorizeRequest, options: PaymentOptions): MercadoPagoPaymentRequest {
  const payer = {
    email: options.payerEmail,
    ...(request.payer?.name ? { first_name: request.payer.name.trim().split(/\s+/)[0]! } : {}),
    ...(options.identification ? { identification: options.identification } : {}),
  };
  const common = {
    transaction_amount: toReais(request.amount),
    payment_method_id: options.paymentMethodId,
    payer,
    external_reference: request.chargeId,
  };
  if (request.paymentType === 'pix') {
    // "Pix" > "Create payment": the copia e cola comes back in point_of_interaction.transaction_data.qr_code and
    // the payer pays until date_of_expiration (the charge's pix.expiresIn seconds, 3600 when not given).
    const expiresIn = request.pix?.expiresIn ?? 3600;
    return { ...common, date_of_expiration: mercadoPagoDate(new Date(options.now.getTime() + expiresIn * 1000)) };
  }
  const descriptor = statementDescriptorOf(request.statementDescriptor);
  return {
    ...common,
    ...(options.token ? { token: options.token } : {}),
    // A debit is captured in its authorization, in one installment.
    installments: request.paymentType === 'debit' ? 1 : Math.max(1, request.installments),
    capture: request.paymentType === 'debit' ? true : request.capture,
    ...(descriptor ? { statement_descriptor: descriptor } : {}),
  };
}

/** "Payments" > "Get payment" (and the answers of create, capture and cancel): the fields the platform reads. */
export interface MercadoPagoPayment {
  id?: number;
  external_reference?: string | null;
  status?: string;
  status_detail?: string;
  transaction_amount?: number;
  transaction_amount_refunded?: number;
  captured?: boolean;
  payment_method_id?: string;
  authorization_code?: string | null;
  date_of_expiration?: string | null;
  date_created?: string;
  refunds?: Array<{ id?: number; amount?: number; status?: string }>;
  point_of_interaction?: { transaction_data?: { qr_code?: string; qr_code_base64?: string; ticket_url?: string } };
}

/** "Refunds" > "Create refund": the refund's own status (approved, in_process, rejected, cancelled, authorized). */
export interface MercadoPagoRefund {
  id?: number;
  payment_id?: number;
  amount?: number;
  status?: string;
}

/** The key of the status table: the status, qualified when a refund of an approved payment is still in process. */
export function stateOf(payment: MercadoPagoPayment): string {
  const status = payment.status ?? '';
  if (status === 'approved' && (payment.refunds ?? []).some((refund) => refund.status === 'in_process')) return 'approved/refund in_process';
  return status;
}

function describe(payment: MercadoPagoPayment): string {
  return `${payment.status ?? '(no status)'}/${payment.status_detail ?? '(no detail)'}`;
}

function networkCodes(payment: MercadoPagoPayment) {
  return {
    ...(payment.authorization_code ? { networkAuthorizationCode: redact(payment.authorization_code) } : {}),
    ...(payment.status_detail ? { networkResponseCode: payment.status_detail } : {}),
  };
}

/** A Pix's expiry: the answer's date_of_expiration, else what was asked. */
function expiryOf(payment: MercadoPagoPayment, fallback: Date): Date {
  const parsed = payment.date_of_expiration ? new Date(payment.date_of_expiration) : undefined;
  return parsed && !Number.isNaN(parsed.getTime()) ? parsed : fallback;
}

/** "Create payment" > Response -> our authorization result. */
export function fromPayment(payment: MercadoPagoPayment, context: { cvvSent: boolean; pixExpiresAt: Date }): AuthorizeResult {
  const transactionId = payment.id === undefined ? undefined : String(payment.id);
  if (!transactionId) return { status: 'declined', declinedCode: 'generic', message: 'Mercado Pago answered a payment without id' };
  switch (payment.status) {
    case 'approved':
      return { status: 'authorized', transactionId, captured: true, cvvChecked: context.cvvSent, ...networkCodes(payment) };
    case 'authorized':
      return { status: 'authorized', transactionId, captured: false, cvvChecked: context.cvvSent, ...networkCodes(payment) };
    case 'pending':
    case 'in_process': {
      const data = payment.point_of_interaction?.transaction_data;
      if (payment.payment_method_id === 'pix' && data?.qr_code) {
        return {
          status: 'pending',
          transactionId,
          pix: {
            qrCodeData: data.qr_code,
            qrCodeImageUrl: data.qr_code_base64 ? `data:image/png;base64,${data.qr_code_base64}` : (data.ticket_url ?? ''),
            expiresAt: expiryOf(payment, context.pixExpiresAt),
          },
        };
      }
      // Under review (pending_contingency, pending_review_manual) or waiting for a challenge: the status sync asks again.
      return { status: 'pending', transactionId };
    }
    case 'cancelled':
      return { status: 'canceled', transactionId, message: `Mercado Pago: ${describe(payment)}` };
    default: {
      const entry = declineOf(MERCADOPAGO_DECLINES, payment.status_detail);
      return {
        status: 'declined',
        declinedCode: entry.declinedCode,
        decision: entry.decision,
        transactionId,
        message: `Mercado Pago ${describe(payment)}: ${entry.meaning}`,
        ...networkCodes(payment),
      };
    }
  }
}

/** "Capture authorized payment" > Response: the payment approved (accredited) is the capture done. */
export function fromCapture(payment: MercadoPagoPayment, transactionId: string): OperationResult {
  if (payment.status === 'approved' && payment.captured !== false) return { status: 'success', transactionId, ...networkCodes(payment) };
  if (payment.status === 'authorized' || payment.status === 'in_process') return { status: 'pending', transactionId, message: `Mercado Pago: ${describe(payment)}` };
  return { status: 'failed', message: `Mercado Pago did not capture: ${describe(payment)}` };
}

/** "Cancellations" > Response: `status: cancelled` is the authorization (or the unpaid Pix) released. */
export function fromCancel(payment: MercadoPagoPayment, transactionId: string): OperationResult {
  if (payment.status === 'cancelled') return { status: 'success', transactionId };
  return { status: 'failed', message: `Mercado Pago did not cancel: ${describe(payment)}` };
}

/** "Refunds" > "Create refund" > Response: approved is done, in_process is settled later, the rest gave nothing back. */
export function fromRefund(refund: MercadoPagoRefund, transactionId: string): OperationResult {
  const refundId = refund.id === undefined ? transactionId : String(refund.id);
  if (refund.status === 'approved') return { status: 'success', transactionId: refundId };
  if (refund.status === 'in_process' || refund.status === 'authorized') return { status: 'pending', transactionId: refundId, message: `Mercado Pago refund ${refund.status}` };
  return { status: 'failed', message: `Mercado Pago did not refund: ${refund.status ?? '(no status)'}` };
}

/** "Get payment" > Response -> where the payment stands. */
export function toQueryResult(payment: MercadoPagoPayment): QueryResult {
  const mapped = statusOf(MERCADOPAGO_STATUS, stateOf(payment));
  const captured = payment.captured === true && (payment.status === 'approved' || payment.status === 'refunded' || payment.status === 'charged_back');
  const refunded = toCentavos(payment.transaction_amount_refunded);
  const amount = toCentavos(payment.transaction_amount);
  return {
    found: true,
    ...(mapped ? { status: mapped } : {}),
    providerStatus: describe(payment),
    ...(captured && amount > 0 ? { capturedAmount: amount } : {}),
    ...(captured && refunded > 0 ? { refundedAmount: refunded } : {}),
    ...(payment.status === 'rejected' ? { declinedCode: declineOf(MERCADOPAGO_DECLINES, payment.status_detail).declinedCode } : {}),
  };
}
