import type { DeclinedCode } from '../../charges/domain/charge';
import type { ProviderChargeStatus } from '../domain/types';

/**
 * The two tables every connector keeps in data, beside its transformers, so a reviewer reads what each of the
 * provider's codes does without reading code.
 */

/** The provider's status (as it writes it) -> the charge status it means. */
export type StatusTable = Readonly<Record<string, ProviderChargeStatus>>;

export interface DeclineEntry {
  declinedCode: DeclinedCode;
  /** A technical failure (the issuer or the acquirer could not decide): the charge moves on to its next provider. */
  technical: boolean;
  /** What the provider's manual says the code means. */
  meaning: string;
}

/** The provider's decline code -> our declinedCode, and whether it is technical. */
export type DeclineTable = Readonly<Record<string, DeclineEntry>>;

/** The entry of a code; a code the table does not know is a generic, final decline (never a silent approval). */
export function declineOf(table: DeclineTable, code: string | number | undefined | null): DeclineEntry {
  const key = code === undefined || code === null ? '' : String(code).trim();
  return table[key] ?? { declinedCode: 'generic', technical: false, meaning: `code ${key || '(none)'} not in the table` };
}

/** The charge status of a provider status; undefined when the table does not know it (nothing changes then). */
export function statusOf(table: StatusTable, providerStatus: string | number | undefined | null): ProviderChargeStatus | undefined {
  if (providerStatus === undefined || providerStatus === null) return undefined;
  return table[String(providerStatus)];
}
