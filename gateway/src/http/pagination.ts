import type { common } from '@platform/contracts';
import { AppError, type PageMeta } from '@platform/kit';
import { z } from '../openapi/zod';
import { queryInt32 } from './fields';

const direction = z
  .preprocess((v) => (typeof v === 'string' ? v.toUpperCase() : v), z.enum(['ASC', 'DESC'], { error: 'must be asc or desc' }))
  .optional();

/** Query parameters of every list: page, limit and the direction (newest first unless asked otherwise). */
export const paginationQuery = z.object({
  page: queryInt32()
    .min(1, 'must be at least 1')
    .default(1)
    .openapi({ description: 'Page number, from 1' }),
  limit: queryInt32()
    .min(1, 'must be at least 1')
    .max(100, 'must be at most 100')
    .default(10)
    .openapi({ description: 'Items per page, 1 to 100' }),
  sort: direction.openapi({ description: 'ASC or DESC (case-insensitive); newest first by default' }),
  order: direction.openapi({ description: 'Same as sort (asc or desc)' }),
});

export type PaginationQuery = z.infer<typeof paginationQuery>;

export function toPageRequest(query: PaginationQuery): common.PageRequest {
  return { page: query.page, limit: query.limit, sort: query.sort ?? query.order ?? 'DESC' };
}

export const PageMetaSchema = z
  .object({
    itemCount: z.int(),
    totalItems: z.int(),
    itemsPerPage: z.int(),
    totalPages: z.int(),
    currentPage: z.int(),
  })
  .openapi('PageMeta');

export function listSchema<T extends z.ZodType>(item: T, name: string) {
  return z.object({ items: z.array(item), meta: PageMetaSchema }).openapi(name);
}

/** The list envelope, with the page meta the service computed. */
export function toList<T>(items: T[], meta: common.PageMeta | undefined): { items: T[]; meta: PageMeta } {
  if (!meta) throw new AppError('internal', 'upstream list answer without meta');
  const { itemCount, totalItems, itemsPerPage, totalPages, currentPage } = meta;
  return { items, meta: { itemCount, totalItems, itemsPerPage, totalPages, currentPage } };
}
