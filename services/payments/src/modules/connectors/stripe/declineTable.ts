import type { DeclinedCode } from '../../charges/domain/charge';
import type { DeclineEntry, DeclineTable } from '../kit/tables';

/**
 * Why Stripe did not take a payment -> our declinedCode, and whether it is technical (the issuer or Stripe could
 * not decide: the charge moves on to its next provider).
 *
 * The key is the card error's `decline_code` when Stripe gives one (documentation "Decline codes": every code of
 * the list, with its "next steps"), else its `code` ("Error codes": the card errors that come without a decline
 * code, and the PaymentIntent errors that end an attempt). The codes whose next step is "the payment should be
 * attempted again" are technical; the others are the issuer's or Stripe's business answer and final.
 */

const e = (declinedCode: DeclinedCode, technical: boolean, meaning: string): DeclineEntry => ({ declinedCode, technical, meaning });

export const STRIPE_DECLINES: DeclineTable = {
  // "Decline codes".
  approve_with_id: e('try_again', true, "The payment can't be authorized: attempt it again"),
  authentication_required: e('security_violation', false, 'The card was declined as the transaction requires authentication (3D Secure)'),
  call_issuer: e('generic', false, 'The card was declined for an unknown reason: the customer contacts the issuer'),
  card_not_supported: e('card_not_supported', false, "The card doesn't support this type of purchase"),
  card_velocity_exceeded: e('insufficient_funds', false, 'The customer exceeded the balance, credit limit or transaction amount limit of the card'),
  currency_not_supported: e('card_not_supported', false, "The card doesn't support the specified currency"),
  do_not_honor: e('generic', false, 'The card was declined for an unknown reason'),
  do_not_try_again: e('not_permitted', false, 'The card was declined for an unknown reason: do not attempt it again'),
  duplicate_transaction: e('transaction_not_allowed', false, 'A transaction with identical amount and card was submitted very recently'),
  expired_card: e('expired_card', false, 'The card has expired'),
  fraudulent: e('fraud_suspect', false, 'The payment was declined because Stripe or the issuer suspects it is fraudulent'),
  generic_decline: e('generic', false, 'The card was declined for an unknown reason'),
  incorrect_number: e('invalid_number', false, 'The card number is incorrect'),
  incorrect_cvc: e('invalid_cvv', false, 'The CVC number is incorrect'),
  incorrect_pin: e('invalid_pin', false, 'The PIN entered is incorrect (card readers)'),
  incorrect_zip: e('invalid_data', false, 'The postal code is incorrect'),
  insufficient_funds: e('insufficient_funds', false, 'The card has insufficient funds to complete the purchase'),
  invalid_account: e('restricted_card', false, 'The card, or the account the card is connected to, is invalid'),
  invalid_amount: e('invalid_amount', false, 'The payment amount is invalid, or exceeds the amount allowed'),
  invalid_cvc: e('invalid_cvv', false, 'The CVC number is invalid'),
  invalid_expiry_month: e('invalid_data', false, 'The expiration month is invalid'),
  invalid_expiry_year: e('invalid_data', false, 'The expiration year is invalid'),
  invalid_number: e('invalid_number', false, 'The card number is invalid'),
  invalid_pin: e('invalid_pin', false, 'The PIN entered is incorrect (card readers)'),
  issuer_not_available: e('issuer_not_available', true, "The card issuer couldn't be reached: attempt the payment again"),
  lost_card: e('lost_card', false, 'The card was reported lost'),
  merchant_blacklist: e('transaction_not_allowed', false, "The payment matches a value on the Stripe user's block list"),
  new_account_information_available: e('restricted_card', false, 'The card, or the account it is connected to, is invalid: new account information is available'),
  no_action_taken: e('generic', false, 'The card was declined for an unknown reason'),
  not_permitted: e('not_permitted', false, 'The payment is not permitted'),
  offline_pin_required: e('invalid_pin', false, 'The card was declined because it requires a PIN'),
  online_or_offline_pin_required: e('invalid_pin', false, 'The card was declined because it requires a PIN'),
  pickup_card: e('pickup_card', false, "The customer can't use this card (it may be reported lost or stolen)"),
  pin_try_exceeded: e('pin_try_exceeded', false, 'The allowable number of PIN tries was exceeded'),
  processing_error: e('try_again', true, 'An error occurred while processing the card: attempt the payment again'),
  reenter_transaction: e('try_again', true, "The payment couldn't be processed by the issuer for an unknown reason: attempt it again"),
  restricted_card: e('restricted_card', false, "The customer can't use this card (it may be reported lost or stolen)"),
  revocation_of_all_authorizations: e('service_not_allowed', false, 'The card was declined for an unknown reason (all recurring authorizations revoked)'),
  revocation_of_authorization: e('service_not_allowed', false, 'The card was declined for an unknown reason (the recurring authorization was revoked)'),
  security_violation: e('security_violation', false, 'The card was declined for an unknown reason (security violation)'),
  service_not_allowed: e('service_not_allowed', false, 'The card was declined for an unknown reason (service not allowed)'),
  stolen_card: e('stolen_card', false, 'The card was reported stolen'),
  stop_payment_order: e('service_not_allowed', false, 'The card was declined for an unknown reason (stop payment order)'),
  testmode_decline: e('invalid_number', false, 'A Stripe test card number was used in live mode'),
  transaction_not_allowed: e('transaction_not_allowed', false, 'The card was declined for an unknown reason (transaction not allowed)'),
  try_again_later: e('try_again', true, 'The card was declined for an unknown reason: attempt the payment again'),
  withdrawal_count_limit_exceeded: e('insufficient_funds', false, 'The customer exceeded the balance or credit limit available on the card'),
  // "Error codes" of card errors without a decline code, and of failed PaymentIntent attempts.
  card_declined: e('generic', false, 'The card has been declined'),
  card_decline_rate_limit_exceeded: e('not_permitted', false, 'The card was declined too many times in the last 24 hours'),
  test_mode_live_card: e('invalid_number', false, 'A live card was used in test mode'),
  payment_intent_authentication_failure: e('security_violation', false, 'The payment method failed authentication'),
  payment_intent_payment_attempt_expired: e('generic', false, 'The payment attempt expired before it was completed (a Pix not paid in time)'),
  payment_intent_payment_attempt_failed: e('generic', false, 'The latest payment attempt of the PaymentIntent failed'),
};
