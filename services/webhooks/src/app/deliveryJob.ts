import { counter, histogram, scheduleJob, SLOW_BUCKETS, withTransaction, type JobHandler, type JobOutcome, type Queryable, type TraceCarrier } from '@platform/kit';
import type { DeliveryAttempt } from '../domain/delivery';
import { outcomeOf, type AttemptOutcome } from '../domain/retrySchedule';
import type { AttemptResult } from '../delivery/httpSender';
import type { DeliveryTarget, Settlement } from '../store/deliveryStore';
import type { KeyObject } from 'node:crypto';
import { deliveryHeaders, privateKeyOf } from '../domain/signatures';
import { recordWebhookEvent, WEBHOOK_EVENTS } from '../events/webhookEvents';
import { openSigningSecrets } from '../signing/webhookSecrets';
import { privateTargetsAllowed } from './clientsPort';
import type { WebhookDeps } from './deps';

export const DELIVER_JOB = 'webhooks.deliver';
/**
 * Failures of the service itself (the database, a key that does not open) back off in the job runner, e^n seconds
 * after the n-th and at most about six hours apart; this many of them give up on the delivery's job, which is days
 * of trying.
 */
const MAX_JOB_FAILURES = 30;

interface DeliverPayload {
  deliveryId: string;
  clientId: string;
  /** The delivery's round when the job was scheduled; a manual retry starts a new round with a job of its own. */
  round: number;
}

/**
 * Schedules an attempt now, in the caller's transaction. The first round's job is keyed by the delivery id, so a
 * second schedule of the same delivery is a no-op; each manual retry's round has its own key.
 */
export async function scheduleDelivery(tx: Queryable, payload: DeliverPayload, runAt: Date): Promise<void> {
  await scheduleJob(tx, deliveryJob(payload, runAt));
}

/** The job of an attempt (see `scheduleDelivery`); `trace` is the event's, so the delivery joins its trace. */
export function deliveryJob(payload: DeliverPayload, runAt: Date, trace?: TraceCarrier) {
  return {
    kind: DELIVER_JOB,
    runAt,
    payload: { ...payload },
    dedupeKey: payload.round === 0 ? payload.deliveryId : `${payload.deliveryId}:${payload.round}`,
    maxAttempts: MAX_JOB_FAILURES,
    ...(trace ? { trace } : {}),
  };
}

/** Attempts by what they led to: delivered, retrying later, failed for good, or gone (410: the webhook is disabled). */
const OUTCOME_LABELS = { succeeded: 'delivered', retry: 'retrying', failed: 'failed', gone: 'gone' } as const;
const deliveriesTotal = counter({ name: 'webhook_deliveries_total', help: 'Webhook delivery attempts, by outcome', labelNames: ['outcome'] });
const deliverySeconds = histogram({
  name: 'webhook_delivery_duration_seconds',
  help: "A delivery attempt's HTTP round trip to the receiver, by outcome",
  labelNames: ['outcome'],
  buckets: SLOW_BUCKETS,
});
const deliveryLag = histogram({
  name: 'webhook_delivery_lag_seconds',
  help: 'From the event reaching the webhooks service to its delivery succeeding (retries included)',
  buckets: [...SLOW_BUCKETS, 600, 1800, 3600, 21_600, 86_400],
});

function payloadOf(raw: Record<string, unknown>): DeliverPayload {
  const { deliveryId, clientId, round } = raw;
  if (typeof deliveryId !== 'string' || typeof clientId !== 'string' || typeof round !== 'number') {
    throw new Error(`malformed ${DELIVER_JOB} payload`);
  }
  return { deliveryId, clientId, round };
}

/** Opened signing keys, by webhook and sealed key (a key that changes is another entry): opening one is costly. */
const signingKeys = new Map<string, KeyObject>();
const SIGNING_KEYS_KEPT = 1_000;

