import { requireClientId } from '@platform/kit';
import type { HistoryRecord } from '../store/sessionStore';
import type { SessionDeps } from './deps';
import { loadSession } from './sessionView';

export async function sessionHistory(deps: SessionDeps, input: { clientId: string; id: string }): Promise<HistoryRecord[]> {
  const clientId = requireClientId(input.clientId);
  await loadSession(deps, deps.pool, clientId, input.id);
  return deps.store.history(deps.pool, clientId, input.id);
}
