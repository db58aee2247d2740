import type { DeclinedCode } from '../../charges/domain/charge';
import type { DeclineDecision, DeclineEntry, DeclineTable } from '../kit/tables';

/**
 * Adyen's `refusalReasonCode` (manual: "Refusal reasons", every code the Checkout API returns, 0 to 46) -> our
 * declinedCode, and the decision it leads to (Adyen, the acquirer or the issuer could not decide: the
 * charge moves on to its next provider). A code missing here is a final `generic` decline (kit/tables.ts).
 * 13 is not a refusal (it is the test code of a `Received` payment) and 1 is an approval; neither is listed.
 *
 * Each entry's decision (kit/tables.ts): retry_other_provider for a technical or soft decline another acquirer may
 * approve, do_not_retry for a hard one (and every code the brands mark IRREVERSIBLE or "do not try again"),
 * retry_later for insufficient funds.
 */
const e = (declinedCode: DeclinedCode, decision: DeclineDecision, meaning: string): DeclineEntry => ({ declinedCode, decision, meaning });

export const ADYEN_DECLINES: DeclineTable = {
  '0': e('try_again', 'retry_other_provider', 'Unknown: an error with no reason given'),
  '2': e('generic', 'retry_other_provider', 'Refused: the transaction was refused'),
  '3': e('generic', 'retry_other_provider', 'Referral: the issuer asks for a referral'),
  '4': e('try_again', 'retry_other_provider', "Acquirer Error: an error on the acquirer's end"),
  '5': e('restricted_card', 'do_not_retry', 'Blocked Card: the card is blocked'),
  '6': e('expired_card', 'do_not_retry', 'Expired Card: the card has expired'),
  '7': e('invalid_amount', 'do_not_retry', 'Invalid Amount: an amount mismatch occurred'),
  '8': e('invalid_number', 'do_not_retry', 'Invalid Card Number: the card number is incorrect or invalid'),
  '9': e('issuer_not_available', 'retry_other_provider', "Issuer Unavailable: the shopper's bank could not be contacted"),
  '10': e('card_not_supported', 'retry_other_provider', "Not supported: the shopper's bank does not allow this type of transaction"),
  '11': e('security_violation', 'do_not_retry', '3D Not Authenticated: 3D Secure authentication was not done or failed'),
  '12': e('insufficient_funds', 'retry_later', 'Not enough balance: the card cannot cover the amount'),
  '14': e('fraud_suspect', 'do_not_retry', 'Acquirer Fraud: possible fraud'),
  '15': e('generic', 'retry_other_provider', 'Cancelled: the transaction was cancelled'),
  '16': e('generic', 'retry_other_provider', 'Shopper Cancelled: the shopper cancelled before completing it'),
  '17': e('invalid_pin', 'do_not_retry', 'Invalid Pin: the PIN is incorrect or invalid'),
  '18': e('pin_try_exceeded', 'do_not_retry', 'Pin tries exceeded: an incorrect PIN more than three times in a row'),
  '19': e('invalid_pin', 'do_not_retry', 'Pin validation not possible'),
  '20': e('fraud_suspect', 'do_not_retry', 'FRAUD: the pre-authorisation risk checks scored 100 or more'),
  '21': e('invalid_data', 'do_not_retry', 'Not Submitted: the transaction was not submitted correctly for processing'),
  '22': e('fraud_suspect', 'do_not_retry', 'FRAUD-CANCELLED: the pre- and post-authorisation risk checks scored 100 or more'),
  '23': e('transaction_not_allowed', 'do_not_retry', 'Transaction Not Permitted: not permitted to this card or terminal'),
  '24': e('invalid_cvv', 'do_not_retry', 'CVC Declined: the card security code is invalid'),
  '25': e('restricted_card', 'do_not_retry', 'Restricted Card: the card is restricted or invalid in this country'),
  '26': e('not_permitted', 'do_not_retry', 'Revocation Of Auth: the shopper revoked the recurring authorisation'),
  '27': e('generic', 'retry_other_provider', 'Declined Non Generic: a refusal that maps to no specific reason'),
  '28': e('insufficient_funds', 'retry_later', 'Withdrawal amount exceeded: the card’s spending limit was reached'),
  '29': e('not_permitted', 'do_not_retry', 'Withdrawal count exceeded: the card’s number of transactions was reached'),
  '31': e('fraud_suspect', 'do_not_retry', 'Issuer Suspected Fraud'),
  '32': e('invalid_data', 'do_not_retry', 'AVS Declined: the address given does not match'),
  '33': e('not_permitted', 'do_not_retry', 'Card requires online pin'),
  '34': e('card_not_supported', 'retry_other_provider', 'No checking account available on Card'),
  '35': e('card_not_supported', 'retry_other_provider', 'No savings account available on Card'),
  '36': e('not_permitted', 'do_not_retry', 'Mobile pin required'),
  '37': e('not_permitted', 'do_not_retry', 'Contactless fallback: the shopper must insert the card'),
  '38': e('security_violation', 'do_not_retry', 'Authentication required: the issuer asks for 3D Secure authentication'),
  '39': e('try_again', 'retry_other_provider', 'RReq not received from DS: the 3D Secure result did not arrive'),
  '40': e('not_permitted', 'do_not_retry', 'Current AID is in Penalty Box'),
  '41': e('not_permitted', 'do_not_retry', 'CVM Required Restart Payment'),
  '42': e('try_again', 'retry_other_provider', '3DS Authentication Error: an error during 3D Secure authentication'),
  '43': e('not_permitted', 'do_not_retry', 'Online PIN required'),
  '44': e('not_permitted', 'do_not_retry', 'Try another interface'),
  '45': e('not_permitted', 'do_not_retry', 'Chip downgrade mode'),
  '46': e('not_permitted', 'do_not_retry', 'Transaction blocked by Adyen to prevent excessive retry fees'),
};
