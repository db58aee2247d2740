import type { Pool } from 'pg';
import type { Queryable } from '../db';
import { addCollector, gauge } from '../metrics';
import { JOBS_SCHEMA } from './stored';

/**
 * The job queue at scrape time, by task: due and waiting for a worker, running, failed for good; and how long the
 * oldest due job has waited. A growing age means the runners cannot keep up (or none is running).
 */
export function collectJobMetrics(pool: Pool): () => void {
  const due = gauge({ name: 'jobs_due', help: 'Jobs due to run and not yet taken by a worker', labelNames: ['task'] });
  const running = gauge({ name: 'jobs_running', help: 'Jobs a worker is running now', labelNames: ['task'] });
  const failed = gauge({ name: 'jobs_failed', help: 'Jobs that failed every attempt and will not run again', labelNames: ['task'] });
  const oldest = gauge({ name: 'jobs_oldest_due_age_seconds', help: 'How long the oldest due job has waited for a worker' });
  return addCollector(async () => {
    const { rows } = await pool.query<{ task: string; due: string; running: string; failed: string; age: number | null }>(
      `SELECT task_identifier AS task,
              count(*) FILTER (WHERE locked_at IS NULL AND run_at <= now() AND attempts < max_attempts) AS due,
              count(*) FILTER (WHERE locked_at IS NOT NULL) AS running,
              count(*) FILTER (WHERE attempts >= max_attempts AND locked_at IS NULL) AS failed,
              extract(epoch FROM now() - min(run_at) FILTER (WHERE locked_at IS NULL AND run_at <= now() AND attempts < max_attempts))::float8 AS age
         FROM ${JOBS_SCHEMA}.jobs GROUP BY task_identifier`,
    );
    for (const gaugeOf of [due, running, failed]) gaugeOf.reset();
    let age = 0;
    for (const row of rows) {
      due.set({ task: row.task }, Number(row.due));
      running.set({ task: row.task }, Number(row.running));
      failed.set({ task: row.task }, Number(row.failed));
      age = Math.max(age, row.age ?? 0);
    }
    oldest.set(age);
  });
}

export interface StoredJob {
  id: string;
  kind: string;
  payload: Record<string, unknown>;
  runAt: Date;
  attempts: number;
  maxAttempts: number;
  /** The dedupe key it was scheduled with (null for none). */
  dedupeKey: string | null;
  lastError: string | null;
  running: boolean;
}

/** The jobs of a kind still held (waiting, running, or failed for good), soonest first: for operations and tests. */
export async function listJobs(db: Queryable, kind: string): Promise<StoredJob[]> {
  const { rows } = await db.query<{
    id: string;
    payload: Record<string, unknown>;
    run_at: Date;
    attempts: number;
    max_attempts: number;
    key: string | null;
    last_error: string | null;
    locked_at: Date | null;
  }>(
    `SELECT j.id, j.payload, j.run_at, j.attempts, j.max_attempts, j.key, j.last_error, j.locked_at
     FROM ${JOBS_SCHEMA}._private_jobs j JOIN ${JOBS_SCHEMA}._private_tasks t ON t.id = j.task_id
     WHERE t.identifier = $1 ORDER BY j.run_at, j.id`,
    [kind],
  );
  const prefix = `${kind}:`;
  return rows.map((r) => ({
    id: String(r.id),
    kind,
    payload: r.payload,
    runAt: r.run_at,
    attempts: r.attempts,
    maxAttempts: r.max_attempts,
    dedupeKey: r.key === null ? null : r.key.startsWith(prefix) ? r.key.slice(prefix.length) : r.key,
    lastError: r.last_error,
    running: r.locked_at !== null,
  }));
}
