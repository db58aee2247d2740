import { AppError } from '@platform/kit';
import { RECOVERY_MAX_AGE_MS, recoverySince } from '../../src/domain/recovery';

const now = new Date('2026-11-22T03:10:48.000Z');
const at = (offsetMs: number) => new Date(now.getTime() + offsetMs);

function problem(since: Date | undefined): string | undefined {
  try {
    recoverySince(since, now);
    return undefined;
  } catch (error) {
    if (!(error instanceof AppError) || error.kind !== 'validation') throw error;
    return error.details?.map((d) => `${d.field} ${d.message}`).join('; ');
  }
}

describe('the since of a recovery', () => {
  it('takes any time from 14 days back up to now, bounds included', () => {
    for (const since of [at(-RECOVERY_MAX_AGE_MS), at(-RECOVERY_MAX_AGE_MS + 1), at(-60_000), now]) expect(problem(since)).toBeUndefined();
    expect(RECOVERY_MAX_AGE_MS).toBe(14 * 86_400_000);
  });

  it('refuses a time in the future, further back than 14 days, missing, or not a time, naming since', () => {
    expect(problem(at(1))).toBe('since must not be in the future');
    expect(problem(at(-RECOVERY_MAX_AGE_MS - 1))).toBe('since must be at most 14 days back');
    expect(problem(new Date(0))).toBe('since must be at most 14 days back');
    expect(problem(undefined)).toBe('since is required');
    expect(problem(new Date(Number.NaN))).toBe('since must be an RFC 3339 date-time');
  });
});
