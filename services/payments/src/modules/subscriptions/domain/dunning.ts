import { DAY_MS } from './calendar';

/** What follows a failed attempt to bill a cycle (dunning). */

/**
 * Declines that no retry can fix: the card is gone, blocked or not what it claims, so trying it again only adds
 * declines (and card networks fine merchants for retrying them). `pickup_card` is the issuer asking to retain the
 * card (lost, stolen or closed) and `card_not_supported` means the card cannot take this kind of payment at all;
 * neither changes with time, so both are permanent too.
 */
export const HARD_DECLINES: ReadonlySet<string> = new Set([
  'expired_card',
  'lost_card',
  'stolen_card',
  'restricted_card',
  'invalid_number',
  'fraud_confirmed',
  'pickup_card',
  'card_not_supported',
]);

export function isHardDecline(declinedCode: string | null | undefined): boolean {
  const code = declinedCode?.trim().toLowerCase();
  return code !== undefined && HARD_DECLINES.has(code);
}

/**
 * The client's retry policy, as it was when the cycle first failed: `retryDays[n - 1]` is how many days after
 * attempt n the next one runs; when every retry failed, the subscription is canceled or kept unpaid.
 */
export interface RetryPolicy {
  retryDays: number[];
  cancelAfterAllRetries: boolean;
}

export type FailedAttemptOutcome = { kind: 'retry'; retryAt: Date } | { kind: 'exhausted'; cancel: boolean; hardDecline: boolean };

/**
 * What follows a failed attempt (`attempt` is the 1-based number of the attempt that just failed): a retry while
 * the policy has one left, else the cycle is given up and the subscription canceled or kept, as the policy says.
 * A hard decline is never retried.
 */
export function afterFailedAttempt(input: { attempt: number; failedAt: Date; declinedCode: string | null; policy: RetryPolicy }): FailedAttemptOutcome {
  const { attempt, failedAt, declinedCode, policy } = input;
  if (!Number.isSafeInteger(attempt) || attempt < 1) throw new RangeError(`An attempt number must be a whole number from 1, not ${attempt}`);
  const cancel = policy.cancelAfterAllRetries;
  if (isHardDecline(declinedCode)) return { kind: 'exhausted', cancel, hardDecline: true };
  const days = policy.retryDays[attempt - 1];
  if (days === undefined) return { kind: 'exhausted', cancel, hardDecline: false };
  if (!Number.isFinite(days) || days < 0) throw new RangeError(`A retry policy step must be a number of days, not ${days}`);
  const failedTime = failedAt.getTime();
  if (Number.isNaN(failedTime)) throw new RangeError('The failed attempt has no valid time');
  return { kind: 'retry', retryAt: new Date(failedTime + days * DAY_MS) };
}
