import { EventEmitter } from 'node:events';
import {
  Logger as WorkerLogger,
  parseCronItems,
  run,
  runMigrations,
  runOnce,
  type JobHelpers,
  type LogLevel,
  type Runner,
  type SharedOptions,
  type Task,
  type TaskList,
  type WorkerEvents,
} from 'graphile-worker';
import type { Pool } from 'pg';
import { serializeError, type Logger } from '../log';
import { counter } from '../metrics';
import { contextFrom, inSpan, SpanKind, type TraceCarrier } from '../trace';
import type { CronSchedule, Job, JobHandler, JobOutcome } from './schedule';
import { attemptsLimit, jobKeyOf, JOBS_SCHEMA, storedPayload } from './stored';

/**
 * What graphile-worker reports as an error, as a log field: an error (or error-like object) goes through the
 * kit's error serializer (message, code, stack, cause; pg fields without row data); anything else as text.
 */
function errorFields(error: unknown): unknown {
  if (error === undefined || error === null) return undefined;
  if (typeof error === 'object') return serializeError(error);
  return { message: String(error) };
}

/** graphile-worker's log lines through the service's logger: its per-job chatter at debug, failures as warnings. */
export function workerLogger(log: Logger): WorkerLogger {
  return new WorkerLogger((scope) => (level: LogLevel, message: string, meta?: Record<string, unknown>) => {
    const job = meta?.job as { id?: string; task_identifier?: string; attempts?: number; max_attempts?: number } | undefined;
    if (meta?.failure && job) {
      const failed = (job.attempts ?? 0) >= (job.max_attempts ?? 0);
      log.warn(
        { err: errorFields(meta.error), jobId: job.id, kind: job.task_identifier, attempts: job.attempts, maxAttempts: job.max_attempts, failed },
        failed ? 'job failed for good' : 'job failed; retrying with backoff',
      );
      return;
    }
    const fields = { worker: scope.workerId, kind: scope.taskIdentifier, jobId: scope.jobId, ...(meta?.error ? { err: errorFields(meta.error) } : {}) };
    switch (String(level)) {
      case 'error':
        log.error(fields, message);
        break;
      case 'warning':
        log.warn(fields, message);
        break;
      case 'info':
        log.debug(fields, message);
        break;
      default:
        log.trace(fields, message);
    }
  });
}

const guardedPools = new WeakSet<Pool>();

/**
 * A connection that fails while checked out (a runner's LISTEN connection, say) reports to its own error listener;
 * without one the process would crash. graphile-worker insists on this before it uses the pool.
 */
function guardClientErrors(pool: Pool, log: Logger): void {
  if (guardedPools.has(pool)) return;
  guardedPools.add(pool);
  pool.on('connect', (client) => {
    client.on('error', (err) => log.warn({ err }, 'database connection failed'));
  });
}

/**
 * Creates or upgrades graphile-worker's schema. Replicas starting together take turns under an advisory lock; the
 * service's start-up runs this before its own migrations.
 */
export async function migrateJobs(pool: Pool, log: Logger): Promise<void> {
  guardClientErrors(pool, log);
  const lock = await pool.connect();
  try {
    await lock.query(`SELECT pg_advisory_lock(hashtext('${JOBS_SCHEMA}_migrations'))`);
    await runMigrations({ pgPool: pool, schema: JOBS_SCHEMA, logger: workerLogger(log) });
  } finally {
    await lock.query(`SELECT pg_advisory_unlock(hashtext('${JOBS_SCHEMA}_migrations'))`).catch(() => undefined);
    lock.release();
  }
}

function jobOf(rawPayload: unknown, helpers: JobHelpers): Job & { trace?: TraceCarrier } {
  const {
    _cron: cron,
    _trace: trace,
    ...payload
  } = (rawPayload && typeof rawPayload === 'object' ? rawPayload : {}) as Record<string, unknown> & {
    _cron?: { ts: string; backfilled?: boolean };
    _trace?: TraceCarrier;
  };
  const source = helpers.job;
  return {
    id: String(source.id),
    kind: source.task_identifier,
    payload,
    runAt: new Date(source.run_at),
    attempts: source.attempts,
    maxAttempts: source.max_attempts,
    ...(cron ? { cron: { scheduledFor: new Date(cron.ts), backfilled: cron.backfilled === true } } : {}),
    ...(trace ? { trace } : {}),
  };
}

