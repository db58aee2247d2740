import { errors, isUuid, pageMeta, requireClientId, toPage, type PageInput, type PageMeta } from '@platform/kit';
import type { PaymentOrder } from '../domain/batch';
import type { PayoutsDeps } from './deps';
import { getBatch } from './getBatch';
import { sellerFilter, dateFilter } from './readFilters';

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
