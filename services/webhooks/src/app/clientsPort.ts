import type { settings } from '@platform/contracts';
import { AppError, type PromiseClient } from '@platform/kit';

/** Who a client is, as far as webhooks need to know: its environment, which settings holds. */
export interface ClientsPort {
  /** `sandbox` or `live`; null for a client settings does not know. */
  environmentOf(clientId: string): Promise<string | null>;
}

/** A client's environment is set at its creation and never changes, so an answer is kept (up to this many clients). */
const ENVIRONMENTS_KEPT = 10_000;

/** Settings over gRPC (`GetClient`), each client asked once per process. */
export function settingsClientsPort(client: PromiseClient<typeof settings.SettingsServiceService>): ClientsPort {
  const known = new Map<string, string>();
  return {
    async environmentOf(clientId) {
      const cached = known.get(clientId);
      if (cached !== undefined) return cached;
      try {
        const { environment } = await client.getClient({ clientId });
        if (known.size >= ENVIRONMENTS_KEPT) known.clear();
        known.set(clientId, environment);
        return environment;
      } catch (error) {
        if (error instanceof AppError && error.kind === 'not_found') return null;
        throw error;
      }
    },
  };
}

/**
 * Whether a client's webhooks may reach loopback and private addresses: only a sandbox client's, and only while the
 * operator's switch (`WEBHOOKS_ALLOW_PRIVATE_TARGETS`) lets anyone's. Settings is asked only when the switch is on.
 */
export async function privateTargetsAllowed(deps: { allowPrivateTargets: boolean; clients: ClientsPort }, clientId: string): Promise<boolean> {
  if (!deps.allowPrivateTargets) return false;
  return (await deps.clients.environmentOf(clientId)) === 'sandbox';
}
