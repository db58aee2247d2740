import type Stripe from 'stripe';
import type { AuthorizeRequest, AuthorizeResult, NetworkCodes, OperationResult, QueryResult } from '../domain/types';
import { declineOf, statusOf } from '../kit/tables';
import { STRIPE_DECLINES, stripeAdvised } from './declineTable';
import { redact, type StripeFailure } from './errors';
import { STRIPE_STATUS } from './statusTable';

/**
 * Our requests -> Stripe's PaymentIntents and Refunds (API reference, "Payment Intents" and "Refunds"), and
 * Stripe's objects -> our results. The section of the reference each shape follows is named beside it.
 *
 * Amounts: Stripe takes and answers integers in the currency's smallest unit ("amount: Amount intended to be
 * collected ... in the smallest currency unit (e.g., 100 cents to charge $1.00)"), which are our minor units
 * (centavos for BRL): they pass through unchanged, never as decimals. Currencies go lowercase, as Stripe writes
 * them.
 */

/**
 * "Create a PaymentIntent" > `payment_method_data`: Stripe makes the PaymentMethod from it as it confirms. The
 * SDK's types leave out the raw card hash (`card[number]`, `card[exp_month]`, `card[exp_year]`, `card[cvc]`,
 * as "Create a PaymentMethod" takes it), which only accounts with raw card data APIs enabled may send; the type
 * adds it back.
 */
export type StripeIntentParams = Omit<Stripe.PaymentIntentCreateParams, 'payment_method_data'> & {
  payment_method_data: Stripe.PaymentIntentCreateParams.PaymentMethodData & { card?: Stripe.PaymentMethodCreateParams.Card };
};

/**
 * "Installments": Stripe documents card installments chosen by the merchant's request for Mexico ("Mexico
 * installments", `payment_method_options[card][installments][plan]`, fixed_count, monthly); Japan's plans are
 * chosen by the customer and Mastercard Installments by the card. Other currencies take no installments.
 */
export const STRIPE_INSTALLMENTS_CURRENCY = 'MXN';

/** "pix" > `expires_after_seconds`: between 10 and 1209600 seconds (14 days). */
export const STRIPE_PIX_EXPIRY_SECONDS = { min: 10, max: 1_209_600 } as const;

/**
 * `statement_descriptor_suffix` (card payments take a suffix after the account's prefix, 22 characters in all;
 * "at least one letter", none of `<`, `>`, `\`, `'`, `"`, `*`): latin letters, digits and spaces, 22 at most.
 */
export function descriptorSuffixOf(descriptor: string | undefined): string | undefined {
  if (!descriptor) return undefined;
  const plain = descriptor
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9 .-]/g, '')
    .trim()
    .slice(0, 22)
    .trim();
  return /[A-Za-z]/.test(plain) ? plain : undefined;
}

/**
 * Our authorization -> "Create a PaymentIntent" confirmed at once (`confirm=true`):
 * - a card (credit or debit: Stripe tells them apart by the card itself, `funding`) as `payment_method_data`
 *   of type `card`, `capture_method` `manual` for a pre-authorization or `automatic` for a capture at once;
 *   `error_on_requires_action=true`, so a card that asks for 3D Secure (which a server-side payment cannot show
 *   the shopper) is refused with `authentication_required` instead of waiting; installments (MXN only) as
 *   `payment_method_options[card][installments][plan]` (fixed_count, monthly);
 * - a Pix ("Pix payments", Direct API) as `payment_method_data` of type `pix`, BRL only, its QR code valid for
 *   the charge's `expiresIn` (`payment_method_options[pix][expires_after_seconds]`).
 * `expand[]=latest_charge` brings the card checks and the authorization code back in the same answer.
 */
