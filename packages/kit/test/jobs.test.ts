import { JobRunner, scheduleJob, withTransaction, type Job, type Pool } from '../src';
import { kitDatabase, silentLog } from './helpers';

describe('durable jobs', () => {
  let pool: Pool;
  beforeAll(async () => {
    pool = await kitDatabase('jobs');
  });
  afterAll(async () => {
    await pool.end();
  });

  it('runs a due job once across competing runners and leaves future ones alone', async () => {
    const ran: string[] = [];
    await scheduleJob(pool, { kind: 'once', runAt: new Date(Date.now() - 1000), payload: { tag: 'due' } });
    await scheduleJob(pool, { kind: 'once', runAt: new Date(Date.now() + 3600_000), payload: { tag: 'later' } });
    const handlers = { once: async (job: Job) => void ran.push(String(job.payload.tag)) };
    const runners = [1, 2, 3].map(() => new JobRunner({ pool, log: silentLog, handlers }));
    await Promise.all(runners.map((r) => r.runDue()));
    expect(ran).toEqual(['due']);
    const { rows } = await pool.query(`SELECT payload->>'tag' AS tag, status FROM jobs WHERE kind = 'once' ORDER BY run_at`);
    expect(rows).toEqual([
      { tag: 'due', status: 'done' },
      { tag: 'later', status: 'pending' },
    ]);
  });

  it('exists only if the scheduling transaction commits, and a dedupe key schedules once', async () => {
    await expect(
      withTransaction(pool, async (tx) => {
        await scheduleJob(tx, { kind: 'tx', runAt: new Date(), dedupeKey: 'tx-1' });
        throw new Error('rolled back');
      }),
    ).rejects.toThrow();
    await scheduleJob(pool, { kind: 'tx', runAt: new Date(), dedupeKey: 'tx-2' });
    await scheduleJob(pool, { kind: 'tx', runAt: new Date(), dedupeKey: 'tx-2' });
    const { rows } = await pool.query(`SELECT dedupe_key FROM jobs WHERE kind = 'tx'`);
    expect(rows).toEqual([{ dedupe_key: 'tx-2' }]);
  });

  it('backs off after a failure, gives up after max attempts, and honours a reschedule', async () => {
    await scheduleJob(pool, { kind: 'flaky', runAt: new Date(Date.now() - 1000), maxAttempts: 2 });
    await scheduleJob(pool, { kind: 'again', runAt: new Date(Date.now() - 1000) });
    const later = new Date(Date.now() + 3600_000);
    const runner = new JobRunner({
      pool,
      log: silentLog,
      handlers: {
        flaky: async () => {
          throw new Error('provider down');
        },
        again: async () => ({ rescheduleAt: later, payload: { step: 2 } }),
      },
    });
    await runner.runDue();
    let flaky = (await pool.query(`SELECT status, attempts, run_at, last_error FROM jobs WHERE kind = 'flaky'`)).rows[0];
    expect(flaky.status).toBe('pending');
    expect(flaky.attempts).toBe(1);
    expect(flaky.last_error).toBe('provider down');
    expect(new Date(flaky.run_at).getTime()).toBeGreaterThan(Date.now());
    await pool.query(`UPDATE jobs SET run_at = now() - interval '1 second' WHERE kind = 'flaky'`);
    await runner.runDue();
    flaky = (await pool.query(`SELECT status, attempts FROM jobs WHERE kind = 'flaky'`)).rows[0];
    expect(flaky).toEqual({ status: 'failed', attempts: 2 });
    const again = (await pool.query(`SELECT status, run_at, payload FROM jobs WHERE kind = 'again'`)).rows[0];
    expect(again.status).toBe('pending');
    expect(new Date(again.run_at).getTime()).toBe(later.getTime());
    expect(again.payload).toEqual({ step: 2 });
  });

  it('takes over a job whose runner died holding the lease once the lease expires', async () => {
    await scheduleJob(pool, { kind: 'lease', runAt: new Date(Date.now() - 1000) });
    await pool.query(`UPDATE jobs SET locked_until = now() + interval '1 hour', attempts = 1 WHERE kind = 'lease'`);
    const ran: string[] = [];
    const runner = new JobRunner({ pool, log: silentLog, handlers: { lease: async (j) => void ran.push(j.id) } });
    expect(await runner.runDue()).toBe(0);
    await pool.query(`UPDATE jobs SET locked_until = now() - interval '1 second' WHERE kind = 'lease'`);
    expect(await runner.runDue()).toBe(1);
    expect(ran).toHaveLength(1);
  });
});