function signingKeyOf(deps: Pick<WebhookDeps, 'sealer'>, webhookId: string, sealed: Buffer): KeyObject {
  const cacheKey = `${webhookId}:${sealed.toString('base64')}`;
  let key = signingKeys.get(cacheKey);
  if (!key) {
    key = privateKeyOf(deps.sealer.open(webhookId, sealed));
    if (signingKeys.size >= SIGNING_KEYS_KEPT) signingKeys.clear();
    signingKeys.set(cacheKey, key);
  }
  return key;
}

/** How long an attempt holds its delivery when its deps do not say: a receiver's answer and the records around it. */
export const DEFAULT_ATTEMPT_LEASE_MS = 30_000;

/** Until when an attempt that starts at `now` holds its delivery. */
export function leaseEnd(deps: Pick<WebhookDeps, 'attemptLeaseMs'>, now: Date): Date {
  return new Date(now.getTime() + (deps.attemptLeaseMs ?? DEFAULT_ATTEMPT_LEASE_MS));
}

/** Signs the stored body with the webhook's key and the secrets in force now, and posts it. Throws as `send` does. */
export async function sendAttempt(deps: WebhookDeps, target: DeliveryTarget): Promise<{ attemptedAt: Date; result: AttemptResult }> {
  const privateKey = signingKeyOf(deps, target.webhook.id, target.webhook.sealedPrivateKey);
  const attemptedAt = deps.clock.now();
  // The secrets in force at the attempt: the replaced one of a rotation signs too until its overlap ends.
  const secrets = openSigningSecrets(deps.sealer, target.webhook.id, target.webhook.secrets, attemptedAt);
  const headers = deliveryHeaders({ eventId: target.eventId, body: target.body, privateKey, secrets, at: attemptedAt });
  const result = await deps.sender.send({
    endpoint: target.webhook.endpoint,
    headers,
    body: target.body,
    // Checked now, not only at registration: the name may resolve elsewhere since, and rows from before the check exist.
    mayReachPrivate: () => privateTargetsAllowed(deps, target.clientId),
  });
  return { attemptedAt, result };
}

/** What an attempt leads to by the retry policy: the outcome, the attempt as recorded and how it leaves the delivery. */
export function settlementOf(
  deps: Pick<WebhookDeps, 'retrySchedule'>,
  target: DeliveryTarget,
  attemptedAt: Date,
  result: AttemptResult,
  now: Date,
): { outcome: AttemptOutcome; attempt: DeliveryAttempt; settlement: Settlement } {
  const outcome = outcomeOf(result, { failures: target.failures, retryAfterAttempts: target.retryAfterAttempts }, deps.retrySchedule, now);
  const nextAttemptAt = outcome.kind === 'retry' ? new Date(now.getTime() + outcome.delayMs) : null;
  const { retryAfter: _retryAfter, ...answer } = result;
  // A wait the receiver asked for with Retry-After is counted apart and leaves the delivery where it was on the schedule.
  const receiverSet = outcome.kind === 'retry' && outcome.receiverSet;
  return {
    outcome,
    attempt: { attemptedAt, ...answer },
    settlement: {
      status: outcome.kind === 'succeeded' ? 'succeeded' : outcome.kind === 'retry' ? 'pending' : 'failed',
      failures: outcome.kind === 'succeeded' || receiverSet ? target.failures : target.failures + 1,
      retryAfterAttempts: receiverSet ? target.retryAfterAttempts + 1 : target.retryAfterAttempts,
      nextAttemptAt,
      at: now,
    },
  };
}

/** Metrics and the log line of one attempt. */
export function observeAttempt(deps: Pick<WebhookDeps, 'log'>, target: DeliveryTarget, outcome: AttemptOutcome, result: AttemptResult, now: Date, inline = false): void {
  const label = OUTCOME_LABELS[outcome.kind];
  deliveriesTotal.inc({ outcome: label });
  deliverySeconds.observe({ outcome: label }, result.durationMs / 1000);
  if (outcome.kind === 'succeeded') deliveryLag.observe(Math.max(0, now.getTime() - target.createdAt.getTime()) / 1000);
  deps.log.info({ deliveryId: target.id, eventId: target.eventId, statusCode: result.statusCode, outcome: outcome.kind, inline }, 'webhook delivery attempted');
}

