import { errors, isUuid, scheduleJob, type Job, type JobOutcome } from '@platform/kit';
import { callWithTimeout } from '../../connectors/app/call';
import { NotificationRefusedError, type NotifiedOperation, type PaymentProvider, type ProviderChargeStatus } from '../../connectors/domain/types';
import type { ProviderEntry } from '../../connectors/app/providerEntries';
import type { Charge } from '../domain/charge';
import type { ObservedStatus } from '../domain/providerStatus';
import type { ChargeDeps } from './deps';
import { followOperation, followProvider } from './providerStatus';

export interface InboundProviderNotification {
  providerId: string;
  headers: Record<string, string>;
  query: Record<string, string>;
  rawBody: Buffer;
}

export interface NotificationReply {
  status: number;
  body: unknown;
}

const RECEIVED: NotificationReply = { status: 200, body: { received: true } };

/**
 * What a provider posts to `/v1/provider-notifications/{providerId}`. The entry the URL names decides everything:
 * its connector verifies the notification with the entry's credentials (refused: 401, nothing changes), and only
 * charges authorized through that entry (hence of its client) are looked at, by their authorization's transaction
 * id; a transaction id of anyone else's charge finds nothing and changes nothing. Each charge follows the status
 * the connector read from a signed body, or else the one its provider answers when asked (`query`): a status in an
 * unsigned body is never trusted. Unknown, deleted or malformed entry ids, and entries whose connector takes no
 * notifications, are all the same 404. The same notification twice changes nothing the second time.
 */
export async function receiveProviderNotification(deps: ChargeDeps, inbound: InboundProviderNotification): Promise<NotificationReply> {
  const notFound = () => errors.notFound('Provider', isUuid(inbound.providerId) ? inbound.providerId : undefined);
  if (!isUuid(inbound.providerId)) throw notFound();
  const entry = await deps.providerEntries?.byId(deps.pool, inbound.providerId);
  const adapter = entry ? deps.providers.payment(entry.type) : undefined;
  if (!entry || !adapter?.notifications) throw notFound();
  let reading;
  try {
    reading = adapter.notifications.read({ headers: inbound.headers, query: inbound.query, rawBody: inbound.rawBody }, entry.credentials);
  } catch (error) {
    if (error instanceof NotificationRefusedError) {
      deps.log.warn({ providerId: entry.id, providerType: entry.type, reason: error.message }, 'refused a provider notification');
      throw errors.unauthenticated('The notification could not be verified');
    }
    throw error;
  }
  let unanswered = 0;
  for (const transaction of reading.transactions) {
    const charge = await deps.store.findByProviderTransaction(deps.pool, entry.clientId, entry.id, transaction.transactionId);
    if (!charge) {
      // It may have come before the charge's own answer was recorded: held, and looked for again shortly.
      await holdEarlyNotification(deps, entry.id, transaction);
      continue;
    }
    const observed = transaction.status
      ? { status: transaction.status, providerStatus: transaction.providerStatus }
      : await askStatus(deps, adapter, entry, charge, transaction.transactionId);
    if (observed === 'unanswered') {
      unanswered++;
      continue;
    }
    if (observed && transaction.operation) {
      if ((await followOperation(deps, charge, transaction.operation, observed)) === 'busy') unanswered++;
    } else if (observed) {
      await followProvider(deps, charge, observed, { fromNotificationBody: transaction.status !== undefined });
    }
  }
  // The provider sends it again later: what was applied stays applied, the rest is applied then.
  if (unanswered > 0) throw errors.unavailable('The provider could not be asked about the notified transactions; send it again later');
  return reading.reply ? { status: reading.reply.status, body: reading.reply.body ?? null } : RECEIVED;
}

/**
 * Where a transaction stands at its provider now, asked with the entry's credentials under the provider deadline.
 * undefined: the provider does not know it, or its adapter cannot say; 'unanswered': no answer in time.
 */
export async function askStatus(
  deps: Pick<ChargeDeps, 'config' | 'clock' | 'log'>,
  adapter: PaymentProvider,
  entry: Pick<ProviderEntry, 'id' | 'type' | 'credentials' | 'options'>,
  charge: Charge,
  transactionId: string,
): Promise<ObservedStatus | undefined | 'unanswered'> {
  const query = adapter.query?.bind(adapter);
  if (!query) return undefined;
  const request = {
    chargeId: charge.id,
    transactionId,
    paymentType: charge.paymentMethod.paymentType,
    amount: charge.amount,
    currency: charge.currency,
    now: deps.clock.now(),
  };
  const result = await callWithTimeout(deps.config.PROVIDER_TIMEOUT_MS, (signal) =>
    query(request, { idempotencyKey: `${charge.id}:query:${transactionId}`, signal, credentials: entry.credentials, options: entry.options }),
  );
  if (!result.ok) {
    deps.log.warn({ providerId: entry.id, providerType: entry.type, chargeId: charge.id, failure: result.failure }, 'could not ask a provider where a transaction stands');
    return 'unanswered';
  }
  const answer = result.value;
  if (!answer.found || !answer.status) return undefined;
  return {
    status: answer.status as ProviderChargeStatus,
    capturedAmount: answer.capturedAmount,
    refundedAmount: answer.refundedAmount,
    providerStatus: answer.providerStatus,
  };
}