export function toIntentParams(request: AuthorizeRequest): StripeIntentParams {
  const common = {
    amount: request.amount,
    currency: request.currency.toLowerCase(),
    confirm: true,
    metadata: { charge_id: request.chargeId, merchant_id: request.merchantId },
    expand: ['latest_charge'],
  };
  const billing = {
    ...(request.payer?.name ? { name: request.payer.name } : {}),
    ...(request.payer?.email ? { email: request.payer.email } : {}),
  };
  if (request.paymentType === 'pix') {
    const expiresIn = Math.min(STRIPE_PIX_EXPIRY_SECONDS.max, Math.max(STRIPE_PIX_EXPIRY_SECONDS.min, Math.round(request.pix?.expiresIn ?? 14_400)));
    const document = request.payer?.document;
    return {
      ...common,
      allowed_payment_method_types: ['pix'],
      payment_method_data: {
        type: 'pix',
        ...(Object.keys(billing).length > 0 || document ? { billing_details: { ...billing, ...(document ? { tax_id: document.number.replace(/\D/g, '') } : {}) } } : {}),
      },
      payment_method_options: { pix: { expires_after_seconds: expiresIn } },
    };
  }
  const card = request.card;
  if (!card) throw new Error('a card payment without card data');
  const suffix = descriptorSuffixOf(request.statementDescriptor);
  return {
    ...common,
    capture_method: request.capture ? 'automatic' : 'manual',
    allowed_payment_method_types: ['card'],
    error_on_requires_action: true,
    payment_method_data: {
      type: 'card',
      card: {
        number: card.number,
        exp_month: card.expirationMonth,
        exp_year: card.expirationYear,
        ...(card.cvv ? { cvc: card.cvv } : {}),
      },
      billing_details: { ...billing, name: card.holderName.trim() || billing.name || '' },
    },
    ...(request.installments > 1
      ? { payment_method_options: { card: { installments: { plan: { count: request.installments, interval: 'month' as const, type: 'fixed_count' as const } } } } }
      : {}),
    ...(suffix ? { statement_descriptor_suffix: suffix } : {}),
  };
}

/** The PaymentIntent's latest charge when it was expanded (`expand[]=latest_charge`). */
export function chargeOf(intent: Stripe.PaymentIntent): Stripe.Charge | undefined {
  const charge = intent.latest_charge;
  return charge && typeof charge === 'object' ? charge : undefined;
}

/** "The Charge object" > `payment_method_details.card.authorization_code`, and `outcome.network_decline_code`. */
function networkCodes(charge: Stripe.Charge | undefined): NetworkCodes {
  const card = charge?.payment_method_details?.card;
  return {
    ...(card?.authorization_code ? { networkAuthorizationCode: card.authorization_code } : {}),
    ...(charge?.outcome?.network_decline_code ? { networkResponseCode: charge.outcome.network_decline_code } : {}),
  };
}

/** The code a failed attempt left (`last_payment_error`): its decline code, else its code. */
function lastErrorCode(intent: Stripe.PaymentIntent): string | undefined {
  const error = intent.last_payment_error;
  if (!error) return undefined;
  return error.decline_code || error.code || undefined;
}

/** A confirmed PaymentIntent ("The PaymentIntent object") -> our authorization result. */
export function fromIntent(intent: Stripe.PaymentIntent): AuthorizeResult {
  const charge = chargeOf(intent);
  const transactionId = intent.id;
  switch (intent.status) {
    case 'requires_capture':
      return { status: 'authorized', transactionId, captured: false, cvvChecked: cvcPassed(charge), ...networkCodes(charge) };
    case 'succeeded':
      return { status: 'authorized', transactionId, captured: true, cvvChecked: cvcPassed(charge), ...networkCodes(charge) };
    case 'requires_action': {
      // "Pix payments" > Direct API: `next_action.pix_display_qr_code` (data: the BR Code; expires_at: Unix seconds).
      const pix = intent.next_action?.pix_display_qr_code;
      if (pix?.data) {
        return {
          status: 'pending',
          transactionId,
          pix: { qrCodeData: pix.data, qrCodeImageUrl: pix.image_url_png ?? '', expiresAt: new Date((pix.expires_at ?? 0) * 1000) },
        };
      }
      return { status: 'declined', declinedCode: 'security_violation', transactionId, message: 'Stripe asks for an action of the shopper (3D Secure) that a server-side payment cannot take' };
    }
    case 'processing':
    case 'requires_confirmation':
      return { status: 'pending', transactionId };
    case 'canceled':
      return { status: 'canceled', transactionId, message: `Stripe canceled the PaymentIntent${intent.cancellation_reason ? ` (${intent.cancellation_reason})` : ''}` };
    case 'requires_payment_method':
    default: {
      const code = lastErrorCode(intent);
      const entry = stripeAdvised(declineOf(STRIPE_DECLINES, code), intent.last_payment_error ?? {});
      const message = intent.last_payment_error?.message;
      return {
        status: 'declined',
        declinedCode: entry.declinedCode,
        decision: entry.decision,
        transactionId,
        message: `Stripe ${intent.status}: ${code ?? '(no code)'} ${message ? redact(message) : entry.meaning}`.trim(),
        ...networkCodes(charge),
      };
    }
  }
}

