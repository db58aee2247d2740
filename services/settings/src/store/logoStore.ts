import { errors, withConstraintErrors, type Queryable } from '@platform/kit';
import type { Logo, LogoContentType } from '../domain/logos';

interface LogoRow {
  id: string;
  client_id: string;
  content_type: LogoContentType;
  data: Buffer;
  created_at: Date;
}

export interface LogoStore {
  /** An unknown client is not_found. */
  insert(db: Queryable, logo: Logo): Promise<void>;
  findById(db: Queryable, logoId: string): Promise<Logo | undefined>;
  /** Removes a replaced logo unless some settings row of the client still points at it. */
  deleteUnreferenced(db: Queryable, clientId: string, logoId: string): Promise<void>;
}

export function createLogoStore(): LogoStore {
  return {
    async insert(db, logo) {
      await withConstraintErrors(
        () =>
          db.query('INSERT INTO logos (id, client_id, content_type, data, created_at) VALUES ($1, $2, $3, $4, $5)', [
            logo.id,
            logo.clientId,
            logo.contentType,
            logo.data,
            logo.createdAt,
          ]),
        { logos_client_id_fkey: () => errors.notFound('Client', logo.clientId) },
      );
    },

    // The one read not filtered by client: the hosted checkout shows logos to anonymous payers, and the id is a
    // random UUID that only reaches a page through that client's own settings.
    async findById(db, logoId) {
      const { rows } = await db.query<LogoRow>('SELECT id, client_id, content_type, data, created_at FROM logos WHERE id = $1', [logoId]);
      const row = rows[0];
      if (!row) return undefined;
      return { id: row.id, clientId: row.client_id, contentType: row.content_type, data: row.data, createdAt: row.created_at };
    },

    async deleteUnreferenced(db, clientId, logoId) {
      await db.query(
        `DELETE FROM logos WHERE client_id = $1 AND id = $2
           AND NOT EXISTS (SELECT 1 FROM link_settings WHERE client_id = $1 AND logo_id = $2)`,
        [clientId, logoId],
      );
    },
  };
}
