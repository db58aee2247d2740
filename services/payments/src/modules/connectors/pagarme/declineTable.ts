import type { DeclinedCode } from '../../charges/domain/charge';
import type { DeclineEntry, DeclineTable } from '../kit/tables';

/**
 * A refused card's `last_transaction.acquirer_return_code` -> our declinedCode, and whether it is technical (the
 * issuer or the acquirer could not decide: the charge moves on to its next provider).
 *
 * Pagar.me, "Códigos de retorno padrão ABECS": from 2026-08-28 the core API v5 returns in
 * `acquirer_return_code` / `acquirer_message` the card brand's official ABECS code and message (05, 14, 57, ...)
 * instead of Pagar.me's own four-digit codes (1000, 1011, 2000, ...). Both are read:
 * - the ABECS codes (the ABECS standard's tables for Elo, Visa and Mastercard/Hiper, each REVERSIBLE or
 *   IRREVERSIBLE): reversible codes that mean "try later" or "issuer down" are technical; other reversible codes
 *   are the issuer's business answer and stay final (the shopper, not another acquirer, has to act). Where the
 *   brands give one code different meanings, the entry takes the one that forbids a retry and names them all;
 * - Pagar.me's earlier four-digit codes, for charges made before the change: the ones named here, and by family
 *   the rest (1xxx refused by the issuer, 2xxx refused with the card to be retained, 9xxx a processing error);
 * - `antifraud_reproved`: the charge refused by Pagar.me's antifraud (`antifraud_response.status` "reproved"),
 *   which has no acquirer code.
 * The approval codes (00, 0000) are not declines: a charge's `status`, not its code, says whether it was paid.
 */

const e = (declinedCode: DeclinedCode, technical: boolean, meaning: string): DeclineEntry => ({ declinedCode, technical, meaning });

