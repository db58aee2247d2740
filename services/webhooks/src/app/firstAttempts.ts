import { contextFrom, inSpan, SpanKind, type Pool, type PoolClient, type Queryable, type TraceCarrier } from '@platform/kit';
import type { AttemptResult } from '../delivery/httpSender';
import type { DeliveryTarget, FirstAttemptOutcome } from '../store/deliveryStore';
import type { WebhookDeps } from './deps';
import { observeAttempt, sendAttempt, settleGone, settlementOf } from './deliveryJob';

/** A delivery the fan-out created, with its job (the fallback of its first attempt). */
export interface FirstAttempt {
  clientId: string;
  deliveryId: string;
  jobId: string | null;
  /** The trace of the call that caused the event: the attempt joins it, as its job would. */
  trace?: TraceCarrier | undefined;
}

/** The span of a first attempt made after the fan-out (its job's is `job webhooks.deliver`). */
export const FIRST_ATTEMPT_SPAN = 'webhooks.deliver first attempt';

/**
 * Time an attempt needs beyond the receiver's answer (signing, the statements around it): a send starts only while
 * its claim has the timeout and this much left, and a claim has this much more for the statement that takes it.
 */
export const ATTEMPT_MARGIN_MS = 5_000;

/**
 * How long after the fan-out a delivery's job is due when the first attempt is made by the fan-out's process: once
 * the attempt of a batch's first round would be recorded, so that the job normally finds it settled (and completed)
 * or sees a claim and comes back when it ends. Also how late a delivery goes when its process died before it.
 */
export function firstAttemptJobDelayMs(timeoutMs: number): number {
  return timeoutMs + 2 * ATTEMPT_MARGIN_MS;
}

/** At most this many requests in flight at once. */
class Slots {
  private free: number;
  private readonly waiting: Array<() => void> = [];

  constructor(size: number) {
    this.free = size;
  }

  async run<T>(fn: () => Promise<T>): Promise<T> {
    if (this.free > 0) this.free -= 1;
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    try {
      return await fn();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.free += 1;
    }
  }
}

function isPoolClient(db: Queryable): db is PoolClient {
  return typeof (db as Partial<PoolClient>).release === 'function';
}

/**
 * The first attempt of new deliveries, made by the process that fanned their events out as soon as the fan-out's
 * transaction commits, instead of waiting for a job runner to take their jobs. A batch costs two statements whatever
 * its size: one claims its deliveries (so their jobs, due a little later, do not send them too), one records every
 * attempt and outcome and completes or moves the jobs by the retry policy. The requests go out at most `concurrency`
 * at once, through the service's sender (its keep-alive connections, its address checks), signed as a job signs.
 *
 * Nothing is lost when this does not happen (the process dies after the commit, say): the deliveries stay pending
 * and their jobs deliver them. A delivery is sent at most once by the two: whoever claims it first sends it, and a
 * send starts only while its claim has the delivery timeout and a margin left.
 */
export class FirstAttempts {
  private readonly slots: Slots;
  private readonly afterRelease = new Map<PoolClient, FirstAttempt[][]>();
  private readonly inFlight = new Set<Promise<void>>();
  private listening = false;

  constructor(
    private readonly deps: WebhookDeps,
    private readonly options: { concurrency: number; timeoutMs: number },
  ) {
    this.slots = new Slots(options.concurrency);
  }

  /**
   * Makes the first attempts once `tx` has ended: its connection goes back to the pool right after its COMMIT (or
   * ROLLBACK: the claim then finds no delivery, and there is nothing to send). Not a transaction's connection: now.
   */
  afterCommit(tx: Queryable, attempts: FirstAttempt[]): void {
    if (attempts.length === 0) return;
    if (!isPoolClient(tx)) {
      this.start(attempts);
      return;
    }
    this.listen(this.deps.pool);
    const queued = this.afterRelease.get(tx);
    if (queued) queued.push(attempts);
    else this.afterRelease.set(tx, [attempts]);
  }

  private listen(pool: Pool): void {
    if (this.listening) return;
    this.listening = true;
    pool.on('release', (_err: unknown, client: PoolClient) => {
      const queued = this.afterRelease.get(client);
      if (!queued) return;
      this.afterRelease.delete(client);
      for (const attempts of queued) this.start(attempts);
    });
  }

  private start(attempts: FirstAttempt[]): void {
    const running = this.run(attempts).then(
      () => undefined,
      // The claims expire and the jobs deliver: nothing is lost, only later.
      (err: unknown) => this.deps.log.warn({ err, deliveries: attempts.length }, 'first delivery attempts failed; their jobs will make them'),
    );
    this.inFlight.add(running);
    void running.finally(() => this.inFlight.delete(running));
  }

