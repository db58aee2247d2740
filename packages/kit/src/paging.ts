export interface PageInput {
  page?: number;
  limit?: number;
  sort?: string;
}

export interface Page {
  page: number;
  limit: number;
  offset: number;
  /** SQL direction for created_at ordering: newest first unless ASC was asked. */
  direction: 'ASC' | 'DESC';
}

export interface PageMeta {
  itemCount: number;
  totalItems: number;
  itemsPerPage: number;
  totalPages: number;
  currentPage: number;
}

export function toPage(input: PageInput | undefined, defaultLimit = 10): Page {
  const page = Math.max(1, Math.trunc(input?.page || 1));
  const limit = Math.min(100, Math.max(1, Math.trunc(input?.limit || defaultLimit)));
  const direction = (input?.sort ?? '').toUpperCase() === 'ASC' ? 'ASC' : 'DESC';
  return { page, limit, offset: (page - 1) * limit, direction };
}

export function pageMeta(page: Page, itemCount: number, totalItems: number): PageMeta {
  return {
    itemCount,
    totalItems,
    itemsPerPage: page.limit,
    totalPages: Math.ceil(totalItems / page.limit),
    currentPage: page.page,
  };
}
