import type { Page, Queryable } from '@platform/kit';
import type { Plan, PlanFee, SettlementDays } from '../domain/plan';

interface PlanRow {
  id: string;
  client_id: string;
  name: string;
  is_default: boolean;
  fees: PlanFee[];
  settlement_days: SettlementDays;
  prepayment_monthly_rate: number;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = 'id, client_id, name, is_default, fees, settlement_days, prepayment_monthly_rate, created_at, updated_at';

function toPlan(row: PlanRow): Plan {
  return {
    id: row.id,
    clientId: row.client_id,
    name: row.name,
    isDefault: row.is_default,
    fees: row.fees,
    settlementDays: row.settlement_days,
    prepaymentMonthlyRate: row.prepayment_monthly_rate,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** The key of a seller's own plan in `plansOfReceivers`' answer. */
export function sellerPlanKey(clientId: string, sellerId: string): string {
  return `${clientId}/${sellerId}`;
}

/** SQL for plans, scoped by client; made once per service and injected through `PayoutsDeps`. */
export function createPlanStore() {
  return {
    async insert(db: Queryable, plan: Plan): Promise<void> {
      await db.query(
        `INSERT INTO plans (${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
        [plan.id, plan.clientId, plan.name, plan.isDefault, JSON.stringify(plan.fees), JSON.stringify(plan.settlementDays), plan.prepaymentMonthlyRate, plan.createdAt, plan.updatedAt],
      );
    },

    /** The client's default plan, inserted when the client has none (a concurrent insert wins; its plan is read). */
    async ensureDefault(db: Queryable, plan: Plan): Promise<Plan> {
      await db.query(
        `INSERT INTO plans (${COLUMNS}) VALUES ($1, $2, $3, true, $4, $5, $6, $7, $8)
         ON CONFLICT (client_id) WHERE is_default DO NOTHING`,
        [plan.id, plan.clientId, plan.name, JSON.stringify(plan.fees), JSON.stringify(plan.settlementDays), plan.prepaymentMonthlyRate, plan.createdAt, plan.updatedAt],
      );
      const { rows } = await db.query<PlanRow>(`SELECT ${COLUMNS} FROM plans WHERE client_id = $1 AND is_default`, [plan.clientId]);
      return toPlan(rows[0]!);
    },

    async findById(db: Queryable, clientId: string, id: string, options: { forUpdate?: boolean } = {}): Promise<Plan | null> {
      const { rows } = await db.query<PlanRow>(`SELECT ${COLUMNS} FROM plans WHERE client_id = $1 AND id = $2${options.forUpdate ? ' FOR UPDATE' : ''}`, [clientId, id]);
      return rows[0] ? toPlan(rows[0]) : null;
    },

    async findDefault(db: Queryable, clientId: string): Promise<Plan | null> {
      const { rows } = await db.query<PlanRow>(`SELECT ${COLUMNS} FROM plans WHERE client_id = $1 AND is_default`, [clientId]);
      return rows[0] ? toPlan(rows[0]) : null;
    },

    /**
     * In one statement, for many charges at once: the default plan of each client, and the own plan of each seller
     * that has one (as the sellers service last said). A client with no default plan, or a seller with no own plan
     * (or one that no longer exists), is not in the answer.
     */
    async plansOfReceivers(
      db: Queryable,
      clientIds: readonly string[],
      sellers: ReadonlyArray<{ clientId: string; sellerId: string }>,
    ): Promise<{ defaults: Map<string, Plan>; own: Map<string, Plan> }> {
      const { rows } = await db.query<PlanRow & { seller_id: string | null }>(
        `SELECT NULL::uuid AS seller_id, ${COLUMNS} FROM plans WHERE client_id = ANY($1::uuid[]) AND is_default
         UNION ALL
         SELECT s.id AS seller_id, ${COLUMNS.split(', ').map((c) => `p.${c}`).join(', ')}
         FROM unnest($2::uuid[], $3::uuid[]) AS k(client_id, seller_id)
         JOIN sellers s ON s.client_id = k.client_id AND s.id = k.seller_id
         JOIN plans p ON p.client_id = s.client_id AND p.id = s.plan_id`,
        [clientIds, sellers.map((s) => s.clientId), sellers.map((s) => s.sellerId)],
      );
      const defaults = new Map<string, Plan>();
      const own = new Map<string, Plan>();
      for (const row of rows) {
        if (row.seller_id === null) defaults.set(row.client_id, toPlan(row));
        else own.set(sellerPlanKey(row.client_id, row.seller_id), toPlan(row));
      }
      return { defaults, own };
    },

    async list(db: Queryable, clientId: string, page: Page): Promise<{ items: Plan[]; total: number }> {
      const { rows } = await db.query<PlanRow & { total: string }>(
        `SELECT ${COLUMNS}, count(*) OVER () AS total FROM plans WHERE client_id = $1 ORDER BY created_at ${page.direction}, id ${page.direction} LIMIT $2 OFFSET $3`,
        [clientId, page.limit, page.offset],
      );
      return { items: rows.map(toPlan), total: rows[0] ? Number(rows[0].total) : 0 };
    },

    async update(db: Queryable, plan: Plan): Promise<void> {
      await db.query(
        `UPDATE plans SET name = $3, is_default = $4, fees = $5, settlement_days = $6, prepayment_monthly_rate = $7, updated_at = $8 WHERE client_id = $1 AND id = $2`,
        [plan.clientId, plan.id, plan.name, plan.isDefault, JSON.stringify(plan.fees), JSON.stringify(plan.settlementDays), plan.prepaymentMonthlyRate, plan.updatedAt],
      );
    },

    /** Serializes changes of a client's default plan until the transaction ends (two at once would both clear, then both set). */
    async lockDefault(db: Queryable, clientId: string): Promise<void> {
      await db.query("SELECT pg_advisory_xact_lock(hashtextextended('payouts.default_plan:' || $1, 0))", [clientId]);
    },

    /** Makes no plan of the client the default (before another becomes it, in the same transaction). */
    async clearDefault(db: Queryable, clientId: string, at: Date): Promise<void> {
      await db.query('UPDATE plans SET is_default = false, updated_at = $2 WHERE client_id = $1 AND is_default', [clientId, at]);
    },
  };
}

export type PlanStore = ReturnType<typeof createPlanStore>;