  /** Waits for the attempts in flight (at shutdown, before the pool closes). */
  async stop(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.all([...this.inFlight]);
  }

  /** Claims, sends and records the first attempts of a batch's deliveries; answers the outcomes recorded. */
  async run(attempts: readonly FirstAttempt[]): Promise<FirstAttemptOutcome[]> {
    const { deps } = this;
    const claimedAt = deps.clock.now();
    // Enough for every request of the batch to take its whole timeout, `concurrency` at a time.
    const rounds = Math.ceil(attempts.length / this.options.concurrency);
    const until = new Date(claimedAt.getTime() + rounds * this.options.timeoutMs + 2 * ATTEMPT_MARGIN_MS);
    const targets = await deps.deliveries.claimFirstAttempts(
      deps.pool,
      attempts.map((a) => ({ clientId: a.clientId, id: a.deliveryId })),
      claimedAt,
      until,
    );
    if (targets.length === 0) return [];
    const jobOf = new Map(attempts.map((a) => [a.deliveryId, a.jobId]));
    const traceOf = new Map(attempts.map((a) => [a.deliveryId, a.trace]));
    const made = await Promise.all(targets.map((target) => this.slots.run(() => this.attempt(target, until, traceOf.get(target.id)))));
    const outcomes: FirstAttemptOutcome[] = [];
    const observed: Array<{ target: DeliveryTarget; result: AttemptResult; outcome: ReturnType<typeof settlementOf>['outcome']; at: Date }> = [];
    for (const { target, made: attempt } of made) {
      const jobId = jobOf.get(target.id) ?? null;
      if (attempt === 'inactive') {
        // Disabled meanwhile: nothing is sent, as the job would not send it.
        outcomes.push({ clientId: target.clientId, id: target.id, jobId, attempt: null, settlement: { status: 'failed', failures: 0, nextAttemptAt: null, at: deps.clock.now() } });
        continue;
      }
      if (attempt === null) {
        outcomes.push({ clientId: target.clientId, id: target.id, jobId, attempt: null, settlement: null });
        continue;
      }
      const now = deps.clock.now();
      const decided = settlementOf(deps, target, attempt.attemptedAt, attempt.result, now);
      observed.push({ target, result: attempt.result, outcome: decided.outcome, at: now });
      if (decided.outcome.kind === 'gone') {
        // Rare, and it disables the webhook with the outcome: a transaction of its own.
        await settleGone(deps, target, decided.attempt, decided.settlement, jobId);
        continue;
      }
      outcomes.push({ clientId: target.clientId, id: target.id, jobId, attempt: decided.attempt, settlement: decided.settlement });
    }
    await this.settle(outcomes, until);
    for (const { target, result, outcome, at } of observed) observeAttempt(deps, target, outcome, result, at, true);
    return outcomes;
  }

  /** The outcomes in one statement; tried twice, since a lost record means the job sends the delivery again. */
  private async settle(outcomes: FirstAttemptOutcome[], until: Date): Promise<void> {
    if (outcomes.length === 0) return;
    try {
      await this.deps.deliveries.settleFirstAttempts(this.deps.pool, outcomes, until);
    } catch (err) {
      this.deps.log.warn({ err }, 'recording first delivery attempts failed; trying again');
      await this.deps.deliveries.settleFirstAttempts(this.deps.pool, outcomes, until);
    }
  }

  /** One claimed delivery's attempt: null when it is left to its job (too late to start, or the sender could not tell). */
  private async attempt(
    target: DeliveryTarget,
    until: Date,
    trace: TraceCarrier | undefined,
  ): Promise<{ target: DeliveryTarget; made: 'inactive' | null | { attemptedAt: Date; result: AttemptResult } }> {
    if (!target.webhook.active) return { target, made: 'inactive' };
    // The request must be answered, or given up, well before the claim ends: past that the job may send it.
    if (this.deps.clock.now().getTime() + this.options.timeoutMs + ATTEMPT_MARGIN_MS > until.getTime()) return { target, made: null };
    try {
      const made = await inSpan(FIRST_ATTEMPT_SPAN, { kind: SpanKind.CONSUMER, parent: contextFrom(trace) }, () => sendAttempt(this.deps, target));
      return { target, made };
    } catch (err) {
      this.deps.log.warn({ err, deliveryId: target.id }, 'first delivery attempt not made; its job will make it');
      return { target, made: null };
    }
  }
}
