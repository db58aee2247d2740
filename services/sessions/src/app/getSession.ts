import { requireClientId } from '@platform/kit';
import type { SessionDeps } from './deps';
import { loadSession, viewOf, type SessionView } from './sessionView';

export async function getSession(deps: SessionDeps, input: { clientId: string; id: string }): Promise<SessionView> {
  return viewOf(deps, await loadSession(deps, deps.pool, requireClientId(input.clientId), input.id));
}
