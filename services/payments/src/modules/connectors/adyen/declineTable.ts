import type { DeclinedCode } from '../../charges/domain/charge';
import type { DeclineEntry, DeclineTable } from '../kit/tables';

/**
 * Adyen's `refusalReasonCode` (manual: "Refusal reasons", every code the Checkout API returns, 0 to 46) -> our
 * declinedCode, and whether the refusal is technical (Adyen, the acquirer or the issuer could not decide: the
 * charge moves on to its next provider). A code missing here is a final `generic` decline (kit/tables.ts).
 * 13 is not a refusal (it is the test code of a `Received` payment) and 1 is an approval; neither is listed.
 */
const final = (declinedCode: DeclinedCode, meaning: string): DeclineEntry => ({ declinedCode, technical: false, meaning });
const technical = (declinedCode: 'try_again' | 'issuer_not_available', meaning: string): DeclineEntry => ({ declinedCode, technical: true, meaning });

export const ADYEN_DECLINES: DeclineTable = {
  '0': technical('try_again', 'Unknown: an error with no reason given'),
  '2': final('generic', 'Refused: the transaction was refused'),
  '3': final('generic', 'Referral: the issuer asks for a referral'),
  '4': technical('try_again', "Acquirer Error: an error on the acquirer's end"),
  '5': final('restricted_card', 'Blocked Card: the card is blocked'),
  '6': final('expired_card', 'Expired Card: the card has expired'),
  '7': final('invalid_amount', 'Invalid Amount: an amount mismatch occurred'),
  '8': final('invalid_number', 'Invalid Card Number: the card number is incorrect or invalid'),
  '9': technical('issuer_not_available', "Issuer Unavailable: the shopper's bank could not be contacted"),
  '10': final('card_not_supported', "Not supported: the shopper's bank does not allow this type of transaction"),
  '11': final('security_violation', '3D Not Authenticated: 3D Secure authentication was not done or failed'),
  '12': final('insufficient_funds', 'Not enough balance: the card cannot cover the amount'),
  '14': final('fraud_suspect', 'Acquirer Fraud: possible fraud'),
  '15': final('generic', 'Cancelled: the transaction was cancelled'),
  '16': final('generic', 'Shopper Cancelled: the shopper cancelled before completing it'),
  '17': final('invalid_pin', 'Invalid Pin: the PIN is incorrect or invalid'),
  '18': final('pin_try_exceeded', 'Pin tries exceeded: an incorrect PIN more than three times in a row'),
  '19': final('invalid_pin', 'Pin validation not possible'),
  '20': final('fraud_suspect', 'FRAUD: the pre-authorisation risk checks scored 100 or more'),
  '21': final('invalid_data', 'Not Submitted: the transaction was not submitted correctly for processing'),
  '22': final('fraud_suspect', 'FRAUD-CANCELLED: the pre- and post-authorisation risk checks scored 100 or more'),
  '23': final('transaction_not_allowed', 'Transaction Not Permitted: not permitted to this card or terminal'),
  '24': final('invalid_cvv', 'CVC Declined: the card security code is invalid'),
  '25': final('restricted_card', 'Restricted Card: the card is restricted or invalid in this country'),
  '26': final('not_permitted', 'Revocation Of Auth: the shopper revoked the recurring authorisation'),
  '27': final('generic', 'Declined Non Generic: a refusal that maps to no specific reason'),
  '28': final('insufficient_funds', 'Withdrawal amount exceeded: the card’s spending limit was reached'),
  '29': final('not_permitted', 'Withdrawal count exceeded: the card’s number of transactions was reached'),
  '31': final('fraud_suspect', 'Issuer Suspected Fraud'),
  '32': final('invalid_data', 'AVS Declined: the address given does not match'),
  '33': final('not_permitted', 'Card requires online pin'),
  '34': final('card_not_supported', 'No checking account available on Card'),
  '35': final('card_not_supported', 'No savings account available on Card'),
  '36': final('not_permitted', 'Mobile pin required'),
  '37': final('not_permitted', 'Contactless fallback: the shopper must insert the card'),
  '38': final('security_violation', 'Authentication required: the issuer asks for 3D Secure authentication'),
  '39': technical('try_again', 'RReq not received from DS: the 3D Secure result did not arrive'),
  '40': final('not_permitted', 'Current AID is in Penalty Box'),
  '41': final('not_permitted', 'CVM Required Restart Payment'),
  '42': technical('try_again', '3DS Authentication Error: an error during 3D Secure authentication'),
  '43': final('not_permitted', 'Online PIN required'),
  '44': final('not_permitted', 'Try another interface'),
  '45': final('not_permitted', 'Chip downgrade mode'),
  '46': final('not_permitted', 'Transaction blocked by Adyen to prevent excessive retry fees'),
};