const completedTotal = () =>
  counter({ name: 'jobs_completed_total', help: 'Job attempts finished, by task and outcome (succeeded or failed)', labelNames: ['task', 'outcome'] });

export interface JobRunnerOptions {
  pool: Pool;
  log: Logger;
  handlers: Record<string, JobHandler>;
  cron?: CronSchedule[];
  /**
   * How often future jobs are looked for; default 1000 ms. Due ones are announced by NOTIFY when they commit, on any
   * replica, and a LISTEN connection that drops is opened again (then the workers look at once).
   */
  pollMs?: number;
  /** Jobs run at the same time by this runner; default 5. */
  concurrency?: number;
  /**
   * How long a runner may go without showing it is alive before the jobs it holds are released to the others (its
   * process was killed mid-job, say); default 15 s. A live runner keeps its jobs however long they take.
   */
  leaseMs?: number;
}

/**
 * Runs the service's jobs and cron schedules with graphile-worker. A failed attempt is retried with exponential
 * backoff (about e^attempts seconds) up to the job's max attempts; a job that asks to be rescheduled is added again
 * under its key and this attempt completes.
 */
export class JobRunner {
  private runner?: Runner;
  private readonly workerLog: WorkerLogger;
  private readonly workerIds = new Set<string>();
  private heartbeat?: NodeJS.Timeout;
  private beating?: Promise<void>;

  constructor(private readonly options: JobRunnerOptions) {
    this.workerLog = workerLogger(options.log);
    const kinds = new Set<string>();
    for (const schedule of options.cron ?? []) {
      if (!options.handlers[schedule.kind]) throw new Error(`cron schedule ${schedule.kind} has no handler`);
      if (kinds.has(schedule.kind)) throw new Error(`cron schedule ${schedule.kind} is declared twice`);
      kinds.add(schedule.kind);
    }
  }

  private shared(): SharedOptions {
    guardClientErrors(this.options.pool, this.options.log);
    return { pgPool: this.options.pool, schema: JOBS_SCHEMA, logger: this.workerLog };
  }

  private taskList(onRun?: (jobId: string) => void): TaskList {
    const tasks: TaskList = {};
    const completed = completedTotal();
    for (const [kind, handler] of Object.entries(this.options.handlers)) {
      const succeeded = completed.labels({ task: kind, outcome: 'succeeded' });
      const failed = completed.labels({ task: kind, outcome: 'failed' });
      const task: Task = async (rawPayload, helpers) => {
        const { trace, ...job } = jobOf(rawPayload, helpers);
        onRun?.(job.id);
        let outcome: JobOutcome;
        try {
          outcome = await inSpan(`job ${kind}`, { kind: SpanKind.CONSUMER, parent: contextFrom(trace), attributes: { 'job.attempt': job.attempts } }, () => handler(job));
          succeeded.inc();
        } catch (error) {
          failed.inc();
          throw error;
        }
        if (outcome && 'rescheduleAt' in outcome) {
          // In `replace` mode a key held by this running job is taken from it (and it is not retried), so the new
          // job is added rather than merged into the one that is about to complete. A job without a key gets one
          // from its id: should this attempt run again (its runner killed before it completed), its reschedule
          // replaces the first one instead of starting a second chain.
          await helpers.query(
            `SELECT ${JOBS_SCHEMA}.add_job($1, $2::json, run_at => $3, max_attempts => $4, job_key => $5, job_key_mode => 'replace')`,
            [
              kind,
              // The next run continues the same trace as this one.
              storedPayload({ payload: outcome.payload ?? job.payload, trace }),
              outcome.rescheduleAt,
              job.maxAttempts,
              helpers.job.key ?? jobKeyOf(kind, `rescheduled:${job.id}`),
            ],
          );
        }
      };
      tasks[kind] = task;
    }
    return tasks;
  }

