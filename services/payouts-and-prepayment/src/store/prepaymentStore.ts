import type { Queryable } from '@platform/kit';
import type { Prepayment, PrepaymentItem } from '../domain/prepayment';

interface PrepaymentRow {
  id: string;
  client_id: string;
  receiver_id: string | null;
  status: Prepayment['status'];
  gross_amount: string;
  fee_amount: string;
  net_amount: string;
  monthly_rate: number;
  payment_date: string;
  expires_at: Date;
  items: PrepaymentItem[];
  created_at: Date;
  committed_at: Date | null;
}

const PREPAYMENT_COLUMNS =
  "id, client_id, receiver_id, status, gross_amount, fee_amount, net_amount, monthly_rate, to_char(payment_date, 'YYYY-MM-DD') AS payment_date, expires_at, items, created_at, committed_at";

function toPrepayment(row: PrepaymentRow): Prepayment {
  return {
    id: row.id,
    clientId: row.client_id,
    receiver: row.receiver_id,
    status: row.status,
    grossAmount: Number(row.gross_amount),
    feeAmount: Number(row.fee_amount),
    netAmount: Number(row.net_amount),
    monthlyRate: row.monthly_rate,
    paymentDate: row.payment_date,
    expiresAt: row.expires_at,
    items: row.items,
    createdAt: row.created_at,
    committedAt: row.committed_at,
  };
}

/** SQL for prepayments, scoped by client; made once per service and injected through `PayoutsDeps`. */
export function createPrepaymentStore() {
  return {
    async insert(db: Queryable, p: Prepayment): Promise<void> {
      await db.query(
        `INSERT INTO prepayments (id, client_id, receiver_id, status, gross_amount, fee_amount, net_amount, monthly_rate, payment_date, expires_at, items, created_at, committed_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9::date, $10, $11, $12, $13)`,
        [p.id, p.clientId, p.receiver, p.status, p.grossAmount, p.feeAmount, p.netAmount, p.monthlyRate, p.paymentDate, p.expiresAt, JSON.stringify(p.items), p.createdAt, p.committedAt],
      );
    },

    async find(db: Queryable, clientId: string, id: string, options: { forUpdate?: boolean } = {}): Promise<Prepayment | null> {
      const { rows } = await db.query<PrepaymentRow>(`SELECT ${PREPAYMENT_COLUMNS} FROM prepayments WHERE client_id = $1 AND id = $2${options.forUpdate ? ' FOR UPDATE' : ''}`, [clientId, id]);
      return rows[0] ? toPrepayment(rows[0]) : null;
    },

    async setStatus(db: Queryable, clientId: string, id: string, status: Prepayment['status'], committedAt: Date | null): Promise<void> {
      await db.query('UPDATE prepayments SET status = $3, committed_at = $4 WHERE client_id = $1 AND id = $2', [clientId, id, status, committedAt]);
    },
  };
}

export type PrepaymentStore = ReturnType<typeof createPrepaymentStore>;
