import { createHash, type KeyObject } from 'node:crypto';
import { Types } from '@adyen/api-library';
import type { AuthorizeRequest, AuthorizeResult, OperationRequest, OperationResult } from '../domain/types';
import { declineOf, statusOf, withAdviceCode } from '../kit/tables';
import { ADYEN_DECLINES } from './declineTable';
import { encryptField } from './encryption';
import { ADYEN_RESULT_CODES } from './statusTable';

/**
 * Adyen Checkout API v72's wire format (manual sections named beside each function). Amounts: Adyen's
 * `amount.value` is an integer in the currency's minor units (centavos for BRL), like ours, so no conversion
 * happens anywhere in this connector.
 */

type PaymentRequest = Types.checkout.PaymentRequest;
type PaymentResponse = Types.checkout.PaymentResponse;

/** "reference": at most 80 characters. */
const REFERENCE_LENGTH = 80;
/** "shopperStatement": at most 22 characters recommended; a-z, A-Z, 0-9, spaces and . , ' _ - ? + * /. */
const STATEMENT_LENGTH = 22;
/**
 * The payment's `reference` names the charge, and for a pre-authorization also that it is held: "reference" lets
 * several references be joined by hyphens, and the AUTHORISATION notification of a payment that was `Received`
 * carries it (signed) as `merchantReference`, so its reader knows whether the authorisation was captured at once.
 */
export const HELD_REFERENCE_SUFFIX = '-preauth';

/** The Idempotency-Key header: at most 64 characters. */
const IDEMPOTENCY_KEY_LENGTH = 64;

/** "API idempotency": the attempt's key as Adyen's Idempotency-Key (its SHA-256 when longer than Adyen takes). */
export function idempotencyKeyOf(key: string): string {
  return key.length <= IDEMPOTENCY_KEY_LENGTH ? key : createHash('sha256').update(key).digest('hex');
}

export interface PaymentContext {
  merchantAccount: string;
  /** Where a shopper would come back after a redirect (required by /payments; no redirect flow is started here). */
  returnUrl: string;
  /** The entry takes encrypted card fields: the merchant's client encryption key and the time they are made at. */
  encryption?: { key: KeyObject; now: Date };
}

type CardFields = Pick<Types.checkout.CardDetails, 'number' | 'expiryMonth' | 'expiryYear' | 'cvc' | 'encryptedCardNumber' | 'encryptedExpiryMonth' | 'encryptedExpiryYear' | 'encryptedSecurityCode'>;

/**
 * The card's fields: raw ("Raw card data": number, expiryMonth, expiryYear, cvc; the merchant account needs the API
 * PCI role), or encrypted with the merchant's client encryption key (encryptedCardNumber, encryptedExpiryMonth,
 * encryptedExpiryYear, encryptedSecurityCode; see encryption.ts) when the entry says so.
 */
function cardFields(card: NonNullable<AuthorizeRequest['card']>, encryption: PaymentContext['encryption']): CardFields {
  const expiryMonth = String(card.expirationMonth).padStart(2, '0');
  const expiryYear = String(card.expirationYear);
  if (!encryption) return { number: card.number, expiryMonth, expiryYear, ...(card.cvv ? { cvc: card.cvv } : {}) };
  const { key, now } = encryption;
  return {
    encryptedCardNumber: encryptField(key, 'number', card.number, now),
    encryptedExpiryMonth: encryptField(key, 'expiryMonth', expiryMonth, now),
    encryptedExpiryYear: encryptField(key, 'expiryYear', expiryYear, now),
    ...(card.cvv ? { encryptedSecurityCode: encryptField(key, 'cvc', card.cvv, now) } : {}),
  };
}

/**
 * "Make a payment" (POST /payments) with a card (`paymentMethod.type` scheme, its fields raw or encrypted as the
 * entry says, and holderName). Capture ("Capture"):
 * a pre-authorization asks `additionalData.manualCapture` "true"; a charge captured at once asks
 * `captureDelayHours` 0 (immediate automatic capture), whatever the account's default delay.
 */
