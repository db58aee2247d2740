import type { Queryable } from '@platform/kit';
import type { ApiKey, KeyKind } from '../domain/apiKeys';
import type { ClientAccount, Environment } from '../domain/clients';
import { toClient } from './clientStore';

interface ApiKeyRow {
  id: string;
  client_id: string;
  kind: KeyKind;
  scopes: string[];
  expires_at: Date | null;
  revoked_at: Date | null;
  created_at: Date;
}

const COLUMNS = 'id, client_id, kind, scopes, expires_at, revoked_at, created_at';

function toApiKey(row: ApiKeyRow): ApiKey {
  return {
    id: row.id,
    clientId: row.client_id,
    kind: row.kind,
    scopes: row.scopes,
    expiresAt: row.expires_at,
    revokedAt: row.revoked_at,
    createdAt: row.created_at,
  };
}

/** A key found by its hash, with its stored hash (for the final comparison) and its client. */
export interface Credential {
  key: ApiKey;
  keyHash: Buffer;
  client: ClientAccount;
}

export interface ApiKeyStore {
  insert(db: Queryable, key: ApiKey, keyHash: Buffer): Promise<void>;
  findCredentialByClientIdKeyHash(db: Queryable, clientId: string, keyHash: Buffer): Promise<Credential | undefined>;
  findByClientIdKeyId(db: Queryable, clientId: string, keyId: string, options?: { forUpdate?: boolean }): Promise<ApiKey | undefined>;
  markRevoked(db: Queryable, clientId: string, keyId: string, at: Date): Promise<void>;
}

export function createApiKeyStore(): ApiKeyStore {
  return {
    async insert(db, key, keyHash) {
      await db.query(
        `INSERT INTO api_keys (id, client_id, kind, key_hash, scopes, expires_at, revoked_at, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
        [key.id, key.clientId, key.kind, keyHash, key.scopes, key.expiresAt, key.revokedAt, key.createdAt],
      );
    },

    async findCredentialByClientIdKeyHash(db, clientId, keyHash) {
      const { rows } = await db.query<
        ApiKeyRow & {
          key_hash: Buffer;
          client_name: string;
          client_environment: Environment;
          client_prepayment_enabled: boolean;
          client_created_at: Date;
          client_updated_at: Date;
        }
      >(
        `SELECT k.id, k.client_id, k.kind, k.scopes, k.expires_at, k.revoked_at, k.created_at, k.key_hash,
                c.name AS client_name, c.environment AS client_environment, c.prepayment_enabled AS client_prepayment_enabled,
                c.created_at AS client_created_at, c.updated_at AS client_updated_at
         FROM api_keys k JOIN clients c ON c.id = k.client_id
         WHERE k.key_hash = $1 AND k.client_id = $2`,
        [keyHash, clientId],
      );
      const row = rows[0];
      if (!row) return undefined;
      return {
        key: toApiKey(row),
        keyHash: row.key_hash,
        client: toClient({
          id: row.client_id,
          name: row.client_name,
          environment: row.client_environment,
          prepayment_enabled: row.client_prepayment_enabled,
          created_at: row.client_created_at,
          updated_at: row.client_updated_at,
        }),
      };
    },

    async findByClientIdKeyId(db, clientId, keyId, options = {}) {
      const { rows } = await db.query<ApiKeyRow>(
        `SELECT ${COLUMNS} FROM api_keys WHERE client_id = $1 AND id = $2${options.forUpdate ? ' FOR UPDATE' : ''}`,
        [clientId, keyId],
      );
      return rows[0] && toApiKey(rows[0]);
    },

    async markRevoked(db, clientId, keyId, at) {
      await db.query('UPDATE api_keys SET revoked_at = $3 WHERE client_id = $1 AND id = $2 AND revoked_at IS NULL', [clientId, keyId, at]);
    },
  };
}
