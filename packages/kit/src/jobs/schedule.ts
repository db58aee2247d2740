import type { Queryable } from '../db';
import type { TraceCarrier } from '../trace';
import { attemptsLimit, jobKeyOf, JOBS_SCHEMA, storedPayload } from './stored';

export interface Job<P = Record<string, unknown>> {
  id: string;
  kind: string;
  payload: P;
  runAt: Date;
  /** This attempt's number, from 1. */
  attempts: number;
  maxAttempts: number;
  /** Set on a job started by a cron schedule: the time it stands for, and whether it was run late as a backfill. */
  cron?: { scheduledFor: Date; backfilled: boolean };
}

/** What a handler may ask for instead of finishing: run again later (e.g. the next retry of a schedule). */
export type JobOutcome = void | { rescheduleAt: Date; payload?: Record<string, unknown> };

export type JobHandler = (job: Job) => Promise<JobOutcome>;

/**
 * Recurring work. `pattern` is a cron pattern in UTC (`0 3 * * *`: daily at 03:00). After downtime, the runs missed
 * within `backfillPeriodMs` (counted from start-up, only since the schedule was first seen) are run late, each once.
 * Runs of one schedule never overlap, on one replica or across several.
 */
export interface CronSchedule {
  kind: string;
  pattern: string;
  backfillPeriodMs?: number;
  payload?: Record<string, unknown>;
  /** Attempts of each run (default 10); a schedule whose next run does the same work may want 1. */
  maxAttempts?: number;
}

/**
 * Schedules work in the caller's transaction, so it exists exactly when the change that needs it commits.
 * A dedupe key makes scheduling idempotent: while a job of that kind and key exists (waiting, running or failed for
 * good), a second schedule is ignored. Keys are free again once their job has finished.
 */
export interface JobSpec {
  kind: string;
  runAt: Date;
  payload?: Record<string, unknown>;
  dedupeKey?: string;
  maxAttempts?: number;
  /**
   * A named queue: the jobs of one queue run one at a time, in order, on every replica (a job of another queue or of
   * none is not held up by them). A queue's lock is released with its job's, a dead runner's too.
   */
  queue?: string;
  /** The trace the job continues; by default the one of the call that schedules it (none when tracing is off). */
  trace?: TraceCarrier;
}

export async function scheduleJob(tx: Queryable, job: JobSpec): Promise<string> {
  const { rows } = await tx.query<{ id: string }>(
    `SELECT (${JOBS_SCHEMA}.add_job($1, $2::json, run_at => $3, max_attempts => $4, job_key => $5, job_key_mode => 'unsafe_dedupe', queue_name => $6)).id`,
    [
      job.kind,
      storedPayload(job),
      job.runAt,
      attemptsLimit(job.maxAttempts),
      job.dedupeKey === undefined ? null : jobKeyOf(job.kind, job.dedupeKey),
      job.queue ?? null,
    ],
  );
  return String(rows[0]!.id);
}

/** Schedules many jobs in one statement, each as `scheduleJob` would; answers their ids in order. */
export async function scheduleJobs(tx: Queryable, jobs: ReadonlyArray<JobSpec>): Promise<string[]> {
  if (jobs.length === 0) return [];
  const { rows } = await tx.query<{ id: string }>(
    `SELECT (${JOBS_SCHEMA}.add_job(j.kind, j.payload::json, run_at => j.run_at, max_attempts => j.max_attempts, job_key => j.job_key, job_key_mode => 'unsafe_dedupe',
                                   queue_name => j.queue_name)).id
     FROM unnest($1::text[], $2::text[], $3::timestamptz[], $4::int[], $5::text[], $6::text[]) WITH ORDINALITY AS j(kind, payload, run_at, max_attempts, job_key, queue_name, n)
     ORDER BY j.n`,
    [
      jobs.map((j) => j.kind),
      jobs.map(storedPayload),
      jobs.map((j) => j.runAt),
      jobs.map((j) => attemptsLimit(j.maxAttempts)),
      jobs.map((j) => (j.dedupeKey === undefined ? null : jobKeyOf(j.kind, j.dedupeKey))),
      jobs.map((j) => j.queue ?? null),
    ],
  );
  return rows.map((r) => String(r.id));
}

/**
 * Cancels the job of that kind and key in the caller's transaction: a waiting one is removed; a running one finishes
 * its attempt but is not retried and no longer holds the key. Returns how many were cancelled (0 or 1).
 */
export async function cancelJobs(tx: Queryable, where: { kind: string; dedupeKey: string }): Promise<number> {
  const { rows } = await tx.query<{ id: string | null }>(`SELECT (${JOBS_SCHEMA}.remove_job($1)).id`, [jobKeyOf(where.kind, where.dedupeKey)]);
  return rows.filter((r) => r.id !== null).length;
}
