import type { DeclineDecision } from '../../connectors/kit/tables';
import { brandRetryRuleOf } from './brandRetryRules';
import type { DeclinedCode } from './charge';

/**
 * Which answers of a provider move a charge on to the next one (cascading), and which stop it.
 *
 * - A provider known to have done nothing (unreachable before anything was sent) is a technical failure: the charge
 *   moves on within CASCADE_MAX_TECHNICAL_ATTEMPTS and its time budget, and the attempt counts against the card's
 *   brand limit all the same. An attempt whose outcome is unknown (no answer in time, a 5xx, a reset, an unreadable
 *   answer) is looked up first: found, it is the charge's answer; not found, it is a technical failure; cannot
 *   tell, the charge stops there, pending, the attempt `processing` for the status sync.
 * - A decline moves on only when its decision (the connector's decline table, kit/tables.ts) is
 *   `retry_other_provider`, within CASCADE_MAX_EXTRA_ATTEMPTS extra attempts per charge and within the card
 *   brand's retry rules (brandRetryRules.ts). `do_not_retry` and `retry_later` stop at once.
 * - An approval, a pending payment or a cancellation is the charge's answer.
 */

/** Extra providers a charge is tried on after soft declines, unless CASCADE_MAX_EXTRA_ATTEMPTS says otherwise. */
export const CASCADE_MAX_EXTRA_ATTEMPTS_DEFAULT = 2;

/** Providers a charge is tried on in all after technical failures, unless CASCADE_MAX_TECHNICAL_ATTEMPTS says otherwise. */
export const CASCADE_MAX_TECHNICAL_ATTEMPTS_DEFAULT = 3;

/** Declines that say "not now" rather than "no": the attempt is recorded as failed, not declined. */
export const TECHNICAL_DECLINE_CODES: readonly string[] = ['try_again', 'issuer_not_available'];

/**
 * The decision of a decline a connector gave without one (a refusal it made before asking the provider: missing
 * card data, incomplete credentials, a currency it does not take), by its declinedCode: the provider entry or the
 * acquirer, not the card, is what failed for try_again, issuer_not_available, invalid_merchant and
 * card_not_supported; insufficient funds waits; everything else is final.
 */
export const DEFAULT_DECISIONS: Readonly<Record<DeclinedCode, DeclineDecision>> = {
  card_not_supported: 'retry_other_provider',
  expired_card: 'do_not_retry',
  fraud_confirmed: 'do_not_retry',
  fraud_suspect: 'do_not_retry',
  generic: 'do_not_retry',
  insufficient_funds: 'retry_later',
  invalid_amount: 'do_not_retry',
  invalid_cvv: 'do_not_retry',
  invalid_data: 'do_not_retry',
  invalid_installment: 'do_not_retry',
  invalid_merchant: 'retry_other_provider',
  invalid_number: 'do_not_retry',
  invalid_pin: 'do_not_retry',
  issuer_not_available: 'retry_other_provider',
  lost_card: 'do_not_retry',
  not_permitted: 'do_not_retry',
  pickup_card: 'do_not_retry',
  pin_try_exceeded: 'do_not_retry',
  restricted_card: 'do_not_retry',
  security_violation: 'do_not_retry',
  service_not_allowed: 'do_not_retry',
  stolen_card: 'do_not_retry',
  transaction_not_allowed: 'do_not_retry',
  try_again: 'retry_other_provider',
};

/** How one authorization attempt ended, as far as routing cares. */
export type AttemptOutcome =
  /** The provider may have carried it out (no answer in time, a 5xx, a reset, an answer that could not be read). */
  | { kind: 'unknown' }
  /** Known to have done nothing (refused before anything was sent, no adapter, a skipped type). */
  | { kind: 'unavailable' }
  | { kind: 'authorized' }
  | { kind: 'pending' }
  | { kind: 'canceled' }
  | { kind: 'declined'; declinedCode: string; decision?: DeclineDecision };

