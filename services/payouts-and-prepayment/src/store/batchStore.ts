import type { Page, Queryable } from '@platform/kit';
import type { BatchStatus, PaymentBatch, PaymentOrder } from '../domain/batch';

interface BatchRow {
  id: string;
  client_id: string;
  receiver_id: string | null;
  payment_date: string;
  status: BatchStatus;
  payment_method: string;
  amount: string;
  fee_amount: string;
  refund_amount: string;
  final_balance: string;
  attempts: number;
  created_at: Date;
  updated_at: Date;
}

interface OrderRow {
  id: string;
  client_id: string;
  batch_id: string;
  charge_id: string;
  receiver_id: string | null;
  receivable_id: string | null;
  amount: string;
  gross_amount: string;
  total_fee_amount: string;
  installment: number;
  total_installments: number;
  payment_method: string;
  type: PaymentOrder['type'];
  payment_scheduled_at: string;
  created_at: Date;
}

const BATCH_COLUMNS =
  "id, client_id, receiver_id, to_char(payment_date, 'YYYY-MM-DD') AS payment_date, status, payment_method, amount, fee_amount, refund_amount, final_balance, attempts, created_at, updated_at";
const ORDER_COLUMNS =
  "id, client_id, batch_id, charge_id, receiver_id, receivable_id, amount, gross_amount, total_fee_amount, installment, total_installments, payment_method, type, to_char(payment_scheduled_at, 'YYYY-MM-DD') AS payment_scheduled_at, created_at";

