import { randomBytes, randomUUID } from 'node:crypto';
import path from 'node:path';
import { createLogger, createPool, JobRunner, KIT_MIGRATIONS_DIR, listJobs, migrate, migrateJobs, withTransaction, type DomainEvent, type Pool, type Queryable } from '@platform/kit';
import { createTestDatabase, ManualClock } from '@platform/testkit';
import { createWebhook } from '../../src/app/createWebhook';
import { attemptDelivery, DELIVER_JOB, deliveryJobs } from '../../src/app/deliveryJob';
import type { WebhookDeps } from '../../src/app/deps';
import { fanOutEvents } from '../../src/app/fanOutEvent';
import { ATTEMPT_MARGIN_MS, FirstAttempts, firstAttemptJobDelayMs, type FirstAttempt } from '../../src/app/firstAttempts';
import { createHttpSender, type DeliverySender } from '../../src/delivery/httpSender';
import { KeySealer } from '../../src/signing/keySealer';
import { createDeliveryStore } from '../../src/store/deliveryStore';
import { createWebhookStore } from '../../src/store/webhookStore';
import { Receiver, TestClients, verifySignatures } from '../support/service';

const log = createLogger({ name: 'webhooks-first-attempts-test', level: 'silent' });
const TIMEOUT_MS = 5_000;
const RETRY_MS = 60_000;
const JOB_DELAY_MS = firstAttemptJobDelayMs(TIMEOUT_MS);
const DAY = 86_400_000;

let pool: Pool;
let receiver: Receiver;

beforeAll(async () => {
  pool = createPool({ url: await createTestDatabase('webhooks_first_attempts'), log, size: 20 });
  await migrateJobs(pool, log);
  await migrate(pool, [KIT_MIGRATIONS_DIR, path.join(__dirname, '..', '..', 'migrations')], log);
  receiver = await new Receiver().start();
});

afterAll(async () => {
  await receiver.stop();
  await pool.end();
});

