import { scheduleJob, scheduleJobs, withTransaction, type JobHandler, type JobOutcome, type Queryable } from '@platform/kit';
import type { RecoveryCursor, RecoveryWindow } from '../store/deliveryStore';
import { deliveryJob } from './deliveryJob';
import type { WebhookDeps } from './deps';

export const RECOVER_JOB = 'webhooks.recover';
/** Deliveries a step of the walk starts again, in one transaction. */
export const RECOVERY_PAGE_SIZE = 100;
/**
 * Time between two re-sent attempts of one recovery (20 a second). The job queue runs due jobs oldest first, so
 * attempts spread out this way leave room for the live deliveries that come due among them, where a page due at
 * once would hold the next live ones back until it had been sent.
 */
export const RECOVERY_SPACING_MS = 50;
/** Failures of the service itself (the database) back off in the job runner; the walk resumes where it stood. */
const MAX_JOB_FAILURES = 30;

interface RecoverPayload {
  clientId: string;
  webhookId: string;
  since: string;
  until: string;
  /** The last delivery the walk went past; null before the first page. */
  after: RecoveryCursor | null;
}

function payloadOf(raw: Record<string, unknown>): RecoverPayload {
  const { clientId, webhookId, since, until, after } = raw;
  const cursor = after as Partial<RecoveryCursor> | null | undefined;
  if (
    typeof clientId !== 'string' ||
    typeof webhookId !== 'string' ||
    typeof since !== 'string' ||
    typeof until !== 'string' ||
    (cursor !== null && cursor !== undefined && (typeof cursor.createdAtUs !== 'string' || typeof cursor.seq !== 'string'))
  ) {
    throw new Error(`malformed ${RECOVER_JOB} payload`);
  }
  return { clientId, webhookId, since, until, after: cursor ? { createdAtUs: cursor.createdAtUs!, seq: cursor.seq! } : null };
}

/**
 * Schedules the walk of a recovery in the caller's transaction. It is keyed by the webhook and `since`: asking again
 * for the same recovery while its walk is still going adds nothing. Another `since` walks on its own; a delivery
 * that a walk already started again and that has not been attempted yet is left alone by the other (see
 * `DeliveryStore.restartPage`), so no event is queued twice.
 */
export async function scheduleRecovery(tx: Queryable, window: RecoveryWindow, runAt: Date): Promise<void> {
  const payload: RecoverPayload = {
    clientId: window.clientId,
    webhookId: window.webhookId,
    since: window.since.toISOString(),
    until: window.until.toISOString(),
    after: null,
  };
  await scheduleJob(tx, { kind: RECOVER_JOB, runAt, payload: { ...payload }, dedupeKey: `${window.webhookId}:${payload.since}`, maxAttempts: MAX_JOB_FAILURES });
}

/**
 * One step of a recovery: the next page of the window, oldest first, each delivery started again in a new round
 * (the same stored body, so the same event id and bytes, signed at its attempt) with its attempt job, all in one
 * transaction. The next step comes once this page's attempts are due, so a recovery holds at most a page in the queue.
 * A webhook deleted or disabled meanwhile ends the walk.
 */
export async function walkRecovery(deps: WebhookDeps, payload: RecoverPayload): Promise<JobOutcome> {
  const window: RecoveryWindow = { clientId: payload.clientId, webhookId: payload.webhookId, since: new Date(payload.since), until: new Date(payload.until) };
  const now = deps.clock.now();
  const page = await withTransaction(deps.pool, async (tx) => {
    const webhook = await deps.webhooks.findById(tx, window.clientId, window.webhookId);
    if (!webhook?.active) return null;
    const rows = await deps.deliveries.restartPage(tx, window, { after: payload.after, limit: RECOVERY_PAGE_SIZE, start: now, spacingMs: RECOVERY_SPACING_MS, at: now });
    await scheduleJobs(
      tx,
      rows.flatMap((row) => (row.resent ? [deliveryJob({ deliveryId: row.id, clientId: window.clientId, round: row.resent.round }, row.resent.runAt)] : [])),
    );
    return rows;
  });
  const last = page?.at(-1);
  deps.log.info(
    { webhookId: window.webhookId, deliveries: page?.length ?? 0, resent: page?.filter((row) => row.resent).length ?? 0, done: !last || page!.length < RECOVERY_PAGE_SIZE },
    page ? 'webhook recovery page' : 'webhook recovery ended: the webhook is gone or disabled',
  );
  if (!last || page!.length < RECOVERY_PAGE_SIZE) return;
  return { rescheduleAt: new Date(now.getTime() + RECOVERY_PAGE_SIZE * RECOVERY_SPACING_MS), payload: { ...payload, after: last.cursor } };
}

export function recoveryJobs(deps: WebhookDeps): Record<string, JobHandler> {
  return { [RECOVER_JOB]: (job) => walkRecovery(deps, payloadOf(job.payload)) };
}
