import type { DeclinedCode } from '../../charges/domain/charge';
import type { DeclineDecision, DeclineEntry, DeclineTable } from '../kit/tables';

/**
 * e.Rede's return codes (manual: "Códigos de retorno") -> our declinedCode, and the decision it leads to
 * (the issuer or Rede could not decide: the charge moves to its next provider; only `try_again` and
 * `issuer_not_available` are technical in the routing). The codes that mean success are not declines: see
 * REDE_SUCCESS_CODES. A code missing here is a final `generic` decline (kit/tables.ts declineOf).
 *
 * Not listed: the returns of products this connector does not send (3DS 200-269 and 3000-3019, Pix and wallets
 * 3020-3143, MCC and sub-merchant 1002-1038 and 4005-4012).
 *
 * Each entry's decision (kit/tables.ts): retry_other_provider for a technical or soft decline another acquirer may
 * approve, do_not_retry for a hard one (and every code the brands mark IRREVERSIBLE or "do not try again"),
 * retry_later for insufficient funds.
 */

/** Success: "00" for an authorization or capture, 174 for a zero-dollar check, 359 and 360 for a cancellation. */
export const REDE_SUCCESS_CODES: ReadonlySet<string> = new Set(['00', '174', '359', '360']);

/** Reference already used by this PV (an earlier attempt with the same reference reached Rede). */
export const REDE_REFERENCE_USED = '42';
/** The cancellation found the transaction already canceled whole. */
export const REDE_ALREADY_CANCELED = '355';
/** Operation not allowed for this transaction (a second capture, a capture of a canceled one). */
export const REDE_OPERATION_NOT_ALLOWED = '171';

const e = (declinedCode: DeclinedCode, decision: DeclineDecision, meaning: string): DeclineEntry => ({ declinedCode, decision, meaning });
/** An integration return: the request was malformed, a fault of ours, never the cardholder's. */
const integration = (meaning: string, declinedCode: DeclinedCode = 'invalid_data'): DeclineEntry => e(declinedCode, 'do_not_retry', meaning);

