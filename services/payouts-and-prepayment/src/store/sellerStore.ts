import type { Queryable } from '@platform/kit';

/** What this service knows of a seller, from the sellers service's events. */
export interface SellerState {
  id: string;
  planId: string | null;
  status: string;
}

/** The sellers this service has heard of, scoped by client; made once per service and injected through `PayoutsDeps`. */
export function createSellerStore() {
  return {
    /** Keeps the newest state of a seller (an older event never overwrites a newer one). */
    async upsert(db: Queryable, clientId: string, seller: SellerState, at: Date): Promise<void> {
      await db.query(
        `INSERT INTO sellers (client_id, id, plan_id, status, updated_at) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (client_id, id) DO UPDATE SET plan_id = EXCLUDED.plan_id, status = EXCLUDED.status, updated_at = EXCLUDED.updated_at
         WHERE sellers.updated_at <= EXCLUDED.updated_at`,
        [clientId, seller.id, seller.planId, seller.status, at],
      );
    },

    async find(db: Queryable, clientId: string, id: string): Promise<SellerState | null> {
      const { rows } = await db.query<{ id: string; plan_id: string | null; status: string }>('SELECT id, plan_id, status FROM sellers WHERE client_id = $1 AND id = $2', [clientId, id]);
      return rows[0] ? { id: rows[0].id, planId: rows[0].plan_id, status: rows[0].status } : null;
    },
  };
}

export type SellerStore = ReturnType<typeof createSellerStore>;
