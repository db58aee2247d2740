import { traceCarrier, type TraceCarrier } from '../trace';

/**
 * Durable jobs on graphile-worker: its tables live in their own schema of the service's database, jobs are added
 * with SQL in the caller's transaction, NOTIFY wakes a runner as soon as a due job commits, and row locks make each
 * attempt run on one replica only.
 */
export const JOBS_SCHEMA = 'graphile_worker';

/** graphile-worker keeps attempts in a smallint. */
const MAX_ATTEMPTS_LIMIT = 32_767;
const DEFAULT_MAX_ATTEMPTS = 10;

export function jobKeyOf(kind: string, dedupeKey: string): string {
  return `${kind}:${dedupeKey}`;
}

export function attemptsLimit(maxAttempts: number | undefined): number {
  return Math.max(1, Math.min(MAX_ATTEMPTS_LIMIT, Math.floor(maxAttempts ?? DEFAULT_MAX_ATTEMPTS)));
}

/** The payload as stored: the job's own fields, and the trace it continues under `_trace`. */
export function storedPayload(job: { payload?: Record<string, unknown>; trace?: TraceCarrier }): string {
  const trace = job.trace ?? traceCarrier();
  return JSON.stringify(trace ? { ...job.payload, _trace: trace } : (job.payload ?? {}));
}
