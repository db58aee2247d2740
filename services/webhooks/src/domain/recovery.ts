import { errors } from '@platform/kit';

/** How far back a recovery may reach. */
export const RECOVERY_MAX_AGE_MS = 14 * 86_400_000;

/** A recovery as asked for: the webhook's events in [since, until] are delivered again. */
export interface Recovery {
  webhookId: string;
  since: Date;
  /** When it was asked for: events after it reach the webhook as usual. */
  until: Date;
  /** How many events the window holds. */
  events: number;
}

/** `since` checked against the clock: a time, not in the future, at most RECOVERY_MAX_AGE_MS back. */
export function recoverySince(since: Date | undefined, now: Date): Date {
  const invalid = (message: string) => errors.validation(`since ${message}`, [{ field: 'since', message }]);
  if (!since) throw invalid('is required');
  if (Number.isNaN(since.getTime())) throw invalid('must be an RFC 3339 date-time');
  if (since.getTime() > now.getTime()) throw invalid('must not be in the future');
  if (since.getTime() < now.getTime() - RECOVERY_MAX_AGE_MS) throw invalid('must be at most 14 days back');
  return since;
}
