import type { PayoutsDeps } from './deps';
import { settleClient } from './settleClient';

/** The daily run: settles every client with something due by `date`. */
export async function settleAll(deps: PayoutsDeps, date: string): Promise<number> {
  const clients = await deps.ledgerStore.clientsWithDueWork(deps.pool, date);
  for (const clientId of clients) await settleClient(deps, clientId, date);
  return clients.length;
}
