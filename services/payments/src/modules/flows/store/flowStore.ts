import { type ConstraintErrors, isUuid, type Page, type Queryable, withConstraintErrors } from '@platform/kit';
import { FLOW_PAYMENT_METHODS, flowExists, type Flow, type FlowPaymentMethod, type FlowRule } from '../domain/flow';

interface FlowRow {
  id: string;
  client_id: string;
  merchant_id: string;
  name: string;
  payment_method: string;
  rules: FlowRule[];
  default_route: string[];
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = 'f.id, f.client_id, f.merchant_id, f.name, f.payment_method, f.rules, f.default_route, f.created_at, f.updated_at';
/** Flows of a deleted merchant are gone with it. */
const ACTIVE_MERCHANT = 'JOIN merchants m ON m.id = f.merchant_id AND m.client_id = f.client_id AND m.deleted_at IS NULL';

function toFlow(row: FlowRow): Flow {
  if (!(FLOW_PAYMENT_METHODS as readonly string[]).includes(row.payment_method)) {
    throw new Error(`flow ${row.id} has unknown payment method ${row.payment_method}`);
  }
  return {
    id: row.id,
    clientId: row.client_id,
    merchantId: row.merchant_id,
    name: row.name,
    paymentMethod: row.payment_method as FlowPaymentMethod,
    rules: row.rules ?? [],
    defaultRoute: row.default_route ?? [],
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export const FLOW_UNIQUE_CONSTRAINT = 'flows_one_per_method';

const oneFlowPerMethod = (flow: Flow): ConstraintErrors => ({ [FLOW_UNIQUE_CONSTRAINT]: () => flowExists(flow.paymentMethod) });

export interface FlowPage {
  items: Flow[];
  totalItems: number;
}

/** SQL for routing flows; every query is scoped by client id. A second flow for one method breaks `flows_one_per_method`. */
export interface FlowStore {
  insert(tx: Queryable, flow: Flow): Promise<Flow>;
  findById(db: Queryable, clientId: string, id: string, options?: { forUpdate?: boolean }): Promise<Flow | null>;
  list(db: Queryable, clientId: string, filters: { merchantId?: string }, page: Page): Promise<FlowPage>;
  replace(tx: Queryable, flow: Flow): Promise<Flow | null>;
}

export function createFlowStore(): FlowStore {
  return {
    async insert(tx, flow) {
      const write = () => tx.query<FlowRow>(
        `INSERT INTO flows AS f (id, client_id, merchant_id, name, payment_method, rules, default_route, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
         RETURNING ${COLUMNS}`,
        [
          flow.id,
          flow.clientId,
          flow.merchantId,
          flow.name,
          flow.paymentMethod,
          JSON.stringify(flow.rules),
          JSON.stringify(flow.defaultRoute),
          flow.createdAt,
          flow.updatedAt,
        ],
      );
      const { rows } = await withConstraintErrors(write, oneFlowPerMethod(flow));
      return toFlow(rows[0]!);
    },

    async findById(db, clientId, id, options = {}) {
      if (!isUuid(id)) return null;
      const { rows } = await db.query<FlowRow>(
        `SELECT ${COLUMNS} FROM flows f ${ACTIVE_MERCHANT} WHERE f.client_id = $1 AND f.id = $2${options.forUpdate ? ' FOR UPDATE OF f' : ''}`,
        [clientId, id],
      );
      return rows[0] ? toFlow(rows[0]) : null;
    },

    async list(db, clientId, filters, page) {
      if (filters.merchantId !== undefined && !isUuid(filters.merchantId)) return { items: [], totalItems: 0 };
      const values: unknown[] = [clientId];
      const where = ['f.client_id = $1'];
      if (filters.merchantId !== undefined) {
        values.push(filters.merchantId);
        where.push(`f.merchant_id = $${values.length}`);
      }
      const condition = where.join(' AND ');
      const counted = await db.query<{ total: number }>(`SELECT count(*)::int AS total FROM flows f ${ACTIVE_MERCHANT} WHERE ${condition}`, values);
      const direction = page.direction === 'ASC' ? 'ASC' : 'DESC';
      const { rows } = await db.query<FlowRow>(
        `SELECT ${COLUMNS} FROM flows f ${ACTIVE_MERCHANT} WHERE ${condition}
         ORDER BY f.created_at ${direction}, f.seq ${direction}
         LIMIT $${values.length + 1} OFFSET $${values.length + 2}`,
        [...values, page.limit, page.offset],
      );
      return { items: rows.map(toFlow), totalItems: counted.rows[0]?.total ?? 0 };
    },

    async replace(tx, flow) {
      const write = () => tx.query<FlowRow>(
        `UPDATE flows AS f SET name = $3, payment_method = $4, rules = $5, default_route = $6, updated_at = $7
         WHERE f.client_id = $1 AND f.id = $2
         RETURNING ${COLUMNS}`,
        [flow.clientId, flow.id, flow.name, flow.paymentMethod, JSON.stringify(flow.rules), JSON.stringify(flow.defaultRoute), flow.updatedAt],
      );
      const { rows } = await withConstraintErrors(write, oneFlowPerMethod(flow));
      return rows[0] ? toFlow(rows[0]) : null;
    },
  };
}