export const redeDeclines: DeclineTable = {
  // Manual: "Retornos de autorização" (the issuer's answer to an authorization).
  '101': e('generic', 'retry_other_provider', 'Unauthorized. Problems on the card, contact the issuer.'),
  '102': e('invalid_merchant', 'retry_other_provider', 'Unauthorized. Check the situation of the store with the issuer.'),
  '103': e('try_again', 'retry_other_provider', 'Unauthorized. Please try again.'),
  '104': e('try_again', 'retry_other_provider', 'Unauthorized. Please try again.'),
  '105': e('restricted_card', 'do_not_retry', 'Unauthorized. Restricted card.'),
  '106': e('issuer_not_available', 'retry_other_provider', 'Error in issuer processing. Please try again.'),
  '107': e('try_again', 'retry_other_provider', 'Unauthorized. Please try again.'),
  '108': e('invalid_amount', 'do_not_retry', 'Unauthorized. Value not allowed for this type of card.'),
  '109': e('invalid_number', 'do_not_retry', 'Unauthorized. Nonexistent card.'),
  '110': e('transaction_not_allowed', 'do_not_retry', 'Unauthorized. Transaction type not allowed for this card.'),
  '111': e('insufficient_funds', 'retry_later', 'Unauthorized. Insufficient funds.'),
  '112': e('expired_card', 'do_not_retry', 'Unauthorized. Expiry date expired.'),
  '113': e('fraud_suspect', 'do_not_retry', 'Unauthorized. Identified moderate risk by the issuer.'),
  '114': e('card_not_supported', 'retry_other_provider', 'Unauthorized. The card does not belong to the payment network.'),
  '115': e('not_permitted', 'do_not_retry', 'Unauthorized. Exceeded the limit of transactions allowed in the period.'),
  '116': e('generic', 'retry_other_provider', 'Unauthorized. Please contact the Card Issuer.'),
  '117': e('invalid_data', 'do_not_retry', 'Transaction not found.'),
  '118': e('restricted_card', 'do_not_retry', 'Unauthorized. Card locked.'),
  '119': e('invalid_cvv', 'do_not_retry', 'Unauthorized. Invalid security code'),
  '121': e('try_again', 'retry_other_provider', 'Error processing. Please try again.'),
  '122': e('generic', 'retry_other_provider', 'Transaction previously sent'),
  '123': e('not_permitted', 'do_not_retry', 'Unauthorized. Bearer requested the end of the recurrences in the issuer.'),
  '124': e('generic', 'retry_other_provider', 'Unauthorized. Contact Rede'),
  '170': e('transaction_not_allowed', 'do_not_retry', 'Zero dollar transaction not allowed for this card.'),
  '172': e('invalid_cvv', 'do_not_retry', 'CVC2 required for Zero Dollar Transaction.'),
  '175': e('generic', 'retry_other_provider', 'Zero dollar transaction denied.'),

  // Manual: "Retornos de integração" (the request, as Rede validated it).
  '1': integration('expirationYear: Invalid parameter size'),
  '2': integration('expirationYear: Invalid parameter format'),
  '3': integration('expirationYear: Required parameter missing'),
  '4': integration('cavv: Invalid parameter size'),
  '5': integration('cavv: Invalid parameter format'),
  '6': integration('postalCode: Invalid parameter size'),
  '7': integration('postalCode: Invalid parameter format'),
  '8': integration('postalCode: Required parameter missing'),
  '9': integration('complement: Invalid parameter size'),
  '10': integration('complement: Invalid parameter format'),
  '11': integration('departureTax: Invalid parameter format'),
  '12': integration('documentNumber: Invalid parameter size'),
  '13': integration('documentNumber: Invalid parameter format'),
  '14': integration('documentNumber: Required parameter missing'),
  '15': integration('securityCode: Invalid parameter size', 'invalid_cvv'),
  '16': integration('securityCode: Invalid parameter format', 'invalid_cvv'),
  '17': integration('distributorAffiliation: Invalid parameter size'),
  '18': integration('distributorAffiliation: Invalid parameter format'),
  '19': integration('xid: Invalid parameter size'),
  '20': integration('eci: Invalid parameter format'),
  '21': integration('xid: Required parameter for Visa card is missing'),
  '22': integration('street: Required parameter missing'),
  '23': integration('street: Invalid parameter format'),
  '24': integration('affiliation: Invalid parameter size', 'invalid_merchant'),
  '25': integration('affiliation: Invalid parameter format', 'invalid_merchant'),
  '26': integration('affiliation: Required parameter missing', 'invalid_merchant'),
  '27': integration('Parameter cavv or eci missing'),
  '28': integration('code: Invalid parameter size'),
  '29': integration('code: Invalid parameter format'),
  '30': integration('code: Required parameter missing'),
  '31': integration('softdescriptor: Invalid parameter size'),
  '32': integration('softdescriptor: Invalid parameter format'),
  '33': integration('expirationMonth: Invalid parameter format'),
  '34': integration('code: Invalid parameter format'),
  '35': integration('expirationMonth: Required parameter missing'),
  '36': integration('cardNumber: Invalid parameter size', 'invalid_number'),
  '37': integration('cardNumber: Invalid parameter format', 'invalid_number'),
  '38': integration('cardNumber: Required parameter missing', 'invalid_number'),
  '39': integration('reference: Invalid parameter size'),
  '40': integration('reference: Invalid parameter format'),
  '41': integration('reference: Required parameter missing'),
  '42': integration('reference: Order number already exists.'),
  '43': integration('number: Invalid parameter size'),
  '44': integration('number: Invalid parameter format'),
  '45': integration('number: Required parameter missing'),
  '46': integration('installments: Not correspond to authorization transaction', 'invalid_installment'),
  '47': integration('origin: Invalid parameter format'),
  '48': integration('brandTid: Invalid parameter size'),
  '49': integration('The value of the transaction exceeds the authorized', 'invalid_amount'),
  '50': integration('installments: Invalid parameter format', 'invalid_installment'),
  '51': e('service_not_allowed', 'do_not_retry', 'Product or service disabled for this merchant. Contact Rede'),
  '53': e('transaction_not_allowed', 'do_not_retry', 'Transaction not allowed for the issuer. Contact Rede.'),
  '54': integration('installments: Parameter not allowed for this transaction', 'invalid_installment'),
  '55': integration('cardHolderName: Invalid parameter size'),
  '56': e('try_again', 'retry_other_provider', 'Error in reported data. Try again.'),
  '57': e('invalid_merchant', 'retry_other_provider', 'affiliation: Invalid merchant'),
  '58': e('generic', 'retry_other_provider', 'Unauthorized. Contact issuer.'),
  '59': integration('cardHolderName: Invalid parameter format'),
  '60': integration('street: Invalid parameter size'),
  '61': integration('subscription: Invalid parameter format'),
  '63': e('service_not_allowed', 'do_not_retry', 'softdescriptor: Not enabled for this merchant'),
  '64': e('try_again', 'retry_other_provider', 'Transaction not processed. Try again'),
  '65': integration('token: Invalid token'),
  '66': integration('departureTax: Invalid parameter size'),
  '67': integration('departureTax: Invalid parameter format'),
  '68': integration('departureTax: Required parameter missing'),
  '69': e('transaction_not_allowed', 'do_not_retry', 'Transaction not allowed for this product or service.'),
  '70': integration('amount: Invalid parameter size', 'invalid_amount'),
  '71': integration('amount: Invalid parameter format', 'invalid_amount'),
  '72': e('generic', 'retry_other_provider', 'Contact issuer.'),
  '73': integration('amount: Required parameter missing', 'invalid_amount'),
  '74': e('try_again', 'retry_other_provider', 'Communication failure. Try again'),
  '75': integration('departureTax: Parameter should not be sent for this type of transaction'),
  '76': integration('kind: Invalid parameter format'),
  '78': integration('Transaction does not exist'),
  '79': e('expired_card', 'do_not_retry', 'Expired card. Transaction cannot be resubmitted. Contact issuer.'),
  '80': e('insufficient_funds', 'retry_later', 'Unauthorized. Contact issuer. (Insufficient funds)'),
  '82': e('card_not_supported', 'retry_other_provider', 'Unauthorized transaction for debit card.'),
  '83': e('generic', 'retry_other_provider', 'Unauthorized. Contact issuer.'),
  '84': e('generic', 'retry_other_provider', 'Unauthorized. Transaction cannot be resubmitted. Contact issuer.'),
  '85': integration('complement: Invalid parameter size'),
  '86': e('expired_card', 'do_not_retry', 'Expired card'),
  '87': integration('At least one of the following fields must be filled: tid or reference'),
  '88': e('invalid_merchant', 'retry_other_provider', 'Merchant not approved. Regulate your website and contact the Rede to return to transact.'),
  '89': integration('token: Invalid token'),
  '97': integration('tid: Invalid parameter size'),
  '98': integration('tid: Invalid parameter format'),
  '150': e('try_again', 'retry_other_provider', 'Timeout. Try again'),
  '151': integration('installments: Greater than allowed', 'invalid_installment'),
  '153': integration('documentNumber: Invalid number'),
  '154': integration('embedded: Invalid parameter format'),
  '155': integration('eci: Required parameter missing'),
  '156': integration('eci: Invalid parameter size'),
  '157': integration('cavv: Required parameter missing'),
  '158': integration('capture: Type not allowed for this transaction'),
  '159': integration('userAgent: Invalid parameter size'),
  '160': integration('urls: Required parameter missing (kind)'),
  '161': integration('urls: Invalid parameter format'),
  '167': integration('Invalid request JSON'),
  '169': integration('Invalid Content-Type'),
  '171': e('transaction_not_allowed', 'do_not_retry', 'Operation not allowed for this transaction'),
  '173': e('transaction_not_allowed', 'do_not_retry', 'Authorization expired'),
  '176': integration('urls: Required parameter missing (url)'),
  '370': e('try_again', 'retry_other_provider', 'Request failed. Contact Rede'),
  '898': e('invalid_merchant', 'retry_other_provider', 'PV with invalid ip origin'),
  '899': e('try_again', 'retry_other_provider', 'Unsuccessful. Please contact Rede.'),
  '3301': e('invalid_merchant', 'retry_other_provider', 'PV with invalid ip origin'),
  '4030': integration('token is expired or invalid'),

  // Manual: "Retornos de cancelamento" (POST /v2/transactions/{tid}/refunds and its query).
  '351': e('not_permitted', 'do_not_retry', 'Forbidden'),
  '353': integration('Transaction not found'),
  '354': e('transaction_not_allowed', 'do_not_retry', 'Transaction with period expired for refund'),
  '355': e('transaction_not_allowed', 'do_not_retry', 'Transaction already canceled.'),
  '357': e('invalid_amount', 'do_not_retry', 'Sum of amount refunds greater than the transaction amount'),
  '358': e('invalid_amount', 'do_not_retry', 'Sum of amount refunds greater than the value processed available for refund'),
  '362': integration('RefundId not found'),
  '363': integration('Callback Url characters exceeded 500'),
  '365': e('transaction_not_allowed', 'do_not_retry', 'Partial refund not available.'),
  '368': e('try_again', 'retry_other_provider', 'Unsuccessful. Please try again'),
  '369': integration('Refund not found'),
  '371': e('try_again', 'retry_other_provider', 'Transaction not available for refund. Try again in a few hours'),
  '373': e('transaction_not_allowed', 'do_not_retry', 'No further Refund allowed'),
  '374': e('transaction_not_allowed', 'do_not_retry', 'Refund not allowed. Chargeback requested'),
};
