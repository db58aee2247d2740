import { copyFileSync, mkdirSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { createTestDatabase } from '@platform/testkit';
import {
  cancelJobs,
  createLogger,
  createPool,
  JobRunner,
  KIT_MIGRATIONS_DIR,
  listJobs,
  migrate,
  migrateJobs,
  scheduleJob,
  scheduleJobs,
  withTransaction,
  type Job,
  type Pool,
} from '../src';
import { kitDatabase, silentLog } from './helpers';

async function until(check: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const past = () => new Date(Date.now() - 1000);
const inAnHour = () => new Date(Date.now() + 3600_000);

describe('durable jobs on graphile-worker', () => {
  let pool: Pool;
  const runners: JobRunner[] = [];
  beforeAll(async () => {
    pool = await kitDatabase('jobs');
    await migrateJobs(pool, silentLog);
  });
  afterEach(async () => {
    await Promise.all(runners.splice(0).map((r) => r.stop()));
  });
  afterAll(async () => {
    await pool.end();
  });

  it('installs its schema once when replicas start together, and the old jobs table is gone', async () => {
    await Promise.all([migrateJobs(pool, silentLog), migrateJobs(pool, silentLog), migrateJobs(pool, silentLog)]);
    const { rows } = await pool.query(`SELECT to_regclass('public.jobs') AS old, to_regclass('graphile_worker._private_jobs') AS jobs`);
    expect(rows[0]).toEqual({ old: null, jobs: 'graphile_worker._private_jobs' });
  });

  it('adds a job only if the scheduling transaction commits, and a dedupe key schedules once', async () => {
    await expect(
      withTransaction(pool, async (tx) => {
        await scheduleJob(tx, { kind: 'tx', runAt: inAnHour(), dedupeKey: 'tx-1' });
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    const first = await withTransaction(pool, (tx) => scheduleJob(tx, { kind: 'tx', runAt: inAnHour(), payload: { n: 1 }, dedupeKey: 'tx-2' }));
    const second = await scheduleJob(pool, { kind: 'tx', runAt: new Date(), payload: { n: 2 }, dedupeKey: 'tx-2' });
    expect(second).toBe(first);
    // The same key under another kind is another job.
    await scheduleJob(pool, { kind: 'tx-other', runAt: inAnHour(), dedupeKey: 'tx-2' });
    const jobs = await listJobs(pool, 'tx');
    expect(jobs.map((j) => [j.dedupeKey, j.payload])).toEqual([['tx-2', { n: 1 }]]);
    expect(jobs[0]!.runAt.getTime()).toBeGreaterThan(Date.now() + 3500_000);
    expect(await listJobs(pool, 'tx-other')).toHaveLength(1);

    expect(await cancelJobs(pool, { kind: 'tx', dedupeKey: 'tx-2' })).toBe(1);
    expect(await cancelJobs(pool, { kind: 'tx', dedupeKey: 'tx-2' })).toBe(0);
    expect(await listJobs(pool, 'tx')).toEqual([]);
  });

  it('schedules many jobs in one statement as one by one would: in order, in the transaction, a taken key kept', async () => {
    const existing = await scheduleJob(pool, { kind: 'many', runAt: inAnHour(), payload: { n: 0 }, dedupeKey: 'k0' });
    await expect(
      withTransaction(pool, async (tx) => {
        await scheduleJobs(tx, [{ kind: 'many', runAt: inAnHour(), dedupeKey: 'rolled' }]);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    const ids = await withTransaction(pool, (tx) =>
      scheduleJobs(tx, [
        { kind: 'many', runAt: inAnHour(), payload: { n: 1 }, dedupeKey: 'k1' },
        { kind: 'many', runAt: inAnHour(), payload: { n: 9 }, dedupeKey: 'k0' },
        { kind: 'many', runAt: inAnHour(), payload: { n: 2 } },
      ]),
    );
    expect(ids).toHaveLength(3);
    expect(ids[1]).toBe(existing);
    const jobs = await listJobs(pool, 'many');
    expect(jobs.map((j) => [j.dedupeKey, j.payload]).sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)))).toEqual([
      ['k0', { n: 0 }],
      ['k1', { n: 1 }],
      [null, { n: 2 }],
    ]);
    expect(await scheduleJobs(pool, [])).toEqual([]);
  });

  it('runs a due job once across competing runDue calls and leaves future ones alone', async () => {
    const ran: string[] = [];
    await scheduleJob(pool, { kind: 'once', runAt: past(), payload: { tag: 'due' } });
    await scheduleJob(pool, { kind: 'once', runAt: inAnHour(), payload: { tag: 'later' } });
    const handlers = { once: async (job: Job) => void ran.push(String(job.payload.tag)) };
    const counts = await Promise.all([1, 2, 3].map(() => new JobRunner({ pool, log: silentLog, handlers }).runDue()));
    expect(ran).toEqual(['due']);
    expect(counts.reduce((a, b) => a + b, 0)).toBe(1);
    expect((await listJobs(pool, 'once')).map((j) => j.payload)).toEqual([{ tag: 'later' }]);
  });

  it('retries a failed job with exponential backoff and gives up after max attempts', async () => {
    await scheduleJob(pool, { kind: 'flaky', runAt: past(), maxAttempts: 2, dedupeKey: 'f' });
    const attempts: number[] = [];
    const runner = new JobRunner({
      pool,
      log: silentLog,
      handlers: {
        flaky: async (job) => {
          attempts.push(job.attempts);
          throw new Error('provider down');
        },
      },
    });
    const before = Date.now();
    expect(await runner.runDue()).toBe(1);
    let [flaky] = await listJobs(pool, 'flaky');
    expect(flaky).toMatchObject({ attempts: 1, maxAttempts: 2, lastError: 'provider down', running: false, dedupeKey: 'f' });
    // graphile-worker waits e^attempts seconds: about 2.7 s after the first failure.
    const firstDelay = flaky!.runAt.getTime() - before;
    expect(firstDelay).toBeGreaterThan(1500);
    expect(firstDelay).toBeLessThan(10_000);
    expect(await runner.runDue()).toBe(0);

    await pool.query(`UPDATE graphile_worker._private_jobs SET run_at = now() - interval '1 second' WHERE id = $1`, [flaky!.id]);
    expect(await runner.runDue()).toBe(1);
    [flaky] = await listJobs(pool, 'flaky');
    expect(flaky).toMatchObject({ attempts: 2, lastError: 'provider down' });
    await pool.query(`UPDATE graphile_worker._private_jobs SET run_at = now() - interval '1 second' WHERE id = $1`, [flaky!.id]);
    expect(await runner.runDue()).toBe(0);
    expect(attempts).toEqual([1, 2]);
    // Failed for good, it still holds its key.
    expect(await scheduleJob(pool, { kind: 'flaky', runAt: past(), dedupeKey: 'f' })).toBe(flaky!.id);
  });

  it('honours a reschedule: the job comes back under its key with the new time and payload, however it was keyed', async () => {
    const later = inAnHour();
    const seen: Array<[string, unknown]> = [];
    const runner = new JobRunner({
      pool,
      log: silentLog,
      handlers: {
        again: async (job) => {
          seen.push([job.id, job.payload.step]);
          // Scheduling the same key while this attempt runs adds nothing: the reschedule below is what counts.
          await scheduleJob(pool, { kind: 'again', runAt: past(), payload: { step: 99 }, dedupeKey: 'a' });
          return job.payload.step === 1 ? { rescheduleAt: later, payload: { step: 2 } } : undefined;
        },
        plain: async (job) => (job.payload.step === 1 ? { rescheduleAt: later } : undefined),
      },
    });
    const firstId = await scheduleJob(pool, { kind: 'again', runAt: past(), payload: { step: 1 }, dedupeKey: 'a' });
    const plainId = await scheduleJob(pool, { kind: 'plain', runAt: past(), payload: { step: 1 } });
    expect(await runner.runDue()).toBe(2);

    const [again] = await listJobs(pool, 'again');
    expect(await listJobs(pool, 'again')).toHaveLength(1);
    expect(again).toMatchObject({ dedupeKey: 'a', payload: { step: 2 }, attempts: 0, running: false });
    expect(again!.id).not.toBe(firstId);
    expect(again!.runAt.getTime()).toBe(later.getTime());
    const plain = await listJobs(pool, 'plain');
    // A job without a key comes back keyed by the attempt that rescheduled it.
    expect(plain.map((j) => [j.payload, j.runAt.getTime(), j.dedupeKey])).toEqual([[{ step: 1 }, later.getTime(), `rescheduled:${plainId}`]]);
    expect(await runner.runDue()).toBe(0);

    // The key is held by the rescheduled job, so scheduling again is still a no-op.
    expect(await scheduleJob(pool, { kind: 'again', runAt: past(), dedupeKey: 'a' })).toBe(again!.id);
    await pool.query(`UPDATE graphile_worker._private_jobs SET run_at = now() WHERE id = $1`, [again!.id]);
    expect(await runner.runDue()).toBe(1);
    expect(seen).toEqual([
      [firstId, 1],
      [again!.id, 2],
    ]);
    expect(await listJobs(pool, 'again')).toEqual([]);
  });

  it('starts a due job within a second of its commit, woken by NOTIFY rather than polling', async () => {
    const started = new Map<string, number>();
    const runner = new JobRunner({ pool, log: silentLog, handlers: { notify: async (job) => void started.set(job.id, Date.now()) }, pollMs: 60_000 });
    runners.push(runner);
    await runner.start();
    // The first job proves the runner is listening (it may be found by the start-up fetch).
    const warm = await scheduleJob(pool, { kind: 'notify', runAt: new Date() });
    await until(() => started.has(warm));
    await new Promise((resolve) => setTimeout(resolve, 300));

    const committedAt = Date.now();
    const id = await withTransaction(pool, (tx) => scheduleJob(tx, { kind: 'notify', runAt: new Date() }));
    await until(() => started.has(id), 5000);
    expect(started.get(id)! - committedAt).toBeLessThan(1000);
  });

  it('runs the jobs of one named queue one at a time, in order, on every runner, and holds up no other job', async () => {
    const held = new Map<string, () => void>();
    const started: string[] = [];
    const handlers = {
      queued: async (job: Job) => {
        started.push(String(job.payload.tag));
        await new Promise<void>((resolve) => held.set(String(job.payload.tag), resolve));
      },
    };
    const a = new JobRunner({ pool, log: silentLog, handlers, concurrency: 4 });
    const b = new JobRunner({ pool, log: silentLog, handlers, concurrency: 4 });
    runners.push(a, b);
    await scheduleJobs(pool, [
      { kind: 'queued', runAt: past(), payload: { tag: 'q1' }, queue: 'one-at-a-time' },
      { kind: 'queued', runAt: past(), payload: { tag: 'q2' }, queue: 'one-at-a-time' },
    ]);
    await scheduleJob(pool, { kind: 'queued', runAt: past(), payload: { tag: 'q3' }, queue: 'one-at-a-time' });
    await scheduleJob(pool, { kind: 'queued', runAt: past(), payload: { tag: 'free' } });
    await Promise.all([a.start(), b.start()]);
    // Eight workers and four due jobs: the job of no queue and the queue's first run; the queue's next ones wait.
    await until(() => held.has('q1') && held.has('free'));
    const waiting = await listJobs(pool, 'queued');
    expect(waiting.filter((j) => !j.running).map((j) => j.payload.tag)).toEqual(['q2', 'q3']);
    const { rows } = await pool.query<{ locked: boolean }>(`SELECT locked_at IS NOT NULL AS locked FROM graphile_worker._private_job_queues WHERE queue_name = 'one-at-a-time'`);
    expect(rows).toEqual([{ locked: true }]);
    held.get('q1')!();
    await until(() => held.has('q2'));
    expect(held.has('q3')).toBe(false);
    held.get('q2')!();
    await until(() => held.has('q3'));
    held.get('q3')!();
    held.get('free')!();
    await until(async () => (await listJobs(pool, 'queued')).length === 0);
    expect(started.filter((tag) => tag !== 'free')).toEqual(['q1', 'q2', 'q3']);
  });

  it('never runs one job twice when two runners share the database', async () => {
    const runs = new Map<string, number>();
    const handlers = {
      shared: async (job: Job) => {
        runs.set(String(job.payload.n), (runs.get(String(job.payload.n)) ?? 0) + 1);
        await new Promise((resolve) => setTimeout(resolve, 5));
      },
    };
    const a = new JobRunner({ pool, log: silentLog, handlers, concurrency: 4 });
    const b = new JobRunner({ pool, log: silentLog, handlers, concurrency: 4 });
    runners.push(a, b);
    await Promise.all([a.start(), b.start()]);
    await withTransaction(pool, async (tx) => {
      for (let n = 0; n < 60; n += 1) await scheduleJob(tx, { kind: 'shared', runAt: new Date(), payload: { n } });
    });
    await until(async () => (await listJobs(pool, 'shared')).length === 0, 20_000);
    expect(runs.size).toBe(60);
    expect([...runs.values()].every((count) => count === 1)).toBe(true);
  });

  it('keeps cron schedules and backfills the runs missed while no runner was up', async () => {
    // The schedule has been known for ten minutes and last ran five minutes ago.
    await pool.query(
      `INSERT INTO graphile_worker._private_known_crontabs (identifier, known_since, last_execution)
       VALUES ('tick', now() - interval '10 minutes', date_trunc('minute', now()) - interval '5 minutes')`,
    );
    const ticks: Job[] = [];
    const handlers = { tick: async (job: Job) => void ticks.push(job) };
    const cron = [{ kind: 'tick', pattern: '* * * * *', backfillPeriodMs: 3 * 60_000, payload: { what: 'tick' } }];
    const first = new JobRunner({ pool, log: silentLog, handlers, cron });
    const second = new JobRunner({ pool, log: silentLog, handlers, cron });
    runners.push(first, second);
    const startedAt = Date.now();
    await Promise.all([first.start(), second.start()]);
    await until(() => ticks.filter((t) => t.cron?.backfilled).length >= 3);
    await new Promise((resolve) => setTimeout(resolve, 500));

    const backfilled = ticks.filter((t) => t.cron?.backfilled);
    // Within the 3-minute backfill period: the three minute marks before start-up, each run once by one runner.
    expect(backfilled).toHaveLength(3);
    const marks = backfilled.map((t) => t.cron!.scheduledFor.getTime()).sort();
    expect(new Set(marks).size).toBe(3);
    for (const mark of marks) {
      expect(mark % 60_000).toBe(0);
      expect(mark).toBeLessThan(startedAt + 5000);
      expect(mark).toBeGreaterThan(startedAt - 3 * 60_000);
    }
    expect(backfilled[0]!.payload).toEqual({ what: 'tick' });
    const { rows } = await pool.query(`SELECT last_execution FROM graphile_worker._private_known_crontabs WHERE identifier = 'tick'`);
    expect(new Date(rows[0].last_execution).getTime()).toBeGreaterThanOrEqual(Math.max(...marks));
  });

  it('refuses a cron schedule without a handler', () => {
    expect(() => new JobRunner({ pool, log: silentLog, handlers: {}, cron: [{ kind: 'nobody', pattern: '0 3 * * *' }] })).toThrow(
      'cron schedule nobody has no handler',
    );
  });

  it('moves work still waiting in the old jobs table to graphile-worker when the table is retired', async () => {
    // A database as the previous release left it: only the first kit migration, with jobs in its table.
    const dir = path.join(mkdtempSync(path.join(os.tmpdir(), 'kit-')), 'kit', 'migrations');
    mkdirSync(dir, { recursive: true });
    copyFileSync(path.join(KIT_MIGRATIONS_DIR, '001_kit.sql'), path.join(dir, '001_kit.sql'));
    const old = createPool({ url: await createTestDatabase('jobs_old'), log: silentLog });
    try {
      await migrate(old, [dir], silentLog);
      await old.query(
        `INSERT INTO jobs (id, kind, payload, run_at, status, attempts, max_attempts, dedupe_key) VALUES
           (gen_random_uuid(), 'deliver', '{"n":1}', now() + interval '1 hour', 'pending', 3, 10, 'd-1'),
           (gen_random_uuid(), 'deliver', '{"n":2}', now() - interval '1 minute', 'pending', 0, 10, NULL),
           (gen_random_uuid(), 'deliver', '{"n":3}', now() - interval '1 hour', 'done', 1, 10, 'd-3')`,
      );
      await migrateJobs(old, silentLog);
      expect(await migrate(old, [KIT_MIGRATIONS_DIR], silentLog)).toEqual(expect.arrayContaining(['kit/002_jobs_on_graphile_worker.sql', 'kit/003_job_workers.sql']));
      expect((await old.query(`SELECT to_regclass('public.jobs') AS t`)).rows[0].t).toBeNull();
      const moved = await listJobs(old, 'deliver');
      expect(moved.map((j) => [j.payload, j.dedupeKey, j.maxAttempts])).toEqual([
        [{ n: 2 }, null, 10],
        [{ n: 1 }, 'd-1', 7],
      ]);
      expect(moved[1]!.runAt.getTime()).toBeGreaterThan(Date.now() + 3500_000);
    } finally {
      await old.end();
    }
  });

  it('logs through the service logger: a failed attempt as a warning, its routine lines below info, nothing on the console', async () => {
    const lines: Array<{ level: string; msg: string; kind?: string; attempts?: number; err?: { message: string; code?: string; stack?: string } }> = [];
    const destination = new Writable({
      write(chunk: Buffer, _enc, done) {
        lines.push(JSON.parse(chunk.toString()));
        done();
      },
    });
    const log = createLogger({ name: 'test', level: 'info', destination });
    const consoleCalls = (['log', 'info', 'warn', 'error'] as const).map((method) => jest.spyOn(console, method));
    try {
      await scheduleJob(pool, { kind: 'noisy', runAt: past(), maxAttempts: 3 });
      const runner = new JobRunner({
        pool,
        log,
        handlers: {
          noisy: async () => {
            throw Object.assign(new Error('provider down'), { code: 'ECONNRESET' });
          },
        },
      });
      expect(await runner.runDue()).toBe(1);
      runners.push(runner);
      await runner.start();
      await runner.stop();
      expect(lines).toEqual([expect.objectContaining({ level: 'warn', msg: 'job failed; retrying with backoff', kind: 'noisy', attempts: 1 })]);
      expect(lines[0]!.err).toMatchObject({ message: 'provider down', code: 'ECONNRESET', stack: expect.stringContaining('jobs.test.ts') });
      for (const spy of consoleCalls) expect(spy).not.toHaveBeenCalled();
    } finally {
      for (const spy of consoleCalls) spy.mockRestore();
    }
  });

  it('releases the jobs a killed runner held once its lease passes, and leaves a live runner its long jobs', async () => {
    // A job locked by a worker that nobody has heard from: its process was killed mid-attempt.
    const orphan = await scheduleJob(pool, { kind: 'orphan', runAt: past() });
    await pool.query(`UPDATE graphile_worker._private_jobs SET locked_at = now() - interval '1 minute', locked_by = 'worker-killed' WHERE id = $1`, [
      orphan,
    ]);
    const ran: string[] = [];
    let release = () => undefined as void;
    const slowDone = new Promise<void>((resolve) => (release = resolve));
    const handlers = {
      orphan: async (job: Job) => void ran.push(`orphan:${job.id}`),
      slow: async (job: Job) => {
        ran.push(`slow:${job.id}`);
        await slowDone;
      },
    };
    const a = new JobRunner({ pool, log: silentLog, handlers, leaseMs: 300, pollMs: 100 });
    const b = new JobRunner({ pool, log: silentLog, handlers, leaseMs: 300, pollMs: 100 });
    runners.push(a, b);
    await Promise.all([a.start(), b.start()]);
    await until(() => ran.includes(`orphan:${orphan}`), 5000);

    // A live runner's attempt outlasts the lease many times over and is still never taken from it.
    const slow = await scheduleJob(pool, { kind: 'slow', runAt: new Date() });
    await until(() => ran.includes(`slow:${slow}`));
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const [held] = await listJobs(pool, 'slow');
    expect(held).toMatchObject({ id: slow, running: true, attempts: 1 });
    release();
    await until(async () => (await listJobs(pool, 'slow')).length === 0);
    expect(ran.filter((r) => r.startsWith('slow:'))).toEqual([`slow:${slow}`]);
    expect(ran.filter((r) => r.startsWith('orphan:'))).toEqual([`orphan:${orphan}`]);
  });
});
