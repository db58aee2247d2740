import type { DeclinedCode } from '../../charges/domain/charge';
import type { DeclineDecision, DeclineEntry, DeclineTable } from '../kit/tables';

/**
 * A refused card's `last_transaction.acquirer_return_code` -> our declinedCode, and the decision it leads to (the
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
 *
 * Each entry's decision (kit/tables.ts): retry_other_provider for a technical or soft decline another acquirer may
 * approve, do_not_retry for a hard one (and every code the brands mark IRREVERSIBLE or "do not try again"),
 * retry_later for insufficient funds.
 */

const e = (declinedCode: DeclinedCode, decision: DeclineDecision, meaning: string): DeclineEntry => ({ declinedCode, decision, meaning });

export const PAGARME_DECLINES: DeclineTable = {
  // ABECS (Elo / Visa / Mastercard-Hiper).
  '01': e('invalid_number', 'do_not_retry', 'INVALID CARD NUMBER (Mastercard, irreversible)'),
  '03': e('invalid_merchant', 'do_not_retry', 'INVALID MERCHANT (Visa, Mastercard, irreversible)'),
  '04': e('pickup_card', 'do_not_retry', 'REDO THE TRANSACTION (Elo, reversible); COLLECT CARD, THERE IS NO FRAUD (Visa, Mastercard, irreversible)'),
  '05': e('generic', 'retry_other_provider', 'GENERIC: contact your card center (reversible)'),
  '06': e('invalid_data', 'do_not_retry', 'CONSULT ACCREDITATOR (Elo, reversible); CARD ERROR (Visa, irreversible)'),
  '07': e('fraud_confirmed', 'do_not_retry', 'CONFIRMED FRAUD (Visa, irreversible)'),
  '12': e('invalid_data', 'do_not_retry', 'CARD ERROR (Elo) / FORMAT ERROR (Visa) / INVALID INSTALLMENT VALUE (Mastercard), irreversible'),
  '13': e('invalid_amount', 'do_not_retry', 'TRANSACTION AMOUNT INVALID (irreversible)'),
  '14': e('invalid_number', 'do_not_retry', "CARD NUMBER DOESN'T BELONG TO THE ISSUER / INVALID CARD NUMBER (irreversible)"),
  '15': e('invalid_number', 'do_not_retry', 'ISSUER NOT LOCATED - INCORRECT BIN (irreversible)'),
  '19': e('generic', 'do_not_retry', "PROBLEM IN THE ACQUIRER (Elo, Visa, irreversible): card error, don't try again"),
  '23': e('invalid_installment', 'do_not_retry', 'INVALID INSTALLMENT VALUE (Elo, irreversible)'),
  '30': e('invalid_data', 'do_not_retry', 'FORMAT ERROR (Elo, Mastercard, irreversible)'),
  '38': e('pin_try_exceeded', 'do_not_retry', 'PASSWORD ATTEMPTS EXCEEDED / SHOPPING (Elo, reversible)'),
  '39': e('card_not_supported', 'retry_other_provider', 'INCORRECT FUNCTION, CREDIT: use the debit function (Visa)'),
  '41': e('lost_card', 'do_not_retry', 'LOST CARD (irreversible)'),
  '43': e('stolen_card', 'do_not_retry', 'STOLEN CARD (irreversible)'),
  '46': e('restricted_card', 'do_not_retry', 'CLOSED ACCOUNT (irreversible)'),
  '51': e('insufficient_funds', 'retry_later', 'INSUFFICIENT BALANCE/LIMIT (reversible)'),
  '52': e('card_not_supported', 'retry_other_provider', 'INCORRECT FUNCTION, DEBIT: use the credit function (Visa)'),
  '53': e('card_not_supported', 'retry_other_provider', 'INCORRECT FUNCTION, DEBIT: use the credit function (Visa)'),
  '54': e('expired_card', 'do_not_retry', 'EXPIRED CARD / INVALID EXPIRATION DATE (irreversible)'),
  '55': e('invalid_pin', 'do_not_retry', 'INVALID PASSWORD (reversible)'),
  '56': e('invalid_number', 'do_not_retry', 'INVALID CARD NUMBER (Elo, irreversible)'),
  '57': e('transaction_not_allowed', 'do_not_retry', 'TRANSACTION NOT ALLOWED FOR CARD (irreversible); CONFIRMED FRAUD; TRANSACTION DENIED FOR INFRINGEMENT OF LAW (Elo, Mastercard)'),
  '58': e('transaction_not_allowed', 'do_not_retry', 'TRANSACTION NOT ALLOWED / TERMINAL CAPACITY (Visa, Mastercard); INVALID MERCHANT (Elo); irreversible'),
  '59': e('fraud_suspect', 'do_not_retry', 'SUSPECTED FRAUD / TRAVEL WARNING (reversible)'),
  '61': e('insufficient_funds', 'retry_later', 'EXCESS VALUE / WITHDRAWAL (reversible)'),
  '62': e('restricted_card', 'do_not_retry', 'TEMPORARY BLOCK (reversible); DOMESTIC CARD - INTERNATIONAL TRANSACTION (irreversible)'),
  '63': e('security_violation', 'do_not_retry', 'SECURITY BREACH (Elo irreversible; Mastercard reversible)'),
  '64': e('transaction_not_allowed', 'do_not_retry', 'MINIMUM TRANSACTION VALUE INVALID (Elo); ANTI MONEY LAUNDERING (Visa); irreversible'),
  '65': e('not_permitted', 'do_not_retry', 'AMOUNT OF WITHDRAWALS EXCEEDED (reversible)'),
  '70': e('invalid_pin', 'do_not_retry', 'PASSWORD REQUIRED / CONTACT YOUR CARD CENTER (Mastercard, reversible)'),
  '74': e('invalid_pin', 'do_not_retry', 'PASSWORD EXPIRED / PASSWORD CRYPTOGRAPHY ERROR (Visa, irreversible)'),
  '75': e('pin_try_exceeded', 'do_not_retry', 'PASSWORD ATTEMPTS EXCEEDED (reversible)'),
  '76': e('invalid_data', 'do_not_retry', 'INVALID OR NON-EXISTING DESTINATION ACCOUNT (Elo); INVALID REVERSION (Visa); irreversible'),
  '77': e('restricted_card', 'do_not_retry', 'INVALID OR NON-EXISTING ORIGIN ACCOUNT (Elo, irreversible)'),
  '78': e('restricted_card', 'do_not_retry', 'NEW CARD WITHOUT UNLOCKING, or blocked by the cardholder (reversible)'),
  '81': e('invalid_pin', 'do_not_retry', 'PASSWORD EXPIRED / PASSWORD CRYPTOGRAPHY ERROR (Visa, irreversible)'),
  '82': e('invalid_data', 'do_not_retry', 'INVALID CARD, cryptogram (Elo, Visa, irreversible); not allowed by the issuer rules (Mastercard)'),
  '83': e('fraud_suspect', 'do_not_retry', 'PASSWORD EXPIRED / CRYPTOGRAPHY ERROR (Elo, irreversible); suspicion of fraud by the issuer (Mastercard)'),
  '86': e('invalid_pin', 'do_not_retry', 'INVALID PASSWORD (Visa, reversible)'),
  '88': e('invalid_data', 'do_not_retry', 'PASSWORD CRYPTOGRAPHY ERROR / INVALID CARD CRYPTOGRAM (Mastercard, irreversible)'),
  '91': e('issuer_not_available', 'retry_other_provider', 'ISSUER DOWN: communication failure, try later (reversible)'),
  '92': e('generic', 'do_not_retry', "NOT LOCATED BY ROUTER (irreversible): don't try again"),
  '93': e('transaction_not_allowed', 'do_not_retry', 'TRANSACTION DENIED FOR INFRINGEMENT OF LAW (Visa, irreversible)'),
  '94': e('generic', 'do_not_retry', 'DUPLICATE TRACING DATE (irreversible)'),
  '96': e('try_again', 'retry_other_provider', 'SYSTEM FAILURE: communication failure, try later (reversible)'),
  N0: e('generic', 'retry_other_provider', 'FORCE STIP (Visa): contact your card center'),
  N3: e('service_not_allowed', 'do_not_retry', 'WITHDRAWAL NOT AVAILABLE (Visa, irreversible)'),
  N4: e('insufficient_funds', 'retry_later', 'EXCESS VALUE / WITHDRAWAL (Visa, reversible)'),
  N7: e('security_violation', 'do_not_retry', 'SECURITY BREACH / DYNAMIC KEY CHANGE ERROR (Visa, irreversible)'),
  N8: e('invalid_amount', 'do_not_retry', 'DIFFERENCE - PRE-AUTHORIZATION (Visa, irreversible)'),
  R0: e('service_not_allowed', 'do_not_retry', 'RECURRENT PAYMENT SUSPENSION FOR A SERVICE (Visa, irreversible)'),
  R1: e('service_not_allowed', 'do_not_retry', 'RECURRENT PAYMENT SUSPENSION FOR ALL SERVICES (Visa, irreversible)'),
  R2: e('transaction_not_allowed', 'do_not_retry', 'TRANSACTION NOT QUALIFIED FOR VISA PIN (irreversible)'),
  R3: e('service_not_allowed', 'do_not_retry', 'SUSPENSION OF ALL AUTHORIZATION ORDERS (Visa, irreversible)'),
  AB: e('card_not_supported', 'retry_other_provider', 'INCORRECT FUNCTION, DEBIT: use the credit function (Elo)'),
  AC: e('card_not_supported', 'retry_other_provider', 'INCORRECT FUNCTION, CREDIT: use the debit function (Elo)'),
  P5: e('invalid_pin', 'do_not_retry', 'PASSWORD CHANGE / UNLOCKING (Elo, irreversible)'),
  P6: e('invalid_pin', 'do_not_retry', 'NEW PASSWORD NOT ACCEPTED (Elo, reversible)'),
  '6P': e('invalid_data', 'do_not_retry', 'ID VALIDATION FAILURE (Visa, irreversible)'),
  FM: e('card_not_supported', 'do_not_retry', 'USE THE CHIP (Elo, irreversible)'),
  B1: e('not_permitted', 'do_not_retry', 'SURCHARGE NOT SUPPORTED (Visa)'),
  B2: e('not_permitted', 'do_not_retry', 'SURCHARGE NOT SUPPORTED BY THE DEBIT NETWORK (Visa)'),
  // Pagar.me's own codes, before 2026-08-28.
  '1000': e('generic', 'retry_other_provider', 'Pagar.me: not authorized'),
  '1001': e('expired_card', 'do_not_retry', 'Pagar.me: expired card'),
  '1011': e('invalid_number', 'do_not_retry', 'Pagar.me: invalid card'),
  '1016': e('insufficient_funds', 'retry_later', 'Pagar.me: insufficient funds'),
  '1045': e('invalid_cvv', 'do_not_retry', 'Pagar.me: invalid security code'),
  '2000': e('pickup_card', 'do_not_retry', 'Pagar.me: refused, retain the card'),
  '9111': e('try_again', 'retry_other_provider', 'Pagar.me: time-out at the acquirer'),
  // Pagar.me's antifraud.
  antifraud_reproved: e('fraud_suspect', 'do_not_retry', 'Pagar.me antifraud: reproved'),
};

/** Pagar.me's earlier four-digit codes not named in the table, by family. */
const LEGACY_FAMILIES: ReadonlyArray<[RegExp, DeclineEntry]> = [
  [/^1\d{3}$/, e('generic', 'retry_other_provider', 'Pagar.me: refused by the issuer')],
  [/^2\d{3}$/, e('pickup_card', 'do_not_retry', 'Pagar.me: refused, retain the card')],
  [/^9\d{3}$/, e('try_again', 'retry_other_provider', 'Pagar.me: processing error at the acquirer')],
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
  return { declinedCode: 'generic', decision: 'do_not_retry', meaning: `code ${key || '(none)'} not in the table`, ...(key ? { code: key } : {}) };
}