/** The decision of a decline: the connector's, else the default of its declinedCode (a code we do not know: do_not_retry). */
export function decisionOf(outcome: { declinedCode: string; decision?: DeclineDecision }): DeclineDecision {
  return outcome.decision ?? DEFAULT_DECISIONS[outcome.declinedCode as DeclinedCode] ?? 'do_not_retry';
}

/**
 * technical: known to have done nothing, move on (within CASCADE_MAX_TECHNICAL_ATTEMPTS and the charge's time
 * budget); unknown: the outcome must be looked up before anything else (providerRequests.ts); soft_decline: a decline another provider may approve, move on within
 * the cap and the brand's rules (cascadeVerdict); final: the answer of the charge.
 */
export type AttemptClass = 'technical' | 'unknown' | 'soft_decline' | 'final';

export function classifyAttempt(outcome: AttemptOutcome): AttemptClass {
  switch (outcome.kind) {
    case 'unavailable':
      return 'technical';
    case 'unknown':
      return 'unknown';
    case 'declined':
      return decisionOf(outcome) === 'retry_other_provider' ? 'soft_decline' : 'final';
    case 'authorized':
    case 'pending':
    case 'canceled':
      return 'final';
    default: {
      const unknown: never = outcome;
      throw new Error(`unclassified attempt ${JSON.stringify(unknown)}`);
    }
  }
}

/** The card of a charge, as the brand rules see it. */
export interface CascadeCard {
  brand: string;
  /** Declined or failed authorizations of the same card fingerprint across the client in the brand's window (this charge's included). */
  failedAttempts: number;
}

export interface CascadeInput {
  /** The provider that declined, for the reason's text. */
  providerType: string;
  declinedCode: string;
  decision: DeclineDecision;
  /** Attempts this charge already moved on after a soft decline. */
  extraAttemptsSoFar: number;
  /** CASCADE_MAX_EXTRA_ATTEMPTS. */
  maxExtraAttempts: number;
  /** Absent for payments without a card: only the cap applies. */
  card?: CascadeCard;
}

export type CascadeVerdict = { cascade: true; reason: string } | { cascade: false; reason: string };

/**
 * Whether a decline moves the charge on to its next provider, and why, in the words recorded on the next attempt
 * ("cascade after CIELO declined generic (retry_other_provider)") or on the charge's last one when it stops.
 */
export function cascadeVerdict(input: CascadeInput): CascadeVerdict {
  const declined = `${input.providerType} declined ${input.declinedCode} (${input.decision})`;
  if (input.decision !== 'retry_other_provider') return { cascade: false, reason: `no cascade: ${declined}` };
  if (input.card) {
    const rule = brandRetryRuleOf(input.card.brand);
    if (rule.neverRetry.includes(input.declinedCode as DeclinedCode)) {
      return { cascade: false, reason: `no cascade: ${input.card.brand} forbids retrying ${input.declinedCode}` };
    }
    if (rule.reattemptsPer30Days !== null && input.card.failedAttempts >= rule.reattemptsPer30Days) {
      return {
        cascade: false,
        reason: `no cascade: the card has ${input.card.failedAttempts} failed attempts in 30 days, ${input.card.brand} allows ${rule.reattemptsPer30Days}`,
      };
    }
  }
  if (input.extraAttemptsSoFar >= input.maxExtraAttempts) {
    return { cascade: false, reason: `no cascade: ${input.maxExtraAttempts} extra attempts already made (CASCADE_MAX_EXTRA_ATTEMPTS)` };
  }
  return { cascade: true, reason: `cascade after ${declined}` };
}

/**
 * The declinedCode of a charge every provider failed technically: the last provider's own code when it gave
 * one (`issuer_not_available`, `try_again`), else `try_again` (a timeout or an unreachable provider is not a
 * code a client would know).
 */
export function declinedCodeAfterTechnicalFailures(last: AttemptOutcome | undefined): DeclinedCode {
  if (last?.kind === 'declined' && last.declinedCode === 'issuer_not_available') return 'issuer_not_available';
  return 'try_again';
}
