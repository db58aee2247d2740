import { errors, pageMeta, requireClientId, toPage, type PageInput, type PageMeta } from '@platform/kit';
import type { PaymentBatch } from '../domain/batch';
import type { PayoutsDeps } from './deps';
import { sellerFilter, dateFilter, BATCH_STATUSES } from './readFilters';

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
