import type { Charge } from '../domain/charge';
import type { ChargeDeps } from './deps';
import { askStatus } from './providerNotifications';
import { followProvider } from './providerStatus';

/** Charges asked about per run (the job runs every minute): a bounded batch, the most overdue first. */
export const SYNC_BATCH = 25;

/** The wait before the n-th check after the first: 1, 2, 4, ... minutes, never more than an hour. */
export function syncDelayMs(attempts: number): number {
  const minutes = 2 ** Math.max(0, attempts - 1);
  return Math.min(minutes, 60) * 60_000;
}

/** How long past its expiry a charge is still asked about: payments made at the last moment arrive late. */
export const PIX_EXPIRY_MARGIN_MS = 60 * 60_000;
/** A boleto is paid up to its due date and the bank settles it up to three working days later. */
export const BOLETO_EXPIRY_MARGIN_MS = 5 * 24 * 60 * 60_000;
/** A capture, void or refund the provider settles later: asked about for a week at most. */
export const OPERATION_SYNC_MS = 7 * 24 * 60 * 60_000;

/**
 * When the sync stops asking about a charge its provider still calls pending: a Pix an hour after its QR code
 * expired, a boleto five days after its due date, anything else a week after its last change. The charge is then
 * left as it is, never canceled here: the platform does not know better than the provider, and the provider's
 * own notification (or nothing) decides what it becomes.
 */
export function syncDeadline(charge: Pick<Charge, 'paymentMethod' | 'createdAt' | 'updatedAt' | 'status'>): Date {
  const method = charge.paymentMethod;
  if (charge.status === 'pending' && method.paymentType === 'pix') {
    const expires = method.expiresAt ? new Date(method.expiresAt).getTime() : charge.createdAt.getTime() + (method.expiresIn ?? 86_400) * 1000;
    return new Date(expires + PIX_EXPIRY_MARGIN_MS);
  }
  if (charge.status === 'pending' && method.paymentType === 'boleto' && method.expiresDate) {
    const due = Date.parse(`${method.expiresDate}T23:59:59.999-03:00`);
    if (Number.isFinite(due)) return new Date(due + BOLETO_EXPIRY_MARGIN_MS);
  }
  return new Date(charge.updatedAt.getTime() + OPERATION_SYNC_MS);
}

/**
 * One run of the status sync: charges of providers whose adapter can be asked (`query`) that wait on their
 * provider (a Pix or boleto not paid yet, a capture or refund settled later) are asked where they stand, each on
 * its own schedule (1, 2, 4, ... minutes apart, at most an hour), and follow the answer as a notification would.
 * A charge whose provider cannot be asked, or whose answer fails, is tried again later; one charge's failure never
 * stops the others. Answers how many charges were asked.
 */
export async function syncProviderStatuses(deps: ChargeDeps, limit = SYNC_BATCH): Promise<number> {
  const now = deps.clock.now();
  const due = await deps.store.dueForSync(deps.pool, now, deps.providers.queryable(), limit);
  for (const target of due) {
    try {
      await syncOne(deps, target, now);
    } catch (error) {
      deps.log.warn({ err: error, chargeId: target.id }, 'could not sync a charge with its provider');
      await deps.store.setSync(deps.pool, target.clientId, target.id, nextCheck(now, target.attempts + 1));
    }
  }
  return due.length;
}

const nextCheck = (now: Date, attempts: number) => ({ nextAt: new Date(now.getTime() + syncDelayMs(attempts)), attempts, stoppedAt: null });

async function syncOne(deps: ChargeDeps, target: { clientId: string; id: string; attempts: number }, now: Date): Promise<void> {
  const charge = await deps.store.findById(deps.pool, target.clientId, target.id);
  if (!charge) return;
  const attempts = target.attempts + 1;
  const entry = charge.providerId ? await deps.providerEntries?.byId(deps.pool, charge.providerId) : undefined;
  const adapter = entry ? deps.providers.payment(entry.type) : undefined;
  const transactionId = charge.transactionRequests.filter((r) => r.requestType === 'authorization' && r.requestStatus === 'success').at(-1)?.transactionId;
  if (!entry || !adapter?.query || !transactionId) {
    // Nobody can be asked (the entry was deleted, the charge never reached its provider): the sync stops here.
    await deps.store.setSync(deps.pool, charge.clientId, charge.id, { nextAt: null, attempts, stoppedAt: now });
    return;
  }
  const observed = await askStatus(deps, adapter, entry, charge, transactionId);
  const changed = observed !== undefined && observed !== 'unanswered' ? await followProvider(deps, charge, observed) : false;
  // A change started the schedule over (followProvider resets it); otherwise the next check waits longer.
  if (changed) return;
  const stop = now.getTime() >= syncDeadline(charge).getTime();
  await deps.store.setSync(deps.pool, charge.clientId, charge.id, stop ? { nextAt: null, attempts, stoppedAt: now } : nextCheck(now, attempts));
}
