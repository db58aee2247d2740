import type { DeclinedCode } from '../../charges/domain/charge';
import type { DeclineDecision, DeclineEntry } from '../kit/tables';

/**
 * The SANDBOX provider declines with our own declinedCode (the card's magic digits, sandbox.ts); each gets its
 * decision here, as a real connector's table gives its codes. try_again and issuer_not_available are the soft
 * declines another provider may approve; insufficient_funds waits; the others are hard declines.
 */
const e = (declinedCode: DeclinedCode, decision: DeclineDecision, meaning: string): DeclineEntry => ({ declinedCode, decision, meaning });

export const SANDBOX_DECLINES: Readonly<Record<DeclinedCode, DeclineEntry>> = {
  card_not_supported: e('card_not_supported', 'retry_other_provider', 'The provider does not take this card'),
  expired_card: e('expired_card', 'do_not_retry', 'The card has expired'),
  fraud_confirmed: e('fraud_confirmed', 'do_not_retry', 'Confirmed fraud'),
  fraud_suspect: e('fraud_suspect', 'do_not_retry', 'Suspected fraud'),
  generic: e('generic', 'do_not_retry', 'Declined, no reason given'),
  insufficient_funds: e('insufficient_funds', 'retry_later', 'Insufficient funds'),
  invalid_amount: e('invalid_amount', 'do_not_retry', 'Invalid amount'),
  invalid_cvv: e('invalid_cvv', 'do_not_retry', 'Invalid security code'),
  invalid_data: e('invalid_data', 'do_not_retry', 'Invalid data'),
  invalid_installment: e('invalid_installment', 'do_not_retry', 'Invalid installments'),
  invalid_merchant: e('invalid_merchant', 'retry_other_provider', 'The merchant is not valid at this provider'),
  invalid_number: e('invalid_number', 'do_not_retry', 'Invalid card number'),
  invalid_pin: e('invalid_pin', 'do_not_retry', 'Invalid PIN'),
  issuer_not_available: e('issuer_not_available', 'retry_other_provider', 'The issuer could not be reached'),
  lost_card: e('lost_card', 'do_not_retry', 'Lost card'),
  not_permitted: e('not_permitted', 'do_not_retry', 'Not permitted'),
  pickup_card: e('pickup_card', 'do_not_retry', 'Pick up the card'),
  pin_try_exceeded: e('pin_try_exceeded', 'do_not_retry', 'PIN tries exceeded'),
  restricted_card: e('restricted_card', 'do_not_retry', 'Restricted card'),
  security_violation: e('security_violation', 'do_not_retry', 'Security violation'),
  service_not_allowed: e('service_not_allowed', 'do_not_retry', 'Service not allowed'),
  stolen_card: e('stolen_card', 'do_not_retry', 'Stolen card'),
  transaction_not_allowed: e('transaction_not_allowed', 'do_not_retry', 'Transaction not allowed'),
  try_again: e('try_again', 'retry_other_provider', 'Try again: the provider could not decide'),
};
