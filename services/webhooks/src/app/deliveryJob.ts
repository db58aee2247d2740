import { counter, histogram, scheduleJob, SLOW_BUCKETS, withTransaction, type JobHandler, type JobOutcome, type Queryable, type TraceCarrier } from '@platform/kit';
import { outcomeOf } from '../domain/retrySchedule';
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

/**
 * One attempt of one delivery: sign the stored body with the webhook's key, post it, record the attempt and decide
 * what follows. A crash anywhere before the record leaves the job locked; it runs again once the job queue frees
 * the lock and sends the same body with the same event id.
 */
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

export async function attemptDelivery(deps: WebhookDeps, payload: DeliverPayload): Promise<JobOutcome> {
  const target = await deps.deliveries.findTarget(deps.pool, payload.clientId, payload.deliveryId);
  if (!target || target.status !== 'pending' || target.round !== payload.round) return;
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

  const now = deps.clock.now();
  const outcome = outcomeOf(result, { failures: target.failures, retryAfterAttempts: target.retryAfterAttempts }, deps.retrySchedule, now);
  const nextAttemptAt = outcome.kind === 'retry' ? new Date(now.getTime() + outcome.delayMs) : null;
  const { retryAfter: _retryAfter, ...answer } = result;
  const attempt = { attemptedAt, ...answer };
  // A wait the receiver asked for with Retry-After is counted apart and leaves the delivery where it was on the schedule.
  const receiverSet = outcome.kind === 'retry' && outcome.receiverSet;
  const settlement = {
    status: outcome.kind === 'succeeded' ? ('succeeded' as const) : outcome.kind === 'retry' ? ('pending' as const) : ('failed' as const),
    failures: outcome.kind === 'succeeded' || receiverSet ? target.failures : target.failures + 1,
    retryAfterAttempts: receiverSet ? target.retryAfterAttempts + 1 : target.retryAfterAttempts,
    nextAttemptAt,
    at: now,
  };
  // The attempt and its outcome are one statement; a receiver that is gone also disables its webhook, in a transaction.
  const settled =
    outcome.kind !== 'gone'
      ? await deps.deliveries.recordAndSettle(deps.pool, target.clientId, target.id, target.round, attempt, settlement)
      : await withTransaction(deps.pool, async (tx) => {
          const applied = await deps.deliveries.recordAndSettle(tx, target.clientId, target.id, target.round, attempt, settlement);
          if (applied) {
            const disabled = await deps.webhooks.disable(tx, target.clientId, target.webhook.id, now);
            if (disabled) await recordWebhookEvent(tx, WEBHOOK_EVENTS.updated, disabled, now);
          }
          return applied;
        });
  if (outcome.kind === 'gone') deps.outbox?.kick();
  const label = OUTCOME_LABELS[outcome.kind];
  deliveriesTotal.inc({ outcome: label });
  deliverySeconds.observe({ outcome: label }, result.durationMs / 1000);
  if (outcome.kind === 'succeeded') deliveryLag.observe(Math.max(0, now.getTime() - target.createdAt.getTime()) / 1000);
  deps.log.info({ deliveryId: target.id, eventId: target.eventId, statusCode: result.statusCode, outcome: outcome.kind }, 'webhook delivery attempted');
  return settled && nextAttemptAt ? { rescheduleAt: nextAttemptAt } : undefined;
}

export function deliveryJobs(deps: WebhookDeps): Record<string, JobHandler> {
  return { [DELIVER_JOB]: (job) => attemptDelivery(deps, payloadOf(job.payload)) };
}