function toBatch(row: BatchRow): PaymentBatch {
  return {
    id: row.id,
    clientId: row.client_id,
    receiver: row.receiver_id,
    paymentDate: row.payment_date,
    status: row.status,
    paymentMethod: row.payment_method,
    amount: Number(row.amount),
    feeAmount: Number(row.fee_amount),
    refundAmount: Number(row.refund_amount),
    finalBalance: Number(row.final_balance),
    attempts: row.attempts,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

function toOrder(row: OrderRow): PaymentOrder {
  return {
    id: row.id,
    clientId: row.client_id,
    batchId: row.batch_id,
    chargeId: row.charge_id,
    receiver: row.receiver_id,
    receivableId: row.receivable_id,
    amount: Number(row.amount),
    grossAmount: Number(row.gross_amount),
    totalFeeAmount: Number(row.total_fee_amount),
    installment: row.installment,
    totalInstallments: row.total_installments,
    paymentMethod: row.payment_method,
    type: row.type,
    paymentScheduledAt: row.payment_scheduled_at,
    createdAt: row.created_at,
  };
}

export interface BatchFilters {
  /** undefined: every receiver; null: the main account. */
  receiver?: string | null;
  statuses?: readonly string[];
  startDate?: string;
  endDate?: string;
}

export interface OrderFilters {
  receiver?: string | null;
  startDate?: string;
  endDate?: string;
  chargeId?: string;
  batchId?: string;
}

function receiverCondition(receiver: string | null | undefined, args: unknown[]): string | undefined {
  if (receiver === undefined) return undefined;
  args.push(receiver);
  return `receiver_id IS NOT DISTINCT FROM $${args.length}::uuid`;
}

/** SQL for payment batches and their orders, scoped by client; made once per service and injected through `PayoutsDeps`. */
export function createBatchStore() {
  return {
    async insertBatch(db: Queryable, batch: PaymentBatch): Promise<void> {
      await db.query(
        `INSERT INTO payment_batches (id, client_id, receiver_id, payment_date, status, payment_method, amount, fee_amount, refund_amount, final_balance, attempts, created_at, updated_at)
         VALUES ($1, $2, $3, $4::date, $5, $6, $7, $8, $9, $10, $11, $12, $13)`,
        [batch.id, batch.clientId, batch.receiver, batch.paymentDate, batch.status, batch.paymentMethod, batch.amount, batch.feeAmount, batch.refundAmount, batch.finalBalance, batch.attempts, batch.createdAt, batch.updatedAt],
      );
    },

    async updateBatch(db: Queryable, batch: PaymentBatch): Promise<void> {
      await db.query(
        `UPDATE payment_batches SET status = $3, payment_date = $4::date, final_balance = $5, attempts = $6, updated_at = $7 WHERE client_id = $1 AND id = $2`,
        [batch.clientId, batch.id, batch.status, batch.paymentDate, batch.finalBalance, batch.attempts, batch.updatedAt],
      );
    },

    /** A batch given more orders (a receiver's debits taken from its prepayment batch): its amounts and status. */
    async updateBatchAmounts(db: Queryable, batch: PaymentBatch): Promise<void> {
      await db.query(
        `UPDATE payment_batches SET status = $3, amount = $4, fee_amount = $5, refund_amount = $6, final_balance = $7, updated_at = $8 WHERE client_id = $1 AND id = $2`,
        [batch.clientId, batch.id, batch.status, batch.amount, batch.feeAmount, batch.refundAmount, batch.finalBalance, batch.updatedAt],
      );
    },

    async insertOrders(db: Queryable, orders: readonly PaymentOrder[]): Promise<void> {
      if (orders.length === 0) return;
      await db.query(
        `INSERT INTO payment_orders (id, client_id, batch_id, charge_id, receiver_id, receivable_id, amount, gross_amount, total_fee_amount, installment,
                                     total_installments, payment_method, type, payment_scheduled_at, created_at)
         SELECT o.id, o.client_id, o.batch_id, o.charge_id, o.receiver_id, o.receivable_id, o.amount, o.gross_amount, o.total_fee_amount, o.installment,
                o.total_installments, o.payment_method, o.type, o.payment_scheduled_at, o.created_at
         FROM jsonb_to_recordset($1::jsonb) AS o(id uuid, client_id uuid, batch_id uuid, charge_id uuid, receiver_id uuid, receivable_id uuid, amount bigint,
              gross_amount bigint, total_fee_amount bigint, installment int, total_installments int, payment_method text, type text, payment_scheduled_at date,
              created_at timestamptz)`,
        [
          JSON.stringify(
            orders.map((o) => ({
              id: o.id,
              client_id: o.clientId,
              batch_id: o.batchId,
              charge_id: o.chargeId,
              receiver_id: o.receiver,
              receivable_id: o.receivableId,
              amount: o.amount,
              gross_amount: o.grossAmount,
              total_fee_amount: o.totalFeeAmount,
              installment: o.installment,
              total_installments: o.totalInstallments,
              payment_method: o.paymentMethod,
              type: o.type,
              payment_scheduled_at: o.paymentScheduledAt,
              created_at: o.createdAt.toISOString(),
            })),
          ),
        ],
      );
    },

    async findBatch(db: Queryable, clientId: string, id: string, options: { forUpdate?: boolean } = {}): Promise<PaymentBatch | null> {
      const { rows } = await db.query<BatchRow>(`SELECT ${BATCH_COLUMNS} FROM payment_batches WHERE client_id = $1 AND id = $2${options.forUpdate ? ' FOR UPDATE' : ''}`, [clientId, id]);
      return rows[0] ? toBatch(rows[0]) : null;
    },

    /** Batches waiting to be paid (pending, or failed and due for a retry by `date`) of a receiver, or of every receiver. */
    async waitingBatches(db: Queryable, clientId: string, options: { receiver?: string | null; retryBy?: string } = {}): Promise<PaymentBatch[]> {
      const args: unknown[] = [clientId];
      const where = ['client_id = $1'];
      const receiver = receiverCondition(options.receiver, args);
      if (receiver) where.push(receiver);
      if (options.retryBy) {
        args.push(options.retryBy);
        where.push(`(status = 'pending' OR (status = 'failed' AND payment_date <= $${args.length}::date))`);
      } else {
        where.push(`status IN ('pending', 'failed')`);
      }
      const { rows } = await db.query<BatchRow>(`SELECT ${BATCH_COLUMNS} FROM payment_batches WHERE ${where.join(' AND ')} ORDER BY created_at FOR UPDATE`, args);
      return rows.map(toBatch);
    },

    async listBatches(db: Queryable, clientId: string, filters: BatchFilters, page: Page): Promise<{ items: PaymentBatch[]; total: number }> {
      const args: unknown[] = [clientId];
      const where = ['client_id = $1'];
      const receiver = receiverCondition(filters.receiver, args);
      if (receiver) where.push(receiver);
      if (filters.statuses && filters.statuses.length > 0) {
        args.push(filters.statuses);
        where.push(`status = ANY($${args.length}::text[])`);
      }
      if (filters.startDate) {
        args.push(filters.startDate);
        where.push(`payment_date >= $${args.length}::date`);
      }
      if (filters.endDate) {
        args.push(filters.endDate);
        where.push(`payment_date <= $${args.length}::date`);
      }
      args.push(page.limit, page.offset);
      const { rows } = await db.query<BatchRow & { total: string }>(
        `SELECT ${BATCH_COLUMNS}, count(*) OVER () AS total FROM payment_batches WHERE ${where.join(' AND ')}
         ORDER BY payment_date ${page.direction}, created_at ${page.direction}, id LIMIT $${args.length - 1} OFFSET $${args.length}`,
        args,
      );
      return { items: rows.map(toBatch), total: rows[0] ? Number(rows[0].total) : 0 };
    },

    async findOrder(db: Queryable, clientId: string, id: string): Promise<PaymentOrder | null> {
      const { rows } = await db.query<OrderRow>(`SELECT ${ORDER_COLUMNS} FROM payment_orders WHERE client_id = $1 AND id = $2`, [clientId, id]);
      return rows[0] ? toOrder(rows[0]) : null;
    },

    async ordersOfBatch(db: Queryable, clientId: string, batchId: string): Promise<PaymentOrder[]> {
      const { rows } = await db.query<OrderRow>(`SELECT ${ORDER_COLUMNS} FROM payment_orders WHERE client_id = $1 AND batch_id = $2 ORDER BY created_at, id`, [clientId, batchId]);
      return rows.map(toOrder);
    },

    async listOrders(db: Queryable, clientId: string, filters: OrderFilters, page: Page): Promise<{ items: PaymentOrder[]; total: number }> {
      const args: unknown[] = [clientId];
      const where = ['client_id = $1'];
      const receiver = receiverCondition(filters.receiver, args);
      if (receiver) where.push(receiver);
      if (filters.chargeId) {
        args.push(filters.chargeId);
        where.push(`charge_id = $${args.length}::uuid`);
      }
      if (filters.batchId) {
        args.push(filters.batchId);
        where.push(`batch_id = $${args.length}::uuid`);
      }
      if (filters.startDate) {
        args.push(filters.startDate);
        where.push(`payment_scheduled_at >= $${args.length}::date`);
      }
      if (filters.endDate) {
        args.push(filters.endDate);
        where.push(`payment_scheduled_at <= $${args.length}::date`);
      }
      args.push(page.limit, page.offset);
      const { rows } = await db.query<OrderRow & { total: string }>(
        `SELECT ${ORDER_COLUMNS}, count(*) OVER () AS total FROM payment_orders WHERE ${where.join(' AND ')}
         ORDER BY payment_scheduled_at ${page.direction}, created_at ${page.direction}, id LIMIT $${args.length - 1} OFFSET $${args.length}`,
        args,
      );
      return { items: rows.map(toOrder), total: rows[0] ? Number(rows[0].total) : 0 };
    },
  };
}

export type BatchStore = ReturnType<typeof createBatchStore>;
