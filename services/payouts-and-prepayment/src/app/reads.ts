import { errors, isUuid, pageMeta, requireClientId, toPage, withTransaction, type PageInput, type PageMeta } from '@platform/kit';
import { isIsoDate } from '../domain/calendar';
import type { PaymentBatch, PaymentOrder } from '../domain/batch';
import type { PayoutsDeps } from './deps';
import { payBatch, settleClient } from './settlement';

const BATCH_STATUSES = ['pending', 'paid', 'failed', 'offset'];

/** A seller id as a filter: absent means the client's main account (balance and lists, as documented). */
function sellerFilter(sellerId: string | undefined): string | undefined {
  if (sellerId === undefined || sellerId === '') return undefined;
  if (!isUuid(sellerId)) throw errors.validation('sellerId must be a UUID', [{ field: 'sellerId', message: 'must be a UUID' }]);
  return sellerId.toLowerCase();
}

function dateFilter(value: string | undefined, field: string): string | undefined {
  if (value === undefined || value === '') return undefined;
  if (!isIsoDate(value)) throw errors.validation(`${field} must be a date (YYYY-MM-DD)`, [{ field, message: 'must be a date (YYYY-MM-DD)' }]);
  return value;
}

export async function balance(deps: PayoutsDeps, input: { clientId: string; sellerId?: string }): Promise<{ available: number; receivable: number }> {
  const clientId = requireClientId(input.clientId);
  return deps.ledgerStore.balance(deps.pool, clientId, sellerFilter(input.sellerId) ?? null);
}

export async function listBatches(
  deps: PayoutsDeps,
  input: { clientId: string; page?: PageInput; sellerId?: string; statuses?: string[]; startDate?: string; endDate?: string },
): Promise<{ items: PaymentBatch[]; meta: PageMeta }> {
  const clientId = requireClientId(input.clientId);
  const statuses = (input.statuses ?? []).flatMap((s) => s.split(',')).map((s) => s.trim()).filter((s) => s !== '');
  const unknown = statuses.find((s) => !BATCH_STATUSES.includes(s));
  if (unknown) throw errors.validation(`status must be one of ${BATCH_STATUSES.join(', ')}`, [{ field: 'status', message: `must be one of ${BATCH_STATUSES.join(', ')}` }]);
  const page = toPage(input.page);
  const { items, total } = await deps.batchStore.listBatches(
    deps.pool,
    clientId,
    {
      receiver: sellerFilter(input.sellerId) ?? null,
      statuses,
      startDate: dateFilter(input.startDate, 'startDate'),
      endDate: dateFilter(input.endDate, 'endDate'),
    },
    page,
  );
  return { items, meta: pageMeta(page, items.length, total) };
}

export async function getBatch(deps: PayoutsDeps, input: { clientId: string; id: string }): Promise<PaymentBatch> {
  const clientId = requireClientId(input.clientId);
  const batch = isUuid(input.id) ? await deps.batchStore.findBatch(deps.pool, clientId, input.id.toLowerCase()) : null;
  if (!batch) throw errors.notFound('Payment batch', input.id);
  return batch;
}

export async function listOrders(
  deps: PayoutsDeps,
  input: { clientId: string; page?: PageInput; sellerId?: string; startDate?: string; endDate?: string; chargeId?: string; paymentBatchId?: string },
): Promise<{ items: PaymentOrder[]; meta: PageMeta }> {
  const clientId = requireClientId(input.clientId);
  if (input.paymentBatchId !== undefined) await getBatch(deps, { clientId, id: input.paymentBatchId });
  if (input.chargeId && !isUuid(input.chargeId)) throw errors.validation('chargeId must be a UUID', [{ field: 'chargeId', message: 'must be a UUID' }]);
  const page = toPage(input.page);
  const seller = sellerFilter(input.sellerId);
  // A batch pays one receiver: its orders are listed whoever that is; otherwise no sellerId is the main account.
  const receiver = seller ?? (input.paymentBatchId !== undefined ? undefined : null);
  const { items, total } = await deps.batchStore.listOrders(
    deps.pool,
    clientId,
    {
      ...(receiver !== undefined ? { receiver } : {}),
      startDate: dateFilter(input.startDate, 'startDate'),
      endDate: dateFilter(input.endDate, 'endDate'),
      ...(input.chargeId ? { chargeId: input.chargeId.toLowerCase() } : {}),
      ...(input.paymentBatchId ? { batchId: input.paymentBatchId.toLowerCase() } : {}),
    },
    page,
  );
  return { items, meta: pageMeta(page, items.length, total) };
}

export async function getOrder(deps: PayoutsDeps, input: { clientId: string; id: string }): Promise<PaymentOrder> {
  const clientId = requireClientId(input.clientId);
  const order = isUuid(input.id) ? await deps.batchStore.findOrder(deps.pool, clientId, input.id.toLowerCase()) : null;
  if (!order) throw errors.notFound('Payment order', input.id);
  return order;
}

/**
 * Sandbox: the settlement of `date` for this client, as if today were that date, with the transfers that failed and
 * are due again by then tried again (their durable job would run on that day). The batches settled, then those
 * tried again.
 */
export async function advance(deps: PayoutsDeps, input: { clientId: string; date: string }): Promise<PaymentBatch[]> {
  const clientId = requireClientId(input.clientId);
  const date = dateFilter(input.date, 'date');
  if (!date) throw errors.validation('date is required', [{ field: 'date', message: 'is required' }]);
  const settled = await settleClient(deps, clientId, date);
  const due = await withTransaction(deps.pool, async (tx) => (await deps.batchStore.waitingBatches(tx, clientId, { retryBy: date })).filter((b) => b.status === 'failed'));
  const retried: PaymentBatch[] = [];
  for (const batch of due) retried.push(await payBatch(deps, clientId, batch.id));
  return [...settled, ...retried];
}