/** A 410's outcome, in one transaction: the attempt, the delivery failed, and its webhook disabled (with its event). */
export async function settleGone(deps: WebhookDeps, target: DeliveryTarget, attempt: DeliveryAttempt, settlement: Settlement, jobId?: string | null): Promise<boolean> {
  const applied = await withTransaction(deps.pool, async (tx) => {
    const settled = await deps.deliveries.recordAndSettle(tx, target.clientId, target.id, target.round, attempt, settlement);
    if (settled) {
      const disabled = await deps.webhooks.disable(tx, target.clientId, target.webhook.id, settlement.at);
      if (disabled) await recordWebhookEvent(tx, WEBHOOK_EVENTS.updated, disabled, settlement.at);
      if (jobId) await deps.deliveries.completeJobs(tx, [jobId]);
    }
    return settled;
  });
  deps.outbox?.kick();
  return applied;
}

/**
 * One attempt of one delivery by its job: claim it, sign the stored body with the webhook's key, post it, record the
 * attempt and decide what follows. A delivery another attempt holds (the first one, made right after the fan-out),
 * or not due yet, is not sent: the job comes back when it is free or due. A crash before the record leaves the claim
 * to expire and the job locked; it runs again once the job queue frees the lock and sends the same body with the
 * same event id.
 */
export async function attemptDelivery(deps: WebhookDeps, payload: DeliverPayload): Promise<JobOutcome> {
  const claimedAt = deps.clock.now();
  const until = leaseEnd(deps, claimedAt);
  const found = await deps.deliveries.claim(deps.pool, payload.clientId, payload.deliveryId, payload.round, claimedAt, until);
  if (!found) return;
  const { target } = found;
  if (target.status !== 'pending' || target.round !== payload.round) return;
  if (!found.claimed) {
    const later = [found.heldUntil, found.nextAttemptAt].filter((at): at is Date => at !== null && at > claimedAt).map((at) => at.getTime());
    // Settled meanwhile when nothing is later: the next run finds it so and stops.
    return { rescheduleAt: new Date(later.length > 0 ? Math.max(...later) : claimedAt.getTime() + 1000) };
  }
  if (!target.webhook.active) {
    // Disabled meanwhile (by its owner or by a 410): nothing more is sent; a manual retry after enabling it resends.
    await withTransaction(deps.pool, (tx) =>
      deps.deliveries.settle(tx, target.clientId, target.id, target.round, {
        status: 'failed',
        failures: target.failures,
        nextAttemptAt: null,
        at: deps.clock.now(),
      }),
    );
    return;
  }

  let sent: { attemptedAt: Date; result: AttemptResult };
  try {
    sent = await sendAttempt(deps, target);
  } catch (error) {
    // Not the receiver's doing (the platform could not tell whether the target may be reached): no attempt is
    // recorded, the claim is given back, and the job runner tries again later.
    await deps.deliveries.release(deps.pool, target.clientId, target.id, until).catch(() => undefined);
    throw error;
  }
  const { attemptedAt, result } = sent;
  const now = deps.clock.now();
  const { outcome, attempt, settlement } = settlementOf(deps, target, attemptedAt, result, now);
  // The attempt and its outcome are one statement; a receiver that is gone also disables its webhook, in a transaction.
  const settled =
    outcome.kind !== 'gone'
      ? await deps.deliveries.recordAndSettle(deps.pool, target.clientId, target.id, target.round, attempt, settlement)
      : await settleGone(deps, target, attempt, settlement);
  observeAttempt(deps, target, outcome, result, now);
  return settled && settlement.nextAttemptAt ? { rescheduleAt: settlement.nextAttemptAt } : undefined;
}

export function deliveryJobs(deps: WebhookDeps): Record<string, JobHandler> {
  return { [DELIVER_JOB]: (job) => attemptDelivery(deps, payloadOf(job.payload)) };
}