export const PAGARME_DECLINES: DeclineTable = {
  // ABECS (Elo / Visa / Mastercard-Hiper).
  '01': e('invalid_number', false, 'INVALID CARD NUMBER (Mastercard, irreversible)'),
  '03': e('invalid_merchant', false, 'INVALID MERCHANT (Visa, Mastercard, irreversible)'),
  '04': e('pickup_card', false, 'REDO THE TRANSACTION (Elo, reversible); COLLECT CARD, THERE IS NO FRAUD (Visa, Mastercard, irreversible)'),
  '05': e('generic', false, 'GENERIC: contact your card center (reversible)'),
  '06': e('invalid_data', false, 'CONSULT ACCREDITATOR (Elo, reversible); CARD ERROR (Visa, irreversible)'),
  '07': e('fraud_confirmed', false, 'CONFIRMED FRAUD (Visa, irreversible)'),
  '12': e('invalid_data', false, 'CARD ERROR (Elo) / FORMAT ERROR (Visa) / INVALID INSTALLMENT VALUE (Mastercard), irreversible'),
  '13': e('invalid_amount', false, 'TRANSACTION AMOUNT INVALID (irreversible)'),
  '14': e('invalid_number', false, "CARD NUMBER DOESN'T BELONG TO THE ISSUER / INVALID CARD NUMBER (irreversible)"),
  '15': e('invalid_number', false, 'ISSUER NOT LOCATED - INCORRECT BIN (irreversible)'),
  '19': e('generic', false, "PROBLEM IN THE ACQUIRER (Elo, Visa, irreversible): card error, don't try again"),
  '23': e('invalid_installment', false, 'INVALID INSTALLMENT VALUE (Elo, irreversible)'),
  '30': e('invalid_data', false, 'FORMAT ERROR (Elo, Mastercard, irreversible)'),
  '38': e('pin_try_exceeded', false, 'PASSWORD ATTEMPTS EXCEEDED / SHOPPING (Elo, reversible)'),
  '39': e('card_not_supported', false, 'INCORRECT FUNCTION, CREDIT: use the debit function (Visa)'),
  '41': e('lost_card', false, 'LOST CARD (irreversible)'),
  '43': e('stolen_card', false, 'STOLEN CARD (irreversible)'),
  '46': e('restricted_card', false, 'CLOSED ACCOUNT (irreversible)'),
  '51': e('insufficient_funds', false, 'INSUFFICIENT BALANCE/LIMIT (reversible)'),
  '52': e('card_not_supported', false, 'INCORRECT FUNCTION, DEBIT: use the credit function (Visa)'),
  '53': e('card_not_supported', false, 'INCORRECT FUNCTION, DEBIT: use the credit function (Visa)'),
  '54': e('expired_card', false, 'EXPIRED CARD / INVALID EXPIRATION DATE (irreversible)'),
  '55': e('invalid_pin', false, 'INVALID PASSWORD (reversible)'),
  '56': e('invalid_number', false, 'INVALID CARD NUMBER (Elo, irreversible)'),
  '57': e('transaction_not_allowed', false, 'TRANSACTION NOT ALLOWED FOR CARD (irreversible); CONFIRMED FRAUD; TRANSACTION DENIED FOR INFRINGEMENT OF LAW (Elo, Mastercard)'),
  '58': e('transaction_not_allowed', false, 'TRANSACTION NOT ALLOWED / TERMINAL CAPACITY (Visa, Mastercard); INVALID MERCHANT (Elo); irreversible'),
  '59': e('fraud_suspect', false, 'SUSPECTED FRAUD / TRAVEL WARNING (reversible)'),
  '61': e('insufficient_funds', false, 'EXCESS VALUE / WITHDRAWAL (reversible)'),
  '62': e('restricted_card', false, 'TEMPORARY BLOCK (reversible); DOMESTIC CARD - INTERNATIONAL TRANSACTION (irreversible)'),
  '63': e('security_violation', false, 'SECURITY BREACH (Elo irreversible; Mastercard reversible)'),
  '64': e('transaction_not_allowed', false, 'MINIMUM TRANSACTION VALUE INVALID (Elo); ANTI MONEY LAUNDERING (Visa); irreversible'),
  '65': e('not_permitted', false, 'AMOUNT OF WITHDRAWALS EXCEEDED (reversible)'),
  '70': e('invalid_pin', false, 'PASSWORD REQUIRED / CONTACT YOUR CARD CENTER (Mastercard, reversible)'),
  '74': e('invalid_pin', false, 'PASSWORD EXPIRED / PASSWORD CRYPTOGRAPHY ERROR (Visa, irreversible)'),
  '75': e('pin_try_exceeded', false, 'PASSWORD ATTEMPTS EXCEEDED (reversible)'),
  '76': e('invalid_data', false, 'INVALID OR NON-EXISTING DESTINATION ACCOUNT (Elo); INVALID REVERSION (Visa); irreversible'),
  '77': e('restricted_card', false, 'INVALID OR NON-EXISTING ORIGIN ACCOUNT (Elo, irreversible)'),
  '78': e('restricted_card', false, 'NEW CARD WITHOUT UNLOCKING, or blocked by the cardholder (reversible)'),
  '81': e('invalid_pin', false, 'PASSWORD EXPIRED / PASSWORD CRYPTOGRAPHY ERROR (Visa, irreversible)'),
  '82': e('invalid_data', false, 'INVALID CARD, cryptogram (Elo, Visa, irreversible); not allowed by the issuer rules (Mastercard)'),
  '83': e('fraud_suspect', false, 'PASSWORD EXPIRED / CRYPTOGRAPHY ERROR (Elo, irreversible); suspicion of fraud by the issuer (Mastercard)'),
  '86': e('invalid_pin', false, 'INVALID PASSWORD (Visa, reversible)'),
  '88': e('invalid_data', false, 'PASSWORD CRYPTOGRAPHY ERROR / INVALID CARD CRYPTOGRAM (Mastercard, irreversible)'),
  '91': e('issuer_not_available', true, 'ISSUER DOWN: communication failure, try later (reversible)'),
  '92': e('generic', false, "NOT LOCATED BY ROUTER (irreversible): don't try again"),
  '93': e('transaction_not_allowed', false, 'TRANSACTION DENIED FOR INFRINGEMENT OF LAW (Visa, irreversible)'),
  '94': e('generic', false, 'DUPLICATE TRACING DATE (irreversible)'),
  '96': e('try_again', true, 'SYSTEM FAILURE: communication failure, try later (reversible)'),
  N0: e('generic', false, 'FORCE STIP (Visa): contact your card center'),
  N3: e('service_not_allowed', false, 'WITHDRAWAL NOT AVAILABLE (Visa, irreversible)'),
  N4: e('insufficient_funds', false, 'EXCESS VALUE / WITHDRAWAL (Visa, reversible)'),
  N7: e('security_violation', false, 'SECURITY BREACH / DYNAMIC KEY CHANGE ERROR (Visa, irreversible)'),
  N8: e('invalid_amount', false, 'DIFFERENCE - PRE-AUTHORIZATION (Visa, irreversible)'),
  R0: e('service_not_allowed', false, 'RECURRENT PAYMENT SUSPENSION FOR A SERVICE (Visa, irreversible)'),
  R1: e('service_not_allowed', false, 'RECURRENT PAYMENT SUSPENSION FOR ALL SERVICES (Visa, irreversible)'),
  R2: e('transaction_not_allowed', false, 'TRANSACTION NOT QUALIFIED FOR VISA PIN (irreversible)'),
  R3: e('service_not_allowed', false, 'SUSPENSION OF ALL AUTHORIZATION ORDERS (Visa, irreversible)'),
  AB: e('card_not_supported', false, 'INCORRECT FUNCTION, DEBIT: use the credit function (Elo)'),
  AC: e('card_not_supported', false, 'INCORRECT FUNCTION, CREDIT: use the debit function (Elo)'),
  P5: e('invalid_pin', false, 'PASSWORD CHANGE / UNLOCKING (Elo, irreversible)'),
  P6: e('invalid_pin', false, 'NEW PASSWORD NOT ACCEPTED (Elo, reversible)'),
  '6P': e('invalid_data', false, 'ID VALIDATION FAILURE (Visa, irreversible)'),
  FM: e('card_not_supported', false, 'USE THE CHIP (Elo, irreversible)'),
  B1: e('not_permitted', false, 'SURCHARGE NOT SUPPORTED (Visa)'),
  B2: e('not_permitted', false, 'SURCHARGE NOT SUPPORTED BY THE DEBIT NETWORK (Visa)'),
  // Pagar.me's own codes, before 2026-08-28.
  '1000': e('generic', false, 'Pagar.me: not authorized'),
  '1001': e('expired_card', false, 'Pagar.me: expired card'),
  '1011': e('invalid_number', false, 'Pagar.me: invalid card'),
  '1016': e('insufficient_funds', false, 'Pagar.me: insufficient funds'),
  '1045': e('invalid_cvv', false, 'Pagar.me: invalid security code'),
  '2000': e('pickup_card', false, 'Pagar.me: refused, retain the card'),
  '9111': e('try_again', true, 'Pagar.me: time-out at the acquirer'),
  // Pagar.me's antifraud.
  antifraud_reproved: e('fraud_suspect', false, 'Pagar.me antifraud: reproved'),
};

