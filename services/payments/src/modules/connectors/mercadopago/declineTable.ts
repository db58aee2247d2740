import type { DeclinedCode } from '../../charges/domain/charge';
import type { DeclineDecision, DeclineEntry, DeclineTable } from '../kit/tables';

/**
 * The `status_detail` of a `rejected` payment (Mercado Pago's "Payment creation results" / "Get payment status"
 * tables, every rejected detail they list, Brazil's cc_rejected_card_type_not_allowed included) -> our
 * declinedCode, and the decision it leads to (then the charge moves on to its next provider). Only a failure that
 * is not the issuer's or the payer's answer is technical: the bank's error on a transfer and Mercado Pago's own cap
 * on the payment method. A detail not in the table is a final, generic decline.
 *
 * Each entry's decision (kit/tables.ts): retry_other_provider for a technical or soft decline another acquirer may
 * approve, do_not_retry for a hard one (and every code the brands mark IRREVERSIBLE or "do not try again"),
 * retry_later for insufficient funds.
 */
const e = (declinedCode: DeclinedCode, decision: DeclineDecision, meaning: string): DeclineEntry => ({ declinedCode, decision, meaning });

export const MERCADOPAGO_DECLINES: DeclineTable = {
  bank_error: e('issuer_not_available', 'retry_other_provider', 'The payment (a bank transfer) was rejected due to an error with the bank'),
  cc_rejected_3ds_challenge: e('security_violation', 'do_not_retry', 'Rejected for not passing the 3DS challenge'),
  cc_rejected_3ds_mandatory: e('transaction_not_allowed', 'do_not_retry', 'Rejected for not having a 3DS challenge when it is mandatory'),
  cc_rejected_bad_filled_card_number: e('invalid_number', 'do_not_retry', 'Check card number'),
  cc_rejected_bad_filled_date: e('expired_card', 'do_not_retry', 'Check expiration date'),
  cc_rejected_bad_filled_other: e('invalid_data', 'do_not_retry', 'Check data'),
  cc_rejected_bad_filled_security_code: e('invalid_cvv', 'do_not_retry', 'Check card security code'),
  cc_rejected_blacklist: e('restricted_card', 'do_not_retry', "Your payment couldn't be processed (the card is on the blacklist)"),
  cc_rejected_call_for_authorize: e('generic', 'retry_other_provider', 'The payer must authorize the payment with the card issuer'),
  cc_rejected_card_disabled: e('restricted_card', 'do_not_retry', 'The card is disabled: the payer must call the issuer to activate it'),
  cc_rejected_card_error: e('generic', 'retry_other_provider', "Your payment couldn't be processed (card error)"),
  cc_rejected_duplicated_payment: e('transaction_not_allowed', 'do_not_retry', 'A payment of that value was already made'),
  cc_rejected_high_risk: e('fraud_suspect', 'do_not_retry', 'Rejected by the risk analysis'),
  cc_rejected_insufficient_amount: e('insufficient_funds', 'retry_later', 'The card does not have enough funds'),
  cc_rejected_invalid_installments: e('invalid_installment', 'do_not_retry', 'The card does not process payments in these installments'),
  cc_rejected_max_attempts: e('pin_try_exceeded', 'do_not_retry', 'The allowed attempt limit was reached'),
  cc_rejected_other_reason: e('generic', 'retry_other_provider', 'The card issuer did not process the payment'),
  cc_rejected_card_type_not_allowed: e('card_not_supported', 'retry_other_provider', 'The credit function is not enabled on the multiple (debit and credit) card'),
  cc_amount_rate_limit_exceeded: e('try_again', 'retry_other_provider', "Exceeded the payment method's limit (CAP, maximum allowed capacity) at Mercado Pago"),
  rejected_insufficient_data: e('invalid_data', 'do_not_retry', 'Rejected for lack of required information in the payment'),
  rejected_by_bank: e('generic', 'retry_other_provider', 'Operation rejected by the bank'),
  rejected_by_regulations: e('not_permitted', 'do_not_retry', 'Payment rejected by regulations'),
  insufficient_amount: e('insufficient_funds', 'retry_later', 'Payment rejected due to insufficient amount'),
};
