import type { Queryable } from '@platform/kit';
import type { ClientAccount, ClientChanges, Environment } from '../domain/clients';

interface ClientRow {
  id: string;
  name: string;
  environment: Environment;
  prepayment_enabled: boolean;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = 'id, name, environment, prepayment_enabled, created_at, updated_at';

export function toClient(row: ClientRow): ClientAccount {
  return {
    id: row.id,
    name: row.name,
    environment: row.environment,
    prepaymentEnabled: row.prepayment_enabled,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export interface ClientStore {
  insert(db: Queryable, client: ClientAccount): Promise<void>;
  findById(db: Queryable, clientId: string): Promise<ClientAccount | undefined>;
  /** Applies the given changes; undefined when the client does not exist. */
  update(db: Queryable, clientId: string, changes: ClientChanges, now: Date): Promise<ClientAccount | undefined>;
}

export function createClientStore(): ClientStore {
  return {
    async insert(db, client) {
      await db.query(`INSERT INTO clients (${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6)`, [
        client.id,
        client.name,
        client.environment,
        client.prepaymentEnabled,
        client.createdAt,
        client.updatedAt,
      ]);
    },

    async findById(db, clientId) {
      const { rows } = await db.query<ClientRow>(`SELECT ${COLUMNS} FROM clients WHERE id = $1`, [clientId]);
      return rows[0] && toClient(rows[0]);
    },

    async update(db, clientId, changes, now) {
      const { rows } = await db.query<ClientRow>(
        `UPDATE clients SET name = COALESCE($2, name), prepayment_enabled = COALESCE($3, prepayment_enabled), updated_at = $4
         WHERE id = $1 RETURNING ${COLUMNS}`,
        [clientId, changes.name ?? null, changes.prepaymentEnabled ?? null, now],
      );
      return rows[0] && toClient(rows[0]);
    },
  };
}
