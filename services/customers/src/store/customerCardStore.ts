import type { Page, Queryable } from '@platform/kit';

export interface CustomerCardLink {
  cardId: string;
  linkedAt: Date;
}

/** Links between customers and the saved cards of the payments vault; scoped by client like every query. */
export interface CustomerCardStore {
  /** Returns false when the link already existed. */
  link(tx: Queryable, clientId: string, customerId: string, cardId: string, at: Date): Promise<boolean>;
  list(db: Queryable, clientId: string, customerId: string, page: Page): Promise<{ items: CustomerCardLink[]; totalItems: number }>;
}

export function createCustomerCardStore(): CustomerCardStore {
  return {
    async link(tx, clientId, customerId, cardId, at) {
      const result = await tx.query(
        `INSERT INTO customer_cards (client_id, customer_id, card_id, created_at) VALUES ($1, $2, $3, $4)
         ON CONFLICT (client_id, customer_id, card_id) DO NOTHING`,
        [clientId, customerId, cardId, at],
      );
      return (result.rowCount ?? 0) > 0;
    },
    async list(db, clientId, customerId, page) {
      const { rows } = await db.query<{ card_id: string; created_at: Date; total: string }>(
        `SELECT card_id, created_at, count(*) OVER () AS total FROM customer_cards
         WHERE client_id = $1 AND customer_id = $2
         ORDER BY created_at ${page.direction}, seq ${page.direction} LIMIT $3 OFFSET $4`,
        [clientId, customerId, page.limit, page.offset],
      );
      let totalItems = Number(rows[0]?.total ?? 0);
      if (rows.length === 0 && page.offset > 0) {
        const count = await db.query<{ n: string }>('SELECT count(*) AS n FROM customer_cards WHERE client_id = $1 AND customer_id = $2', [clientId, customerId]);
        totalItems = Number(count.rows[0]?.n ?? 0);
      }
      return { items: rows.map((r) => ({ cardId: r.card_id, linkedAt: r.created_at })), totalItems };
    },
  };
}