  /** Starts taking jobs and keeping the cron schedules (installing graphile-worker's schema if it is missing). */
  async start(): Promise<void> {
    if (this.runner) return;
    const cron = parseCronItems(
      (this.options.cron ?? []).map((schedule) => ({
        task: schedule.kind,
        identifier: schedule.kind,
        match: schedule.pattern,
        payload: schedule.payload ?? {},
        options: {
          backfillPeriod: schedule.backfillPeriodMs ?? 0,
          maxAttempts: attemptsLimit(schedule.maxAttempts),
          // One queue per schedule: its runs take turns, on every replica.
          queueName: `cron:${schedule.kind}`,
        },
      })),
    );
    const events: WorkerEvents = new EventEmitter();
    // Jobs are locked in the name of the worker pool, so that is the id kept alive.
    events.on('pool:create', ({ workerPool }) => this.workerIds.add(workerPool.id));
    const concurrency = this.options.concurrency ?? 5;
    // A job added while the LISTEN connection was down (or before it first listened) announced itself to nobody: once
    // the connection listens again, the idle workers look for jobs now instead of at the next poll. graphile-worker
    // sends its LISTEN right after this event: the second LISTEN (a no-op) is queued behind it on the same connection,
    // so the look happens once the listening has begun.
    events.on('pool:listen:success', ({ workerPool, client }) => {
      queueMicrotask(() => {
        client.query('LISTEN "jobs:insert"').then(
          () => {
            try {
              workerPool.nudge(concurrency);
            } catch {
              // The pool is shutting down: its workers no longer take nudges.
            }
          },
          () => undefined,
        );
      });
    });
    this.runner = await run({
      ...this.shared(),
      events,
      taskList: this.taskList(),
      parsedCronItems: cron,
      concurrency,
      pollInterval: this.options.pollMs ?? 1000,
      noHandleSignals: true,
    });
    const leaseMs = this.options.leaseMs ?? 15_000;
    this.beating = this.beat(leaseMs);
    this.heartbeat = setInterval(() => {
      this.beating = (this.beating ?? Promise.resolve()).then(() => this.beat(leaseMs));
    }, Math.max(50, Math.floor(leaseMs / 3)));
    this.heartbeat.unref();
  }

  /**
   * Shows this runner's workers are alive, and releases the jobs of workers that are not: locked for longer than the
   * lease by a worker nobody has seen within it. graphile-worker itself would wait four hours.
   */
  private async beat(leaseMs: number): Promise<void> {
    const { pool, log } = this.options;
    try {
      const lease = `${leaseMs} milliseconds`;
      await pool.query(
        `INSERT INTO job_workers (worker_id, seen_at) SELECT unnest($1::text[]), now()
         ON CONFLICT (worker_id) DO UPDATE SET seen_at = now()`,
        [[...this.workerIds]],
      );
      const { rows } = await pool.query<{ worker_id: string }>(
        `SELECT DISTINCT jobs.locked_by AS worker_id FROM ${JOBS_SCHEMA}.jobs
         WHERE jobs.locked_by IS NOT NULL AND jobs.locked_at < now() - $1::interval
           AND NOT EXISTS (SELECT 1 FROM job_workers w WHERE w.worker_id = jobs.locked_by AND w.seen_at > now() - $1::interval)`,
        [lease],
      );
      if (rows.length > 0) {
        const dead = rows.map((r) => r.worker_id);
        await pool.query(`SELECT ${JOBS_SCHEMA}.force_unlock_workers($1::text[])`, [dead]);
        log.warn({ workers: dead }, 'released the jobs of job workers that stopped');
      }
      await pool.query(`DELETE FROM job_workers WHERE seen_at < now() - interval '1 day'`);
    } catch (err) {
      log.warn({ err: errorFields(err) }, 'job worker heartbeat failed');
    }
  }

  /** Lets running jobs finish, then stops. */
  async stop(): Promise<void> {
    const runner = this.runner;
    this.runner = undefined;
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = undefined;
    await this.beating;
    await runner?.stop();
    if (this.workerIds.size > 0) {
      const ids = [...this.workerIds];
      this.workerIds.clear();
      await this.options.pool.query('DELETE FROM job_workers WHERE worker_id = ANY($1::text[])', [ids]).catch(() => undefined);
    }
  }

  /**
   * Runs the jobs due now (and those they make due now) on this process, then returns how many attempts ran, once
   * each attempt's outcome is recorded.
   */
  async runDue(): Promise<number> {
    const ran: string[] = [];
    await runOnce({ ...this.shared(), taskList: this.taskList((id) => ran.push(id)), noHandleSignals: true });
    // graphile-worker records an attempt's outcome without waiting for it: wait until none of them is locked.
    const deadline = Date.now() + 10_000;
    for (;;) {
      const { rows } = await this.options.pool.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM ${JOBS_SCHEMA}._private_jobs WHERE id = ANY($1::bigint[]) AND locked_at IS NOT NULL`,
        [ran],
      );
      if (rows[0]!.n === 0) break;
      if (Date.now() > deadline) throw new Error(`jobs ${ran.join(', ')} still locked after their run`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    return ran.length;
  }
}
