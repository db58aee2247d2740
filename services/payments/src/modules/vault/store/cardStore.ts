import type { Page, Queryable } from '@platform/kit';
import type { CardBrand, SavedCard } from '../domain/card';
import { isUuid } from '@platform/kit';

interface CardRow {
  id: string;
  client_id: string;
  customer_id: string | null;
  merchant_id: string | null;
  status: string;
  brand: string;
  holder_name: string;
  first6: string;
  last4: string;
  exp_month: number;
  exp_year: number;
  fingerprint: string;
  cvv_checked: boolean;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = `id, client_id, customer_id, merchant_id, status, brand, holder_name, first6, last4, exp_month, exp_year, fingerprint,
  cvv_checked, created_at, updated_at`;

function toCard(row: CardRow): SavedCard {
  return {
    id: row.id,
    clientId: row.client_id,
    customerId: row.customer_id,
    merchantId: row.merchant_id,
    status: row.status,
    brand: row.brand as CardBrand,
    holderName: row.holder_name,
    first6: row.first6,
    last4: row.last4,
    expirationMonth: row.exp_month,
    expirationYear: row.exp_year,
    fingerprint: row.fingerprint,
    cvvChecked: row.cvv_checked,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export interface CardFilters {
  customerId?: string;
  ids?: string[];
}

export interface CardPage {
  items: SavedCard[];
  totalItems: number;
}

/** SQL for saved cards; every query is scoped by client id. Only `findSealed` reads the sealed number. */
export interface CardStore {
  insert(tx: Queryable, card: SavedCard, panSealed: Buffer): Promise<SavedCard>;
  findById(db: Queryable, clientId: string, id: string): Promise<SavedCard | null>;
  /** The card with its sealed number, for an authorization. */
  findSealed(db: Queryable, clientId: string, id: string): Promise<{ card: SavedCard; panSealed: Buffer } | null>;
  list(db: Queryable, clientId: string, filters: CardFilters, page: Page): Promise<CardPage>;
  /**
   * Gives the card to the customer; null when the card is not the client's or is another customer's (a card has one
   * customer at a time: of two assignments racing, the second finds the first's customer and changes nothing).
   */
  assignCustomer(tx: Queryable, clientId: string, id: string, customerId: string, at: Date): Promise<SavedCard | null>;
}

export function createCardStore(): CardStore {
  return {
    async insert(tx, c, panSealed) {
      const { rows } = await tx.query<CardRow>(
        `INSERT INTO cards (id, client_id, customer_id, merchant_id, status, brand, holder_name, first6, last4, exp_month, exp_year,
           pan_encrypted, fingerprint, cvv_checked, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)
         RETURNING ${COLUMNS}`,
        [
          c.id,
          c.clientId,
          c.customerId,
          c.merchantId,
          c.status,
          c.brand,
          c.holderName,
          c.first6,
          c.last4,
          c.expirationMonth,
          c.expirationYear,
          panSealed,
          c.fingerprint,
          c.cvvChecked,
          c.createdAt,
          c.updatedAt,
        ],
      );
      return toCard(rows[0]!);
    },

    async findById(db, clientId, id) {
      if (!isUuid(id)) return null;
      const { rows } = await db.query<CardRow>(`SELECT ${COLUMNS} FROM cards WHERE client_id = $1 AND id = $2`, [clientId, id]);
      return rows[0] ? toCard(rows[0]) : null;
    },

    async findSealed(db, clientId, id) {
      if (!isUuid(id)) return null;
      const { rows } = await db.query<CardRow & { pan_encrypted: Buffer }>(
        `SELECT ${COLUMNS}, pan_encrypted FROM cards WHERE client_id = $1 AND id = $2`,
        [clientId, id],
      );
      const row = rows[0];
      return row ? { card: toCard(row), panSealed: row.pan_encrypted } : null;
    },

    async list(db, clientId, filters, page) {
      const values: unknown[] = [clientId];
      const where = ['client_id = $1'];
      if (filters.customerId !== undefined) {
        if (!isUuid(filters.customerId)) return { items: [], totalItems: 0 };
        values.push(filters.customerId);
        where.push(`customer_id = $${values.length}`);
      }
      if (filters.ids !== undefined) {
        const ids = filters.ids.filter(isUuid);
        if (ids.length === 0) return { items: [], totalItems: 0 };
        values.push(ids);
        where.push(`id = ANY($${values.length}::uuid[])`);
      }
      const condition = where.join(' AND ');
      const counted = await db.query<{ total: number }>(`SELECT count(*)::int AS total FROM cards WHERE ${condition}`, values);
      const direction = page.direction === 'ASC' ? 'ASC' : 'DESC';
      const { rows } = await db.query<CardRow>(
        `SELECT ${COLUMNS} FROM cards WHERE ${condition}
         ORDER BY created_at ${direction}, seq ${direction}
         LIMIT $${values.length + 1} OFFSET $${values.length + 2}`,
        [...values, page.limit, page.offset],
      );
      return { items: rows.map(toCard), totalItems: counted.rows[0]?.total ?? 0 };
    },

    async assignCustomer(tx, clientId, id, customerId, at) {
      if (!isUuid(id)) return null;
      const { rows } = await tx.query<CardRow>(
        `UPDATE cards SET customer_id = $3, updated_at = $4
         WHERE client_id = $1 AND id = $2 AND (customer_id IS NULL OR customer_id = $3) RETURNING ${COLUMNS}`,
        [clientId, id, customerId, at],
      );
      return rows[0] ? toCard(rows[0]) : null;
    },
  };
}
