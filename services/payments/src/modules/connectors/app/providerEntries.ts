import { isUuid, type Queryable } from '@platform/kit';
import type { Vault } from '../../vault/crypto/crypto';
import type { RoutableProvider } from '../../../shared/ports';

/** A merchant's provider entry with its credentials opened, and the client it belongs to. */
export interface ProviderEntry extends RoutableProvider {
  clientId: string;
}

/**
 * Provider entries by their own id, of any client: a provider's notification URL names the entry, and only the
 * entry says whose charges the notification may touch. A deleted entry, or one of a deleted merchant, is not found.
 */
export interface ProviderEntries {
  byId(db: Queryable, id: string): Promise<ProviderEntry | undefined>;
}

interface EntryRow {
  id: string;
  client_id: string;
  merchant_id: string;
  name: string;
  priority: number;
  credentials_type: string;
  credentials_encrypted: Buffer;
  options: Record<string, unknown>;
}

export function createProviderEntries(deps: { vault: Pick<Vault, 'open'> }): ProviderEntries {
  return {
    async byId(db, id) {
      if (!isUuid(id)) return undefined;
      const { rows } = await db.query<EntryRow>(
        `SELECT p.id, p.client_id, p.merchant_id, p.name, p.priority, p.credentials_type, p.credentials_encrypted, p.options
           FROM providers p
           JOIN merchants m ON m.id = p.merchant_id AND m.client_id = p.client_id
          WHERE p.id = $1 AND p.deleted_at IS NULL AND m.deleted_at IS NULL`,
        [id.toLowerCase()],
      );
      const row = rows[0];
      if (!row) return undefined;
      return {
        id: row.id,
        clientId: row.client_id,
        merchantId: row.merchant_id,
        name: row.name,
        priority: row.priority,
        type: row.credentials_type,
        credentials: JSON.parse(await deps.vault.open('provider-credentials', row.credentials_encrypted)) as Record<string, unknown>,
        options: row.options ?? {},
      };
    },
  };
}
