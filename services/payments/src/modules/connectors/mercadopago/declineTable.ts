import type { DeclinedCode } from '../../charges/domain/charge';
import type { DeclineEntry, DeclineTable } from '../kit/tables';

/**
 * The `status_detail` of a `rejected` payment (Mercado Pago's "Payment creation results" / "Get payment status"
 * tables, every rejected detail they list, Brazil's cc_rejected_card_type_not_allowed included) -> our
 * declinedCode, and whether it is technical (then the charge moves on to its next provider). Only a failure that
 * is not the issuer's or the payer's answer is technical: the bank's error on a transfer and Mercado Pago's own cap
 * on the payment method. A detail not in the table is a final, generic decline.
 */
const e = (declinedCode: DeclinedCode, technical: boolean, meaning: string): DeclineEntry => ({ declinedCode, technical, meaning });

export const MERCADOPAGO_DECLINES: DeclineTable = {
  bank_error: e('issuer_not_available', true, 'The payment (a bank transfer) was rejected due to an error with the bank'),
  cc_rejected_3ds_challenge: e('security_violation', false, 'Rejected for not passing the 3DS challenge'),
  cc_rejected_3ds_mandatory: e('transaction_not_allowed', false, 'Rejected for not having a 3DS challenge when it is mandatory'),
  cc_rejected_bad_filled_card_number: e('invalid_number', false, 'Check card number'),
  cc_rejected_bad_filled_date: e('expired_card', false, 'Check expiration date'),
  cc_rejected_bad_filled_other: e('invalid_data', false, 'Check data'),
  cc_rejected_bad_filled_security_code: e('invalid_cvv', false, 'Check card security code'),
  cc_rejected_blacklist: e('restricted_card', false, "Your payment couldn't be processed (the card is on the blacklist)"),
  cc_rejected_call_for_authorize: e('generic', false, 'The payer must authorize the payment with the card issuer'),
  cc_rejected_card_disabled: e('restricted_card', false, 'The card is disabled: the payer must call the issuer to activate it'),
  cc_rejected_card_error: e('generic', false, "Your payment couldn't be processed (card error)"),
  cc_rejected_duplicated_payment: e('transaction_not_allowed', false, 'A payment of that value was already made'),
  cc_rejected_high_risk: e('fraud_suspect', false, 'Rejected by the risk analysis'),
  cc_rejected_insufficient_amount: e('insufficient_funds', false, 'The card does not have enough funds'),
  cc_rejected_invalid_installments: e('invalid_installment', false, 'The card does not process payments in these installments'),
  cc_rejected_max_attempts: e('pin_try_exceeded', false, 'The allowed attempt limit was reached'),
  cc_rejected_other_reason: e('generic', false, 'The card issuer did not process the payment'),
  cc_rejected_card_type_not_allowed: e('card_not_supported', false, 'The credit function is not enabled on the multiple (debit and credit) card'),
  cc_amount_rate_limit_exceeded: e('try_again', true, "Exceeded the payment method's limit (CAP, maximum allowed capacity) at Mercado Pago"),
  rejected_insufficient_data: e('invalid_data', false, 'Rejected for lack of required information in the payment'),
  rejected_by_bank: e('generic', false, 'Operation rejected by the bank'),
  rejected_by_regulations: e('not_permitted', false, 'Payment rejected by regulations'),
  insufficient_amount: e('insufficient_funds', false, 'Payment rejected due to insufficient amount'),
};
