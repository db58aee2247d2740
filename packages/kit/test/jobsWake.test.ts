import { createPool, JobRunner, migrateJobs, scheduleJob, withTransaction, type Pool } from '../src';
import { kitDatabase, silentLog } from './helpers';

const AN_HOUR = 3600_000;

describe('job runner wake-ups', () => {
  let pool: Pool;
  /** Another process's pool on the same database. */
  let other: Pool;
  const runners: JobRunner[] = [];

  beforeAll(async () => {
    pool = await kitDatabase('jobswake');
    await migrateJobs(pool, silentLog);
    other = createPool({ url: pool.options.connectionString!, log: silentLog, size: 2 });
  });
  afterEach(async () => {
    await Promise.all(runners.splice(0).map((r) => r.stop()));
  });
  afterAll(async () => {
    await other.end();
    await pool.end();
  });

  /** A runner polling once an hour, and a way to wait until a given job has run. */
  function runner(kind: string) {
    const ran = new Set<string>();
    const waiters = new Map<string, () => void>();
    const r = new JobRunner({
      pool,
      log: silentLog,
      pollMs: AN_HOUR,
      concurrency: 2,
      handlers: {
        [kind]: async (job) => {
          const n = String(job.payload.n);
          ran.add(n);
          waiters.get(n)?.();
        },
      },
    });
    runners.push(r);
    const ranOf = (n: number) => (ran.has(String(n)) ? Promise.resolve() : new Promise<void>((resolve) => waiters.set(String(n), resolve)));
    return { runner: r, ranOf };
  }

  const schedule = (kind: string, n: number) => withTransaction(other, (tx) => scheduleJob(tx, { kind, runAt: new Date(Date.now() - 1000), payload: { n } }));

  it('runs a job added by another process as it commits, the poll an hour away', async () => {
    const { runner: r, ranOf } = runner('wake');
    await r.start();
    // The start's look and the one after LISTEN may take one job each; the third needs the notification.
    for (let n = 0; n < 4; n++) {
      await schedule('wake', n);
      await ranOf(n);
    }
  });

  it('listens again after its LISTEN connection is terminated, and runs what was added meanwhile', async () => {
    const { runner: r, ranOf } = runner('relisten');
    await r.start();
    await schedule('relisten', 0);
    await ranOf(0);
    const { rowCount } = await pool.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
        WHERE datname = current_database() AND query LIKE 'LISTEN "jobs:insert"%' AND pid <> pg_backend_pid()`,
    );
    expect(rowCount).toBeGreaterThanOrEqual(1);
    // Added while nobody listens: found by the look that follows the new LISTEN.
    await schedule('relisten', 1);
    await ranOf(1);
    for (let n = 2; n < 5; n++) {
      await schedule('relisten', n);
      await ranOf(n);
    }
  });
});