export function toPaymentRequest(request: AuthorizeRequest, context: PaymentContext): PaymentRequest {
  const card = request.card!;
  const statement = request.statementDescriptor?.replace(/[^A-Za-z0-9 .,'_\-?+*/]/g, '').trim().slice(0, STATEMENT_LENGTH);
  const document = request.payer?.document;
  const body: PaymentRequest = {
    amount: { currency: request.currency, value: request.amount },
    reference: `${request.chargeId.slice(0, REFERENCE_LENGTH - HELD_REFERENCE_SUFFIX.length)}${request.capture ? '' : HELD_REFERENCE_SUFFIX}`,
    merchantAccount: context.merchantAccount,
    returnUrl: context.returnUrl,
    shopperInteraction: Types.checkout.PaymentRequest.ShopperInteractionEnum.Ecommerce,
    paymentMethod: {
      type: Types.checkout.CardDetails.TypeEnum.Scheme,
      ...cardFields(card, context.encryption),
      holderName: card.holderName,
      ...(request.paymentType === 'debit' ? { fundingSource: Types.checkout.CardDetails.FundingSourceEnum.Debit } : {}),
    },
    ...(request.capture ? { captureDelayHours: 0 } : { additionalData: { manualCapture: 'true' } }),
    // "Credit card installments" (Brazil): the number of installments.
    ...(request.paymentType === 'credit' && request.installments > 1 ? { installments: { value: request.installments } } : {}),
    ...(statement ? { shopperStatement: statement } : {}),
    ...(request.payer?.email ? { shopperEmail: request.payer.email } : {}),
    // "socialSecurityNumber": the shopper's CPF or CNPJ in Brazil.
    ...(document && (document.type === 'cpf' || document.type === 'cnpj') ? { socialSecurityNumber: document.number } : {}),
  };
  return body;
}

/** A decline from a refusalReasonCode: our code, and Adyen's reason and meaning as the message. */
export function declinedFrom(response: Pick<PaymentResponse, 'pspReference' | 'refusalReason' | 'refusalReasonCode' | 'resultCode' | 'additionalData'>): AuthorizeResult {
  const code = response.refusalReasonCode;
  // additionalData.merchantAdviceCode: the Mastercard issuer's advice ("01: New account information available"),
  // read by its two leading digits; 03 and 21 forbid any retry.
  const advice = /^\s*(\d{1,2})/.exec(response.additionalData?.['merchantAdviceCode'] ?? '')?.[1];
  const decline = withAdviceCode(declineOf(ADYEN_DECLINES, code), advice);
  return {
    status: 'declined',
    declinedCode: decline.declinedCode,
    decision: decline.decision,
    message: `Adyen ${response.resultCode ?? 'Refused'} ${code ?? '(no code)'}: ${decline.meaning}`,
    ...(response.pspReference ? { transactionId: response.pspReference } : {}),
    ...(code !== undefined ? { networkResponseCode: String(code) } : {}),
  };
}

/**
 * "Make a payment", the answer: `resultCode` (statusTable.ts), `pspReference` (the payment's id, used for every
 * modification), `refusalReasonCode` on a refusal, `additionalData.authCode` when the account returns it.
 * A shopper action (RedirectShopper, IdentifyShopper, ChallengeShopper, PresentToShopper) is a decline: this
 * connector runs no 3D Secure or redirect flow, and the payment stays unfinished at Adyen, which expires it.
 */
export function fromPaymentResponse(response: PaymentResponse, request: AuthorizeRequest): AuthorizeResult {
  const resultCode = response.resultCode;
  const status = statusOf(ADYEN_RESULT_CODES, resultCode);
  const pspReference = response.pspReference;
  if (status === 'authorized' && pspReference) {
    const authCode = response.additionalData?.authCode;
    return {
      status: 'authorized',
      transactionId: pspReference,
      captured: request.capture,
      cvvChecked: Boolean(request.card?.cvv),
      ...(authCode ? { networkAuthorizationCode: authCode } : {}),
    };
  }
  if (status === 'pending' && pspReference) return { status: 'pending', transactionId: pspReference };
  if (status === 'canceled') {
    return { status: 'canceled', ...(pspReference ? { transactionId: pspReference } : {}), message: `Adyen ${resultCode}: the payment was cancelled` };
  }
  if (status === 'failed') return declinedFrom(response);
  return {
    status: 'declined',
    declinedCode: 'not_permitted',
    decision: 'do_not_retry',
    message: `Adyen ${resultCode ?? '(no resultCode)'}: the payment needs a shopper action this connector does not run`,
    ...(pspReference ? { transactionId: pspReference } : {}),
  };
}

/** "Capture an authorised payment" (POST /payments/{pspReference}/captures): the amount, whole or in part. */
export function toCaptureRequest(request: OperationRequest, merchantAccount: string): Types.checkout.PaymentCaptureRequest {
  return { amount: { currency: request.currency, value: request.amount }, merchantAccount, reference: request.chargeId.slice(0, REFERENCE_LENGTH) };
}

/** "Cancel an authorised payment" (POST /payments/{pspReference}/cancels): the whole authorisation. */
export function toCancelRequest(request: OperationRequest, merchantAccount: string): Types.checkout.PaymentCancelRequest {
  return { merchantAccount, reference: request.chargeId.slice(0, REFERENCE_LENGTH) };
}

/** "Refund a captured payment" (POST /payments/{pspReference}/refunds): the amount, whole or in part. */
export function toRefundRequest(request: OperationRequest, merchantAccount: string): Types.checkout.PaymentRefundRequest {
  return { amount: { currency: request.currency, value: request.amount }, merchantAccount, reference: request.chargeId.slice(0, REFERENCE_LENGTH) };
}

/**
 * The answer of a capture, cancellation or refund: `status` "received" (the only value v72 documents) with the
 * modification's own `pspReference`. Adyen settles it later and tells how in a CAPTURE, CANCELLATION or REFUND
 * notification, so the operation is pending until then (notifications.ts).
 */
export function fromModificationResponse(response: { status?: string; pspReference?: string }, what: string): OperationResult {
  if (response.status === 'received' && response.pspReference) {
    return { status: 'pending', transactionId: response.pspReference, message: `Adyen received the ${what} (${response.pspReference}); its notification settles it` };
  }
  return { status: 'failed', message: `Adyen answered the ${what} with status ${String(response.status ?? '(none)').slice(0, 40)}` };
}
