import type { DeclinedCode } from '../../charges/domain/charge';
import { withAdviceCode, type DeclineDecision, type DeclineEntry, type DeclineTable } from '../kit/tables';

/**
 * Why Stripe did not take a payment -> our declinedCode, and the decision it leads to (the issuer or Stripe could
 * not decide: the charge moves on to its next provider).
 *
 * The key is the card error's `decline_code` when Stripe gives one (documentation "Decline codes": every code of
 * the list, with its "next steps"), else its `code` ("Error codes": the card errors that come without a decline
 * code, and the PaymentIntent errors that end an attempt). The codes whose next step is "the payment should be
 * attempted again" are technical; the others are the issuer's or Stripe's business answer and final.
 *
 * Each entry's decision (kit/tables.ts): retry_other_provider for a technical or soft decline another acquirer may
 * approve, do_not_retry for a hard one (and every code the brands mark IRREVERSIBLE or "do not try again"),
 * retry_later for insufficient funds.
 */

const e = (declinedCode: DeclinedCode, decision: DeclineDecision, meaning: string): DeclineEntry => ({ declinedCode, decision, meaning });

export const STRIPE_DECLINES: DeclineTable = {
  // "Decline codes".
  approve_with_id: e('try_again', 'retry_other_provider', "The payment can't be authorized: attempt it again"),
  authentication_required: e('security_violation', 'do_not_retry', 'The card was declined as the transaction requires authentication (3D Secure)'),
  call_issuer: e('generic', 'retry_other_provider', 'The card was declined for an unknown reason: the customer contacts the issuer'),
  card_not_supported: e('card_not_supported', 'retry_other_provider', "The card doesn't support this type of purchase"),
  card_velocity_exceeded: e('insufficient_funds', 'retry_later', 'The customer exceeded the balance, credit limit or transaction amount limit of the card'),
  currency_not_supported: e('card_not_supported', 'retry_other_provider', "The card doesn't support the specified currency"),
  do_not_honor: e('generic', 'retry_other_provider', 'The card was declined for an unknown reason'),
  do_not_try_again: e('not_permitted', 'do_not_retry', 'The card was declined for an unknown reason: do not attempt it again'),
  duplicate_transaction: e('transaction_not_allowed', 'do_not_retry', 'A transaction with identical amount and card was submitted very recently'),
  expired_card: e('expired_card', 'do_not_retry', 'The card has expired'),
  fraudulent: e('fraud_suspect', 'do_not_retry', 'The payment was declined because Stripe or the issuer suspects it is fraudulent'),
  generic_decline: e('generic', 'retry_other_provider', 'The card was declined for an unknown reason'),
  incorrect_number: e('invalid_number', 'do_not_retry', 'The card number is incorrect'),
  incorrect_cvc: e('invalid_cvv', 'do_not_retry', 'The CVC number is incorrect'),
  incorrect_pin: e('invalid_pin', 'do_not_retry', 'The PIN entered is incorrect (card readers)'),
  incorrect_zip: e('invalid_data', 'do_not_retry', 'The postal code is incorrect'),
  insufficient_funds: e('insufficient_funds', 'retry_later', 'The card has insufficient funds to complete the purchase'),
  invalid_account: e('restricted_card', 'do_not_retry', 'The card, or the account the card is connected to, is invalid'),
  invalid_amount: e('invalid_amount', 'do_not_retry', 'The payment amount is invalid, or exceeds the amount allowed'),
  invalid_cvc: e('invalid_cvv', 'do_not_retry', 'The CVC number is invalid'),
  invalid_expiry_month: e('invalid_data', 'do_not_retry', 'The expiration month is invalid'),
  invalid_expiry_year: e('invalid_data', 'do_not_retry', 'The expiration year is invalid'),
  invalid_number: e('invalid_number', 'do_not_retry', 'The card number is invalid'),
  invalid_pin: e('invalid_pin', 'do_not_retry', 'The PIN entered is incorrect (card readers)'),
  issuer_not_available: e('issuer_not_available', 'retry_other_provider', "The card issuer couldn't be reached: attempt the payment again"),
  lost_card: e('lost_card', 'do_not_retry', 'The card was reported lost'),
  merchant_blacklist: e('transaction_not_allowed', 'do_not_retry', "The payment matches a value on the Stripe user's block list"),
  new_account_information_available: e('restricted_card', 'do_not_retry', 'The card, or the account it is connected to, is invalid: new account information is available'),
  no_action_taken: e('generic', 'retry_other_provider', 'The card was declined for an unknown reason'),
  not_permitted: e('not_permitted', 'do_not_retry', 'The payment is not permitted'),
  offline_pin_required: e('invalid_pin', 'do_not_retry', 'The card was declined because it requires a PIN'),
  online_or_offline_pin_required: e('invalid_pin', 'do_not_retry', 'The card was declined because it requires a PIN'),
  pickup_card: e('pickup_card', 'do_not_retry', "The customer can't use this card (it may be reported lost or stolen)"),
  pin_try_exceeded: e('pin_try_exceeded', 'do_not_retry', 'The allowable number of PIN tries was exceeded'),
  processing_error: e('try_again', 'retry_other_provider', 'An error occurred while processing the card: attempt the payment again'),
  reenter_transaction: e('try_again', 'retry_other_provider', "The payment couldn't be processed by the issuer for an unknown reason: attempt it again"),
  restricted_card: e('restricted_card', 'do_not_retry', "The customer can't use this card (it may be reported lost or stolen)"),
  revocation_of_all_authorizations: e('service_not_allowed', 'do_not_retry', 'The card was declined for an unknown reason (all recurring authorizations revoked)'),
  revocation_of_authorization: e('service_not_allowed', 'do_not_retry', 'The card was declined for an unknown reason (the recurring authorization was revoked)'),
  security_violation: e('security_violation', 'do_not_retry', 'The card was declined for an unknown reason (security violation)'),
  service_not_allowed: e('service_not_allowed', 'do_not_retry', 'The card was declined for an unknown reason (service not allowed)'),
  stolen_card: e('stolen_card', 'do_not_retry', 'The card was reported stolen'),
  stop_payment_order: e('service_not_allowed', 'do_not_retry', 'The card was declined for an unknown reason (stop payment order)'),
  testmode_decline: e('invalid_number', 'do_not_retry', 'A Stripe test card number was used in live mode'),
  transaction_not_allowed: e('transaction_not_allowed', 'do_not_retry', 'The card was declined for an unknown reason (transaction not allowed)'),
  try_again_later: e('try_again', 'retry_other_provider', 'The card was declined for an unknown reason: attempt the payment again'),
  withdrawal_count_limit_exceeded: e('insufficient_funds', 'retry_later', 'The customer exceeded the balance or credit limit available on the card'),
  // "Error codes" of card errors without a decline code, and of failed PaymentIntent attempts.
  card_declined: e('generic', 'retry_other_provider', 'The card has been declined'),
  card_decline_rate_limit_exceeded: e('not_permitted', 'do_not_retry', 'The card was declined too many times in the last 24 hours'),
  test_mode_live_card: e('invalid_number', 'do_not_retry', 'A live card was used in test mode'),
  payment_intent_authentication_failure: e('security_violation', 'do_not_retry', 'The payment method failed authentication'),
  payment_intent_payment_attempt_expired: e('generic', 'retry_other_provider', 'The payment attempt expired before it was completed (a Pix not paid in time)'),
  payment_intent_payment_attempt_failed: e('generic', 'retry_other_provider', 'The latest payment attempt of the PaymentIntent failed'),
};

/**
 * Stripe's `advice_code` on an issuer decline (documentation "Card declines", "Retrying issuer declines") -> the
 * decision it forces: `do_not_try_again` and `confirm_card_data` (the same data will be declined again) never
 * retry; `try_again_later` waits. The `network_advice_code` (Mastercard's merchant advice code, two digits) is read
 * after it, and its 03 and 21 always end in do_not_retry (kit/tables.ts withAdviceCode).
 */
export const STRIPE_ADVICE_DECISIONS: Readonly<Record<string, DeclineDecision>> = {
  do_not_try_again: 'do_not_retry',
  confirm_card_data: 'do_not_retry',
  try_again_later: 'retry_later',
};

/** The entry of a Stripe decline once its advice codes are read. */
export function stripeAdvised(entry: DeclineEntry, advice: { advice_code?: string | null; network_advice_code?: string | null }): DeclineEntry {
  const decision = advice.advice_code ? STRIPE_ADVICE_DECISIONS[advice.advice_code] : undefined;
  const advised = decision && decision !== entry.decision ? { ...entry, decision, meaning: `${entry.meaning}; Stripe advice ${advice.advice_code}` } : entry;
  return withAdviceCode(advised, advice.network_advice_code);
}