function cvcPassed(charge: Stripe.Charge | undefined): boolean {
  return charge?.payment_method_details?.card?.checks?.cvc_check === 'pass';
}

/** A card_error Stripe answered to the confirmation -> our decline (with the PaymentIntent it made, if any). */
export function fromCardFailure(failure: Extract<StripeFailure, { kind: 'card' }>): AuthorizeResult {
  return {
    status: 'declined',
    declinedCode: failure.entry.declinedCode,
    decision: failure.entry.decision,
    message: failure.message,
    ...(failure.paymentIntent?.id ? { transactionId: failure.paymentIntent.id } : {}),
    ...(failure.networkDeclineCode ? { networkResponseCode: failure.networkDeclineCode } : {}),
  };
}

/** "Capture a PaymentIntent" > Returns: `succeeded` is the capture done; `processing` is it taken and settling. */
export function fromCapture(intent: Stripe.PaymentIntent): OperationResult {
  if (intent.status === 'succeeded') return { status: 'success', transactionId: intent.id, ...networkCodes(chargeOf(intent)) };
  if (intent.status === 'processing') return { status: 'pending', transactionId: intent.id, message: 'Stripe is processing the capture' };
  return { status: 'failed', message: `Stripe did not capture: the PaymentIntent is ${intent.status}` };
}

/** "Cancel a PaymentIntent" > Returns: `canceled`. */
export function fromCancel(intent: Stripe.PaymentIntent): OperationResult {
  if (intent.status === 'canceled') return { status: 'success', transactionId: intent.id };
  return { status: 'failed', message: `Stripe did not cancel: the PaymentIntent is ${intent.status}` };
}

/**
 * "The Refund object" > status: `succeeded` done; `pending` and `requires_action` taken and settled later;
 * `failed` and `canceled` not done (`failure_reason`).
 */
export function fromRefund(refund: Stripe.Refund, transactionId: string): OperationResult {
  switch (refund.status) {
    case 'succeeded':
      return { status: 'success', transactionId };
    case 'pending':
    case 'requires_action':
      return { status: 'pending', transactionId, message: `Stripe refund ${refund.status}` };
    default:
      return { status: 'failed', message: `Stripe refund ${refund.status ?? 'unknown'}${refund.failure_reason ? `: ${refund.failure_reason}` : ''}` };
  }
}

/**
 * What a charge refunded, without what a partial capture released: Stripe counts the part of an authorization
 * that was not captured in the charge's `amount_refunded` ("Capture a PaymentIntent": the rest is refunded).
 */
export function refundedOf(charge: Stripe.Charge | undefined): number {
  if (!charge || !charge.captured) return 0;
  const released = charge.amount - charge.amount_captured;
  return Math.max(0, charge.amount_refunded - released);
}

/** The status table's key: the PaymentIntent's status with what qualifies it (statusTable.ts). */
export function stateOf(intent: Stripe.PaymentIntent): string {
  const charge = chargeOf(intent);
  if (intent.status === 'requires_payment_method' && intent.last_payment_error) return 'requires_payment_method/declined';
  if (intent.status === 'succeeded' && charge && charge.amount_captured > 0 && refundedOf(charge) >= charge.amount_captured) return 'succeeded/refunded';
  if (intent.status === 'canceled' && !intent.latest_charge) return 'canceled/unpaid';
  return intent.status;
}

/** "Retrieve a PaymentIntent" (with its latest charge) -> where the transaction stands. */
export function toQueryResult(intent: Stripe.PaymentIntent): QueryResult {
  const state = stateOf(intent);
  const mapped = statusOf(STRIPE_STATUS, state);
  const charge = chargeOf(intent);
  const captured = intent.status === 'succeeded' ? intent.amount_received : 0;
  const refunded = refundedOf(charge);
  const code = lastErrorCode(intent);
  return {
    found: true,
    ...(mapped ? { status: mapped } : {}),
    providerStatus: `${state}${code ? ` (${code})` : ''}`,
    ...(captured > 0 ? { capturedAmount: captured } : {}),
    ...(refunded > 0 ? { refundedAmount: refunded } : {}),
    ...(state === 'requires_payment_method/declined' ? { declinedCode: declineOf(STRIPE_DECLINES, code).declinedCode } : {}),
  };
}