// ---------------------------------------------------------------- notifications that come before their charge

export const EARLY_NOTIFICATION = 'payments.charge.early_notification';

/** When a held notification's transaction is looked for again, after it came: then given up (the status sync remains). */
export const EARLY_NOTIFICATION_DELAYS_MS: readonly number[] = [2_000, 10_000, 60_000, 5 * 60_000, 30 * 60_000];

interface HeldNotification {
  providerId: string;
  transactionId: string;
  status?: ProviderChargeStatus;
  providerStatus?: string;
  operation?: NotifiedOperation;
  /** Which look this is, from 1. */
  look: number;
}

/**
 * A provider may post about a transaction before the platform has recorded the answer that created it (a webhook
 * racing the synchronous answer, or a charge whose commit is slow). Such a notification is held as a durable job, one
 * per entry and transaction, that looks for the charge again a few times; a transaction of no charge at all (a forged
 * one, another client's) is looked for and dropped, having changed nothing.
 */
async function holdEarlyNotification(
  deps: Pick<ChargeDeps, 'pool' | 'clock' | 'log'>,
  providerId: string,
  transaction: { transactionId: string; status?: ProviderChargeStatus; providerStatus?: string; operation?: NotifiedOperation },
): Promise<void> {
  const payload: HeldNotification = {
    providerId,
    transactionId: transaction.transactionId,
    ...(transaction.status ? { status: transaction.status } : {}),
    ...(transaction.providerStatus ? { providerStatus: transaction.providerStatus } : {}),
    ...(transaction.operation ? { operation: transaction.operation } : {}),
    look: 1,
  };
  await scheduleJob(deps.pool, {
    kind: EARLY_NOTIFICATION,
    runAt: new Date(deps.clock.now().getTime() + EARLY_NOTIFICATION_DELAYS_MS[0]!),
    payload: { ...payload },
    dedupeKey: `${providerId}:${transaction.transactionId}`,
    maxAttempts: 3,
  });
  deps.log.info({ providerId }, 'a provider notification named a transaction of no charge of its entry yet: held');
}

/** The held notification's next look: applied if its charge is there now, else looked for later, or dropped. */
export async function lookAgain(deps: ChargeDeps, job: Pick<Job, 'payload'>): Promise<JobOutcome> {
  const held = job.payload as unknown as HeldNotification;
  const entry = await deps.providerEntries?.byId(deps.pool, held.providerId);
  const adapter = entry ? deps.providers.payment(entry.type) : undefined;
  if (!entry || !adapter) return undefined;
  const charge = await deps.store.findByProviderTransaction(deps.pool, entry.clientId, entry.id, held.transactionId);
  if (!charge) {
    const delay = EARLY_NOTIFICATION_DELAYS_MS[held.look];
    if (delay === undefined) {
      deps.log.info({ providerId: entry.id, providerType: entry.type }, 'a held provider notification never found its charge: dropped');
      return undefined;
    }
    return { rescheduleAt: new Date(deps.clock.now().getTime() + delay), payload: { ...held, look: held.look + 1 } };
  }
  const observed = held.status
    ? { status: held.status, providerStatus: held.providerStatus }
    : await askStatus(deps, adapter, entry, charge, held.transactionId);
  // No answer now: the job's own retry asks again.
  if (observed === 'unanswered') throw errors.unavailable('The provider could not be asked about a held notification');
  if (observed && held.operation) {
    const delay = EARLY_NOTIFICATION_DELAYS_MS[held.look];
    // An operation on the charge is being asked right now: looked at again after its answer.
    if ((await followOperation(deps, charge, held.operation, observed)) === 'busy' && delay !== undefined) {
      return { rescheduleAt: new Date(deps.clock.now().getTime() + delay), payload: { ...held, look: held.look + 1 } };
    }
  } else if (observed) {
    await followProvider(deps, charge, observed, { fromNotificationBody: held.status !== undefined });
  }
  return undefined;
}