/** Counts the statements sent through `db.query`. */
function counting<T extends Queryable>(db: T): { db: T; count: () => number } {
  let n = 0;
  const wrapped = new Proxy(db, {
    get(target, prop, receiverOf) {
      if (prop === 'query') {
        return (...args: unknown[]) => {
          n += 1;
          return (target.query as (...a: unknown[]) => unknown).apply(target, args);
        };
      }
      const value: unknown = Reflect.get(target, prop, receiverOf);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
  return { db: wrapped, count: () => n };
}

function depsOn(clock: ManualClock, overrides: Partial<WebhookDeps> = {}): WebhookDeps {
  return {
    pool,
    log,
    clock,
    webhooks: createWebhookStore(),
    deliveries: createDeliveryStore(),
    sealer: new KeySealer(randomBytes(32)),
    sender: createHttpSender({ allowPrivateTargets: true, timeoutMs: TIMEOUT_MS }),
    retrySchedule: [RETRY_MS],
    allowPrivateTargets: true,
    clients: new TestClients(),
    attemptLeaseMs: TIMEOUT_MS + ATTEMPT_MARGIN_MS,
    ...overrides,
  };
}

/** A client with a webhook of every event on its own path of the receiver. */
async function hookOf(deps: WebhookDeps): Promise<{ clientId: string; endpoint: string; publicKey: string }> {
  const clientId = randomUUID();
  const endpoint = receiver.endpoint();
  const { webhook } = await createWebhook(deps, { clientId, event: '*', endpoint, version: 1.1 });
  return { clientId, endpoint, publicKey: webhook.publicKey };
}

function chargeEvent(clientId: string, at: Date): DomainEvent {
  return {
    id: randomUUID(),
    type: 'payments.charge.authorized',
    occurredAt: new Date(at.getTime() + 1000).toISOString(),
    clientId,
    data: { id: randomUUID(), clientId, status: 'authorized', amount: 1000 },
  };
}

/** The fan-out of a batch as the consumer runs it: its transaction, then the first attempts once it has committed. */
async function fanOut(deps: WebhookDeps, firstAttempts: FirstAttempts | null, events: DomainEvent[]): Promise<FirstAttempt[]> {
  const created = await withTransaction(pool, async (tx) => {
    const made = await fanOutEvents(deps, events, tx, { jobDelayMs: JOB_DELAY_MS });
    firstAttempts?.afterCommit(tx, made);
    return made;
  });
  await firstAttempts?.stop();
  return created;
}

async function deliveryOf(clientId: string, eventId: string) {
  const { rows } = await pool.query<{ id: string; status: string; failures: number; next_attempt_at: Date | null; claimed_until: Date | null; attempts: number }>(
    `SELECT d.id, d.status, d.failures, d.next_attempt_at, d.claimed_until, (SELECT count(*)::int FROM delivery_attempts a WHERE a.delivery_id = d.id) AS attempts
     FROM deliveries d WHERE d.client_id = $1 AND d.event_id = $2`,
    [clientId, eventId],
  );
  return rows[0];
}

async function jobsOf(deliveryIds: string[]) {
  return (await listJobs(pool, DELIVER_JOB)).filter((job) => deliveryIds.includes(String(job.payload.deliveryId)));
}

const runnerOf = (deps: WebhookDeps) => new JobRunner({ pool, log, handlers: deliveryJobs(deps) });

describe('the first delivery attempt, made right after the fan-out commits', () => {
  it('delivers without the job runner, in two statements for the batch whatever its size, and completes the jobs', async () => {
    // Ten years ahead: the jobs are never due for the job queue, which compares with the database's time.
    const clock = new ManualClock(Date.now() + 3650 * DAY);
    const deps = depsOn(clock);
    const hooks = [await hookOf(deps), await hookOf(deps)];
    const events = hooks.flatMap((hook) => [chargeEvent(hook.clientId, clock.now()), chargeEvent(hook.clientId, clock.now()), chargeEvent(hook.clientId, clock.now())]);
    const counted = counting(pool);
    const firstAttempts = new FirstAttempts({ ...deps, pool: counted.db }, { concurrency: 4, timeoutMs: TIMEOUT_MS });

    const created = await fanOut(deps, firstAttempts, events);

    expect(created).toHaveLength(6);
    // One statement claims the batch, one records every attempt, outcome and job.
    expect(counted.count()).toBe(2);
    for (const hook of hooks) {
      const requests = receiver.to(hook.endpoint);
      expect(requests.map((r) => r.headers['webhook-id']).sort()).toEqual(events.filter((e) => e.clientId === hook.clientId).map((e) => e.id).sort());
      for (const request of requests) expect(verifySignatures(request, hook.publicKey)).toEqual({ plug: true, standard: true });
    }
    for (const event of events) {
      expect(await deliveryOf(event.clientId, event.id)).toMatchObject({ status: 'succeeded', failures: 0, next_attempt_at: null, claimed_until: null, attempts: 1 });
    }
    expect(await jobsOf(created.map((c) => c.deliveryId))).toEqual([]);
  });

  it('costs three statements in the fan-out transaction whatever the batch size', async () => {
    const clock = new ManualClock(Date.now() + 3650 * DAY);
    const deps = depsOn(clock);
    const hook = await hookOf(deps);
    for (const size of [1, 10]) {
      const events = Array.from({ length: size }, () => chargeEvent(hook.clientId, clock.now()));
      const statements = await withTransaction(pool, async (tx) => {
        const counted = counting(tx);
        await fanOutEvents(deps, events, counted.db, { jobDelayMs: JOB_DELAY_MS });
        return counted.count();
      });
      expect(statements).toBe(3);
    }
  });

  it('leaves a failed first attempt to the job, due at the next attempt of the retry schedule, which then delivers it', async () => {
    // A day behind: every job the test makes due on this clock is due for the job queue too.
    const clock = new ManualClock(Date.now() - DAY);
    const deps = depsOn(clock);
    const hook = await hookOf(deps);
    let answer = 500;
    receiver.answer = (request) => (request.path === new URL(hook.endpoint).pathname ? answer : 200);
    const event = chargeEvent(hook.clientId, clock.now());
    const [created] = await fanOut(deps, new FirstAttempts(deps, { concurrency: 4, timeoutMs: TIMEOUT_MS }), [event]);
    const failedAt = clock.now().getTime();

    expect(receiver.to(hook.endpoint)).toHaveLength(1);
    const pending = await deliveryOf(hook.clientId, event.id);
    expect(pending).toMatchObject({ status: 'pending', failures: 1, claimed_until: null, attempts: 1 });
    expect(pending!.next_attempt_at!.getTime()).toBe(failedAt + RETRY_MS);
    const [job] = await jobsOf([created!.deliveryId]);
    expect(job!.runAt.getTime()).toBe(failedAt + RETRY_MS);

    answer = 200;
    clock.advance(RETRY_MS);
    await runnerOf(deps).runDue();
    expect(receiver.to(hook.endpoint)).toHaveLength(2);
    expect(await deliveryOf(hook.clientId, event.id)).toMatchObject({ status: 'succeeded', failures: 1, attempts: 2 });
    receiver.answer = () => 200;
  });

  it('never lets the job send a delivery the first attempt made: its job is completed', async () => {
    const clock = new ManualClock(Date.now() - DAY);
    const deps = depsOn(clock);
    const hook = await hookOf(deps);
    const event = chargeEvent(hook.clientId, clock.now());
    const [created] = await fanOut(deps, new FirstAttempts(deps, { concurrency: 4, timeoutMs: TIMEOUT_MS }), [event]);
    clock.advance(JOB_DELAY_MS);

    await runnerOf(deps).runDue();
    // The job itself, had it still been there, finds the delivery done.
    expect(await attemptDelivery(deps, { deliveryId: created!.deliveryId, clientId: hook.clientId, round: 0 })).toBeUndefined();

    expect(receiver.to(hook.endpoint)).toHaveLength(1);
    expect(await jobsOf([created!.deliveryId])).toEqual([]);
  });

  it('never lets the job send while the first attempt is in flight, nor the first attempt while the job is', async () => {
    const clock = new ManualClock(Date.now() - DAY);
    const real = createHttpSender({ allowPrivateTargets: true, timeoutMs: TIMEOUT_MS });
    let during: (() => Promise<unknown>) | null = null;
    const seen: unknown[] = [];
    // Runs `during` once, while the first request is on its way.
    const sender: DeliverySender = {
      async send(request) {
        const run = during;
        during = null;
        if (run) seen.push(await run());
        return real.send(request);
      },
    };
    const deps = depsOn(clock, { sender });
    const firstAttempts = new FirstAttempts(deps, { concurrency: 4, timeoutMs: TIMEOUT_MS });

    // The job comes while the first attempt holds the delivery: it sends nothing and comes back once the claim ends.
    const inlineFirst = await hookOf(deps);
    const one = chargeEvent(inlineFirst.clientId, clock.now());
    const [oneCreated] = await withTransaction(pool, (tx) => fanOutEvents(deps, [one], tx, { jobDelayMs: JOB_DELAY_MS }));
    during = () => attemptDelivery(deps, { deliveryId: oneCreated!.deliveryId, clientId: inlineFirst.clientId, round: 0 });
    await firstAttempts.run([oneCreated!]);
    expect(seen[0]).toEqual({ rescheduleAt: expect.any(Date) });
    expect(receiver.to(inlineFirst.endpoint)).toHaveLength(1);
    expect(await deliveryOf(inlineFirst.clientId, one.id)).toMatchObject({ status: 'succeeded', attempts: 1 });

    // The job holds the delivery when the first attempt comes: the first attempt leaves it alone.
    const jobFirst = await hookOf(deps);
    const two = chargeEvent(jobFirst.clientId, clock.now());
    const [twoCreated] = await withTransaction(pool, (tx) => fanOutEvents(deps, [two], tx, { jobDelayMs: JOB_DELAY_MS }));
    during = () => firstAttempts.run([twoCreated!]);
    expect(await attemptDelivery(deps, { deliveryId: twoCreated!.deliveryId, clientId: jobFirst.clientId, round: 0 })).toBeUndefined();
    expect(seen[1]).toEqual([]);
    expect(receiver.to(jobFirst.endpoint)).toHaveLength(1);
    expect(await deliveryOf(jobFirst.clientId, two.id)).toMatchObject({ status: 'succeeded', attempts: 1 });
  });

  it('delivers an event that comes twice in a batch once, and a delivery named twice once', async () => {
    const clock = new ManualClock(Date.now() + 3650 * DAY);
    const deps = depsOn(clock);
    const hook = await hookOf(deps);
    const event = chargeEvent(hook.clientId, clock.now());
    const firstAttempts = new FirstAttempts(deps, { concurrency: 4, timeoutMs: TIMEOUT_MS });

    const created = await fanOut(deps, firstAttempts, [event, event]);
    expect(created).toHaveLength(1);
    await firstAttempts.run([created[0]!, created[0]!]);

    expect(receiver.to(hook.endpoint)).toHaveLength(1);
    expect(await deliveryOf(hook.clientId, event.id)).toMatchObject({ status: 'succeeded', attempts: 1 });
  });

  it('leaves the delivery to its job when the process stops after the commit, before the first attempt', async () => {
    const clock = new ManualClock(Date.now() - DAY);
    const deps = depsOn(clock);
    const hook = await hookOf(deps);
    const event = chargeEvent(hook.clientId, clock.now());
    // No first attempt: as if the process died right after the commit.
    const [created] = await fanOut(deps, null, [event]);
    const [job] = await jobsOf([created!.deliveryId]);
    expect(job!.runAt.getTime()).toBe(clock.now().getTime() + JOB_DELAY_MS);
    expect(receiver.to(hook.endpoint)).toHaveLength(0);

    clock.advance(JOB_DELAY_MS);
    await runnerOf(deps).runDue();
    expect(receiver.to(hook.endpoint)).toHaveLength(1);
    expect(await deliveryOf(hook.clientId, event.id)).toMatchObject({ status: 'succeeded', attempts: 1 });
  });

  it('leaves the delivery to its job when the process stops after claiming it, once the claim has ended', async () => {
    const clock = new ManualClock(Date.now() - DAY);
    const deps = depsOn(clock);
    const hook = await hookOf(deps);
    const event = chargeEvent(hook.clientId, clock.now());
    const [created] = await fanOut(deps, null, [event]);
    const until = new Date(clock.now().getTime() + TIMEOUT_MS + 2 * ATTEMPT_MARGIN_MS);
    // Claimed, then nothing: the process died before sending.
    expect(await deps.deliveries.claimFirstAttempts(pool, [{ clientId: hook.clientId, id: created!.deliveryId }], clock.now(), until)).toHaveLength(1);
    // While the claim lasts the job sends nothing.
    expect(await attemptDelivery(deps, { deliveryId: created!.deliveryId, clientId: hook.clientId, round: 0 })).toEqual({ rescheduleAt: until });
    expect(receiver.to(hook.endpoint)).toHaveLength(0);

    clock.set(until);
    expect(await attemptDelivery(deps, { deliveryId: created!.deliveryId, clientId: hook.clientId, round: 0 })).toBeUndefined();
    expect(receiver.to(hook.endpoint)).toHaveLength(1);
    expect(await deliveryOf(hook.clientId, event.id)).toMatchObject({ status: 'succeeded', attempts: 1, claimed_until: null });
  });

  it('gives the delivery back to its job when the sender cannot tell whether the target may be reached', async () => {
    const clock = new ManualClock(Date.now() - DAY);
    const real = createHttpSender({ allowPrivateTargets: true, timeoutMs: TIMEOUT_MS });
    let failing = true;
    const sender: DeliverySender = {
      send: (request) => (failing ? Promise.reject(new Error('settings unreachable')) : real.send(request)),
    };
    const deps = depsOn(clock, { sender });
    const hook = await hookOf(deps);
    const event = chargeEvent(hook.clientId, clock.now());
    const [created] = await fanOut(deps, new FirstAttempts(deps, { concurrency: 4, timeoutMs: TIMEOUT_MS }), [event]);

    // Nothing recorded, nobody holds it, its job still due after the fan-out's delay.
    expect(await deliveryOf(hook.clientId, event.id)).toMatchObject({ status: 'pending', failures: 0, claimed_until: null, attempts: 0 });
    const [job] = await jobsOf([created!.deliveryId]);
    expect(job!.runAt.getTime()).toBe(clock.now().getTime() + JOB_DELAY_MS);

    failing = false;
    clock.advance(JOB_DELAY_MS);
    await runnerOf(deps).runDue();
    expect(receiver.to(hook.endpoint)).toHaveLength(1);
    expect(await deliveryOf(hook.clientId, event.id)).toMatchObject({ status: 'succeeded', attempts: 1 });
  });
});