/** Pagar.me's earlier four-digit codes not named in the table, by family. */
const LEGACY_FAMILIES: ReadonlyArray<[RegExp, DeclineEntry]> = [
  [/^1\d{3}$/, e('generic', false, 'Pagar.me: refused by the issuer')],
  [/^2\d{3}$/, e('pickup_card', false, 'Pagar.me: refused, retain the card')],
  [/^9\d{3}$/, e('try_again', true, 'Pagar.me: processing error at the acquirer')],
];

/**
 * The entry of an `acquirer_return_code`: the table's (a one-digit ABECS code is read as its two-digit form,
 * "5" as "05"), else its legacy family, else a generic, final decline.
 */
export function pagarmeDeclineOf(code: string | number | undefined | null): DeclineEntry & { code?: string } {
  const key = code === undefined || code === null ? '' : String(code).trim();
  // ABECS codes are written in capitals (N7, 6P); a one-digit code is its two-digit form.
  const normalized = /^\d$/.test(key) ? `0${key}` : /^[A-Za-z0-9]{2}$/.test(key) ? key.toUpperCase() : key;
  const entry = PAGARME_DECLINES[normalized] ?? LEGACY_FAMILIES.find(([pattern]) => pattern.test(normalized))?.[1];
  if (entry) return { ...entry, code: normalized };
  return { declinedCode: 'generic', technical: false, meaning: `code ${key || '(none)'} not in the table`, ...(key ? { code: key } : {}) };
}
