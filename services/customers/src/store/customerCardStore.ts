import type { Page, Queryable } from '@platform/kit';

export interface CustomerCardLink {
  cardId: string;
  linkedAt: Date;
}

/** What linking a card did: linked it, found it linked to that customer already, or found it another customer's. */
export type LinkOutcome = 'linked' | 'already_linked' | 'linked_elsewhere';

/**
 * Links between customers and the saved cards of the payments vault; scoped by client like every query. A card has
 * one customer at a time (a unique index on client and card).
 */
export interface CustomerCardStore {
  link(tx: Queryable, clientId: string, customerId: string, cardId: string, at: Date): Promise<LinkOutcome>;
  list(db: Queryable, clientId: string, customerId: string, page: Page): Promise<{ items: CustomerCardLink[]; totalItems: number }>;
}

export function createCustomerCardStore(): CustomerCardStore {
  return {
    async link(tx, clientId, customerId, cardId, at) {
      // A link of the card being written by another transaction makes this insert wait for it; once it commits, the
      // insert does nothing and the read below (a statement of its own) sees that link.
      const result = await tx.query(
        `INSERT INTO customer_cards (client_id, customer_id, card_id, created_at) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING`,
        [clientId, customerId, cardId, at],
      );
      if ((result.rowCount ?? 0) > 0) return 'linked';
      const { rows } = await tx.query<{ customer_id: string }>('SELECT customer_id FROM customer_cards WHERE client_id = $1 AND card_id = $2', [clientId, cardId]);
      return rows[0]?.customer_id === customerId ? 'already_linked' : 'linked_elsewhere';
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
