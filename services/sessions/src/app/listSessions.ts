import { pageMeta, requireClientId, toPage, type PageInput, type PageMeta } from '@platform/kit';
import type { SessionFilters } from '../store/sessionStore';
import type { SessionDeps } from './deps';
import { viewOf, type SessionView } from './sessionView';

export async function listSessions(
  deps: SessionDeps,
  input: { clientId: string; page?: PageInput; filters: SessionFilters },
): Promise<{ items: SessionView[]; meta: PageMeta }> {
  const clientId = requireClientId(input.clientId);
  const page = toPage(input.page);
  const { items, total } = await deps.store.list(deps.pool, clientId, input.filters, page);
  return { items: items.map((s) => viewOf(deps, s)), meta: pageMeta(page, items.length, total) };
}
