import Stripe from 'stripe';
import type { DeclinedCode } from '../../charges/domain/charge';
import { ProviderUnavailableError } from '../domain/types';
import { declineOf, type DeclineEntry } from '../kit/tables';
import { STRIPE_DECLINES, stripeAdvised } from './declineTable';

/**
 * What the official SDK throws (API reference "Errors": the error object `{type, code, decline_code, message,
 * param, payment_intent, ...}` and its HTTP status; the SDK's StripeError classes) -> a failure:
 * - `card_error` (402): the card or the issuer refused; `decline_code`/`code` through the decline table. A
 *   refusal after the PaymentIntent was made carries it (`payment_intent`), kept as the transaction.
 * - 401 (a wrong or revoked key: StripeAuthenticationError) and 403 (a restricted key without the permission:
 *   StripePermissionError): the credentials are refused, a final failure.
 * - `invalid_request_error` (400, 404): the request is wrong for Stripe (404 `resource_missing`: no such object);
 *   `idempotency_error`: the key was used with other parameters.
 * - No answer, a connection error, 409 (`lock_timeout`, a request with the same key still running), 429 (rate
 *   limit) and 5xx (`api_error`) are technical: ProviderUnavailableError, the charge fails over.
 *
 * Messages carry Stripe's type, code and message only, cut short and without anything that looks like a key, a
 * client secret or a card number (Stripe's 401 repeats the last characters of the key it refused: that message is
 * replaced, never passed on).
 */

export type StripeFailure =
  | { kind: 'card'; message: string; entry: DeclineEntry; code: string; paymentIntent?: Stripe.PaymentIntent; networkDeclineCode?: string }
  | { kind: 'credentials'; message: string }
  | { kind: 'not_found'; message: string }
  | { kind: 'request'; message: string; code?: string; declinedCode: DeclinedCode };

const SECRETS = /\b(?:sk|rk|pk|whsec)_[A-Za-z0-9_*]+|\bpi_[A-Za-z0-9]+_secret_[A-Za-z0-9]+|\d[\d -]{10,22}\d/g;

/** A text Stripe wrote, cut short and without anything that looks like a key, a client secret or a card number. */
export function redact(text: string): string {
  return text.replace(SECRETS, '[redacted]').slice(0, 200);
}

/** invalid_request_error codes that say the PaymentIntent or charge is not in a state for the operation. */
const STATE_CODES = new Set(['payment_intent_unexpected_state', 'charge_already_refunded', 'charge_already_captured', 'charge_not_refundable', 'charge_expired_for_capture']);
const AMOUNT_CODES = new Set(['amount_too_large', 'amount_too_small', 'parameter_invalid_integer']);

/** The failure an SDK error means; throws ProviderUnavailableError for the technical ones. */
export function failureOf(error: unknown): StripeFailure {
  if (error instanceof ProviderUnavailableError) throw error;
  if (!(error instanceof Stripe.errors.StripeError)) {
    throw new ProviderUnavailableError(`Stripe could not be reached: ${error instanceof Error ? error.name : 'unknown error'}`);
  }
  const status = error.statusCode;
  if (
    error instanceof Stripe.errors.StripeConnectionError ||
    error instanceof Stripe.errors.StripeAPIError ||
    error instanceof Stripe.errors.StripeRateLimitError ||
    status === undefined ||
    status === 409 ||
    status === 429 ||
    status >= 500
  ) {
    throw new ProviderUnavailableError(`Stripe did not take the request (${status === undefined ? error.type : `HTTP ${status}`}${error.code ? ` ${error.code}` : ''})`);
  }
  if (error instanceof Stripe.errors.StripeAuthenticationError || error instanceof Stripe.errors.StripePermissionError || status === 401 || status === 403) {
    return { kind: 'credentials', message: `Stripe refused the secret key (HTTP ${status})` };
  }
  const code = error.code ?? '';
  const text = redact(error.message ?? '');
  if (error instanceof Stripe.errors.StripeCardError || error.rawType === 'card_error') {
    const key = error.decline_code || code;
    const entry = stripeAdvised(declineOf(STRIPE_DECLINES, key), error);
    const paymentIntent = (error as { payment_intent?: Stripe.PaymentIntent }).payment_intent;
    return {
      kind: 'card',
      entry,
      code: key,
      message: `Stripe card_error ${code}${error.decline_code && error.decline_code !== code ? `/${error.decline_code}` : ''}: ${text || entry.meaning}`,
      ...(paymentIntent && typeof paymentIntent === 'object' ? { paymentIntent } : {}),
      ...(error.network_decline_code ? { networkDeclineCode: error.network_decline_code } : {}),
    };
  }
  if (status === 404 || code === 'resource_missing') return { kind: 'not_found', message: `Stripe does not know this object (${code || 'HTTP 404'})` };
  const declinedCode: DeclinedCode = STATE_CODES.has(code) ? 'transaction_not_allowed' : AMOUNT_CODES.has(code) ? 'invalid_amount' : 'invalid_data';
  return { kind: 'request', code: code || undefined, declinedCode, message: `Stripe ${error.rawType ?? 'invalid_request_error'}${code ? ` ${code}` : ''}: ${text}` };
}
