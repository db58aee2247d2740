import type { DeclinedCode } from '../../charges/domain/charge';
import type { DeclineDecision, ProviderChargeStatus } from '../domain/types';

/**
 * The two tables every connector keeps in data, beside its transformers, so a reviewer reads what each of the
 * provider's codes does without reading code.
 */

/** The provider's status (as it writes it) -> the charge status it means. */
export type StatusTable = Readonly<Record<string, ProviderChargeStatus>>;

/** The decline vocabulary is the domain's (domain/types.ts); the tables speak it. */
export { DECLINE_DECISIONS, type DeclineDecision } from '../domain/types';

export interface DeclineEntry {
  declinedCode: DeclinedCode;
  /** What the platform does after this decline. */
  decision: DeclineDecision;
  /** What the provider's manual says the code means. */
  meaning: string;
}

/** The provider's decline code -> our declinedCode and the decision it leads to. */
export type DeclineTable = Readonly<Record<string, DeclineEntry>>;

/** The entry of a code; a code the table does not know is a generic decline never retried (never a silent approval). */
export function declineOf(table: DeclineTable, code: string | number | undefined | null): DeclineEntry {
  const key = code === undefined || code === null ? '' : String(code).trim();
  return table[key] ?? { declinedCode: 'generic', decision: 'do_not_retry', meaning: `code ${key || '(none)'} not in the table` };
}

/**
 * The acquirer or the issuer could not decide (try_again, issuer_not_available): a capture, void or refund refused
 * so is a technical failure, retried later, whatever the authorization's decision would be.
 */
export function isTechnicalDecline(entry: Pick<DeclineEntry, 'declinedCode'>): boolean {
  return entry.declinedCode === 'try_again' || entry.declinedCode === 'issuer_not_available';
}

/** Whether a decline moves the charge on to its next provider (a soft or technical decline). */
export function retriesOnOtherProvider(entry: Pick<DeclineEntry, 'decision'>): boolean {
  return entry.decision === 'retry_other_provider';
}

/**
 * Mastercard's Merchant Advice Codes (Cielo, "Card Brands Retry Program", MAC table; the same values Adyen, Stripe
 * and the acquirers pass on) -> the decision they force, whatever the response code said. 03 ("retry is not
 * allowed") and 21 ("plan cancelled") are charged from the first retry: never retry. 40 and 41 (non-reloadable
 * prepaid, single-use virtual card) are never retried either. 02 and 24 to 30 ("try again later", after an hour to
 * ten days, given with an insufficient funds decline) ask for a later retry. 01 (new account information) and 04
 * (token requirements) need new data: never retried as they are.
 */
export const MASTERCARD_ADVICE_DECISIONS: Readonly<Record<string, DeclineDecision>> = {
  '01': 'do_not_retry',
  '02': 'retry_later',
  '03': 'do_not_retry',
  '04': 'do_not_retry',
  '21': 'do_not_retry',
  '24': 'retry_later',
  '25': 'retry_later',
  '26': 'retry_later',
  '27': 'retry_later',
  '28': 'retry_later',
  '29': 'retry_later',
  '30': 'retry_later',
  '40': 'do_not_retry',
  '41': 'do_not_retry',
};

/**
 * The entry once the Mastercard merchant advice code that came with the decline is read: a code of the table above
 * overrides the response code's decision (03 and 21 always end in do_not_retry); no code, or one not listed, keeps it.
 */
export function withAdviceCode(entry: DeclineEntry, adviceCode: string | number | undefined | null): DeclineEntry {
  if (adviceCode === undefined || adviceCode === null) return entry;
  const raw = String(adviceCode).trim();
  const key = /^\d$/.test(raw) ? `0${raw}` : raw;
  const decision = MASTERCARD_ADVICE_DECISIONS[key];
  if (!decision || decision === entry.decision) return entry;
  return { ...entry, decision, meaning: `${entry.meaning}; Mastercard merchant advice code ${key}` };
}

/** The charge status of a provider status; undefined when the table does not know it (nothing changes then). */
export function statusOf(table: StatusTable, providerStatus: string | number | undefined | null): ProviderChargeStatus | undefined {
  if (providerStatus === undefined || providerStatus === null) return undefined;
  return table[String(providerStatus)];
}
