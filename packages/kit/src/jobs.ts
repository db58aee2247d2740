import { randomUUID } from 'node:crypto';
import type { Pool } from 'pg';
import type { Queryable } from './db';
import type { Logger } from './log';

export interface Job<P = Record<string, unknown>> {
  id: string;
  kind: string;
  payload: P;
  runAt: Date;
  attempts: number;
  maxAttempts: number;
}

/** What a handler may ask for instead of finishing: run again later (e.g. the next retry of a schedule). */
export type JobOutcome = void | { rescheduleAt: Date; payload?: Record<string, unknown> };

export type JobHandler = (job: Job) => Promise<JobOutcome>;

/**
 * Schedules work in the caller's transaction, so it exists exactly when the change that needs it commits.
 * A dedupe key makes scheduling idempotent (the second schedule with the same key is ignored).
 */
export async function scheduleJob(
  tx: Queryable,
  job: { kind: string; runAt: Date; payload?: Record<string, unknown>; dedupeKey?: string; maxAttempts?: number },
): Promise<string> {
  const id = randomUUID();
  await tx.query(
    `INSERT INTO jobs (id, kind, payload, run_at, dedupe_key, max_attempts) VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (dedupe_key) DO NOTHING`,
    [id, job.kind, JSON.stringify(job.payload ?? {}), job.runAt, job.dedupeKey ?? null, job.maxAttempts ?? 10],
  );
  return id;
}

export async function cancelJobs(tx: Queryable, where: { kind: string; dedupeKey: string }): Promise<number> {
  const result = await tx.query(
    `UPDATE jobs SET status = 'canceled', updated_at = now() WHERE kind = $1 AND dedupe_key = $2 AND status = 'pending'`,
    [where.kind, where.dedupeKey],
  );
  return result.rowCount ?? 0;
}

interface JobRow {
  id: string;
  kind: string;
  payload: Record<string, unknown>;
  run_at: Date;
  attempts: number;
  max_attempts: number;
}

/**
 * Runs due jobs. A job is leased (locked_until) when claimed, so replicas never run it at the same time and a
 * crashed runner's job is picked up again when the lease expires. Failures back off exponentially.
 */
export class JobRunner {
  private running = false;
  private loop?: Promise<void>;
  private wake?: () => void;

  constructor(
    private readonly deps: {
      pool: Pool;
      log: Logger;
      handlers: Record<string, JobHandler>;
      pollMs?: number;
      leaseMs?: number;
      batchSize?: number;
    },
  ) {}

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.run();
  }

  kick(): void {
    this.wake?.();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.wake?.();
    await this.loop;
  }

  /** Claims and runs the jobs due now; returns how many ran. */
  async runDue(): Promise<number> {
    const kinds = Object.keys(this.deps.handlers);
    if (kinds.length === 0) return 0;
    const leaseMs = this.deps.leaseMs ?? 60_000;
    const { rows } = await this.deps.pool.query<JobRow>(
      `UPDATE jobs SET locked_until = now() + ($1 || ' milliseconds')::interval, attempts = attempts + 1, updated_at = now()
       WHERE id IN (
         SELECT id FROM jobs
         WHERE status = 'pending' AND run_at <= now() AND kind = ANY($2::text[])
           AND (locked_until IS NULL OR locked_until < now())
         ORDER BY run_at LIMIT $3 FOR UPDATE SKIP LOCKED)
       RETURNING id, kind, payload, run_at, attempts, max_attempts`,
      [String(leaseMs), kinds, this.deps.batchSize ?? 20],
    );
    await Promise.all(rows.map((row) => this.runOne(row)));
    return rows.length;
  }

  private async runOne(row: JobRow): Promise<void> {
    const handler = this.deps.handlers[row.kind];
    const job: Job = { id: row.id, kind: row.kind, payload: row.payload, runAt: row.run_at, attempts: row.attempts, maxAttempts: row.max_attempts };
    try {
      const outcome = handler ? await handler(job) : undefined;
      if (outcome && 'rescheduleAt' in outcome) {
        await this.deps.pool.query(
          `UPDATE jobs SET run_at = $2, locked_until = NULL, attempts = 0, payload = COALESCE($3, payload), updated_at = now() WHERE id = $1`,
          [row.id, outcome.rescheduleAt, outcome.payload ? JSON.stringify(outcome.payload) : null],
        );
      } else {
        await this.deps.pool.query(`UPDATE jobs SET status = 'done', locked_until = NULL, updated_at = now() WHERE id = $1`, [row.id]);
      }
    } catch (error) {
      const failed = row.attempts >= row.max_attempts;
      const backoffMs = Math.min(3600_000, 1000 * 2 ** row.attempts);
      this.deps.log.warn({ err: error, jobId: row.id, kind: row.kind, attempts: row.attempts, failed }, 'job failed');
      await this.deps.pool.query(
        `UPDATE jobs SET status = $2, run_at = now() + ($3 || ' milliseconds')::interval, locked_until = NULL,
           last_error = $4, updated_at = now() WHERE id = $1`,
        [row.id, failed ? 'failed' : 'pending', String(backoffMs), String((error as Error)?.message ?? error).slice(0, 2000)],
      );
    }
  }

  private async run(): Promise<void> {
    const pollMs = this.deps.pollMs ?? 500;
    while (this.running) {
      let ran = 0;
      try {
        ran = await this.runDue();
      } catch (error) {
        this.deps.log.warn({ err: error }, 'job poll failed');
      }
      if (ran > 0) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, pollMs);
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wake = undefined;
    }
  }
}
