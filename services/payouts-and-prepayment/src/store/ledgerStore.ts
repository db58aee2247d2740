import { randomUUID } from 'node:crypto';
import type { Queryable } from '@platform/kit';
import { assertBalanced, type Posting } from '../domain/ledger';
import type { PaymentType } from '../domain/plan';

/** A receivable as stored: its amounts as created, and where it stands. */
export interface Receivable {
  id: string;
  clientId: string;
  chargeId: string;
  receiver: string | null;
  installment: number;
  totalInstallments: number;
  paymentType: PaymentType;
  gross: number;
  fee: number;
  net: number;
  originalSettlementDate: string;
  settlementDate: string;
  status: 'pending' | 'prepaid' | 'settled';
  prepaymentId: string | null;
  batchId: string | null;
  createdAt: Date;
}

/** A receivable with what it still owes: the sums of the entries tagged with it. */
export interface OpenAmounts {
  /** Owed to the receiver (−Σ of its receivable account's entries). */
  net: number;
  /** Fees still kept on it (−Σ of its fee entries). */
  fee: number;
  /** Committed to a prepayment and held for its pending batch (−Σ of its scheduled account's entries). */
  scheduled: number;
}

export interface LedgerCharge {
  chargeId: string;
  paymentType: string;
  installments: number;
  capturedAmount: number;
  refundedAmount: number;
  chargedBack: boolean;
  /** The refund requests of the charge already taken into the ledger. */
  refundRequestIds: string[];
}

export interface ReceiverDebit {
  id: string;
  receiver: string | null;
  chargeId: string;
  type: 'void' | 'charge_back';
  amount: number;
}

interface ReceivableRow {
  id: string;
  client_id: string;
  charge_id: string;
  receiver_id: string | null;
  installment: number;
  total_installments: number;
  payment_type: PaymentType;
  gross: string;
  fee: string;
  net: string;
  original_settlement_date: string;
  settlement_date: string;
  status: Receivable['status'];
  prepayment_id: string | null;
  batch_id: string | null;
  created_at: Date;
}

const RECEIVABLE_COLUMNS =
  "id, client_id, charge_id, receiver_id, installment, total_installments, payment_type, gross, fee, net, to_char(original_settlement_date, 'YYYY-MM-DD') AS original_settlement_date, to_char(settlement_date, 'YYYY-MM-DD') AS settlement_date, status, prepayment_id, batch_id, created_at";

function toReceivable(row: ReceivableRow): Receivable {
  return {
    id: row.id,
    clientId: row.client_id,
    chargeId: row.charge_id,
    receiver: row.receiver_id,
    installment: row.installment,
    totalInstallments: row.total_installments,
    paymentType: row.payment_type,
    gross: Number(row.gross),
    fee: Number(row.fee),
    net: Number(row.net),
    originalSettlementDate: row.original_settlement_date,
    settlementDate: row.settlement_date,
    status: row.status,
    prepaymentId: row.prepayment_id,
    batchId: row.batch_id,
    createdAt: row.created_at,
  };
}

/** `seller:<id>:…` and `main:…` accounts of one receiver, as a LIKE pattern. */
function receiverAccountPattern(receiver: string | null, suffix: string): string {
  return receiver === null ? `main:${suffix}` : `seller:${receiver}:${suffix}`;
}

/** SQL for the ledger, scoped by client; made once per service and injected through `PayoutsDeps`. The entries are append-only (the database refuses a change). */
export function createLedgerStore() {
  return {
    /**
     * Writes a posting and its entries; false when a posting with that reference exists (already posted: a repeated
     * event or job). Each posting balances, which the database checks again when the transaction commits.
     */
    async post(db: Queryable, clientId: string, posting: Posting, at: Date): Promise<boolean> {
      assertBalanced(posting);
      // One statement: the posting, and its entries only when the posting is new.
      const { rows } = await db.query<{ posted: number }>(
        `WITH posting AS (
           INSERT INTO postings (id, client_id, kind, reference, created_at) VALUES ($1, $2, $3, $4, $5)
           ON CONFLICT (client_id, reference) DO NOTHING RETURNING id
         ), entries AS (
           INSERT INTO ledger_entries (posting_id, client_id, account, amount, receivable_id, created_at)
           SELECT posting.id, $2, line.account, line.amount, line.receivable_id, $5
           FROM posting, jsonb_to_recordset($6::jsonb) AS line(account text, amount bigint, receivable_id uuid)
         )
         SELECT count(*)::int AS posted FROM posting`,
        [randomUUID(), clientId, posting.kind, posting.reference, at, JSON.stringify(posting.lines.map((l) => ({ account: l.account, amount: l.amount, receivable_id: l.receivableId ?? null })))],
      );
      return rows[0]?.posted === 1;
    },

    /** What is owed to the holder of an account: −Σ of its entries. */
    async accountBalance(db: Queryable, clientId: string, account: string): Promise<number> {
      const { rows } = await db.query<{ total: string | null }>('SELECT -SUM(amount) AS total FROM ledger_entries WHERE client_id = $1 AND account = $2', [clientId, account]);
      return Number(rows[0]?.total ?? 0);
    },

    /** What each receivable still owes and keeps in fees, by the entries tagged with it. */
    async openAmounts(db: Queryable, clientId: string, receivableIds: readonly string[]): Promise<Map<string, OpenAmounts>> {
      const amounts = new Map<string, OpenAmounts>(receivableIds.map((id) => [id, { net: 0, fee: 0, scheduled: 0 }]));
      if (receivableIds.length === 0) return amounts;
      const { rows } = await db.query<{ receivable_id: string; net: string; fee: string; scheduled: string }>(
        `SELECT receivable_id,
                -SUM(amount) FILTER (WHERE account LIKE '%:receivable') AS net,
                -SUM(amount) FILTER (WHERE account = 'platform:fees') AS fee,
                -SUM(amount) FILTER (WHERE account LIKE '%:scheduled') AS scheduled
         FROM ledger_entries WHERE client_id = $1 AND receivable_id = ANY($2::uuid[]) GROUP BY receivable_id`,
        [clientId, receivableIds],
      );
      for (const row of rows) amounts.set(row.receivable_id, { net: Number(row.net ?? 0), fee: Number(row.fee ?? 0), scheduled: Number(row.scheduled ?? 0) });
      return amounts;
    },

    async findCharge(db: Queryable, clientId: string, chargeId: string, options: { forUpdate?: boolean } = {}): Promise<LedgerCharge | null> {
      const { rows } = await db.query<{
        charge_id: string;
        payment_type: string;
        installments: number;
        captured_amount: string;
        refunded_amount: string;
        charged_back: boolean;
        refund_request_ids: string[];
      }>(
        `SELECT charge_id, payment_type, installments, captured_amount, refunded_amount, charged_back, refund_request_ids FROM ledger_charges WHERE client_id = $1 AND charge_id = $2${options.forUpdate ? ' FOR UPDATE' : ''}`,
        [clientId, chargeId],
      );
      const row = rows[0];
      if (!row) return null;
      return {
        chargeId: row.charge_id,
        paymentType: row.payment_type,
        installments: row.installments,
        capturedAmount: Number(row.captured_amount),
        refundedAmount: Number(row.refunded_amount),
        chargedBack: row.charged_back,
        refundRequestIds: row.refund_request_ids,
      };
    },

    /** Records a charge taken into the ledger; false when it already was (a repeated event). */
    async insertCharge(db: Queryable, clientId: string, charge: Omit<LedgerCharge, 'refundedAmount' | 'chargedBack' | 'refundRequestIds'>, at: Date): Promise<boolean> {
      const { rowCount } = await db.query(
        `INSERT INTO ledger_charges (client_id, charge_id, payment_type, installments, captured_amount, created_at) VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (client_id, charge_id) DO NOTHING`,
        [clientId, charge.chargeId, charge.paymentType, charge.installments, charge.capturedAmount, at],
      );
      return rowCount === 1;
    },

    async updateChargeRefunds(
      db: Queryable,
      clientId: string,
      chargeId: string,
      change: Pick<LedgerCharge, 'refundedAmount' | 'chargedBack' | 'refundRequestIds'>,
    ): Promise<void> {
      await db.query('UPDATE ledger_charges SET refunded_amount = $3, charged_back = $4, refund_request_ids = $5 WHERE client_id = $1 AND charge_id = $2', [
        clientId,
        chargeId,
        change.refundedAmount,
        change.chargedBack,
        change.refundRequestIds,
      ]);
    },

    async insertReceivables(db: Queryable, receivables: readonly Receivable[]): Promise<void> {
      if (receivables.length === 0) return;
      await db.query(
        `INSERT INTO receivables (id, client_id, charge_id, receiver_id, installment, total_installments, payment_type, gross, fee, net,
                                  original_settlement_date, settlement_date, status, created_at)
         SELECT r.id, r.client_id, r.charge_id, r.receiver_id, r.installment, r.total_installments, r.payment_type, r.gross, r.fee, r.net,
                r.settlement_date, r.settlement_date, 'pending', r.created_at
         FROM jsonb_to_recordset($1::jsonb) AS r(id uuid, client_id uuid, charge_id uuid, receiver_id uuid, installment int, total_installments int,
              payment_type text, gross bigint, fee bigint, net bigint, settlement_date date, created_at timestamptz)`,
        [
          JSON.stringify(
            receivables.map((r) => ({
              id: r.id,
              client_id: r.clientId,
              charge_id: r.chargeId,
              receiver_id: r.receiver,
              installment: r.installment,
              total_installments: r.totalInstallments,
              payment_type: r.paymentType,
              gross: r.gross,
              fee: r.fee,
              net: r.net,
              settlement_date: r.settlementDate,
              created_at: r.createdAt.toISOString(),
            })),
          ),
        ],
      );
    },

    async receivablesOfCharge(db: Queryable, clientId: string, chargeId: string): Promise<Receivable[]> {
      const { rows } = await db.query<ReceivableRow>(`SELECT ${RECEIVABLE_COLUMNS} FROM receivables WHERE client_id = $1 AND charge_id = $2 ORDER BY installment, receiver_id NULLS LAST`, [
        clientId,
        chargeId,
      ]);
      return rows.map(toReceivable);
    },

    /** Receivables due by `date` and not settled yet (pending, or prepaid to that date), oldest first. */
    async dueReceivables(db: Queryable, clientId: string, date: string): Promise<Receivable[]> {
      const { rows } = await db.query<ReceivableRow>(
        `SELECT ${RECEIVABLE_COLUMNS} FROM receivables WHERE client_id = $1 AND status IN ('pending', 'prepaid') AND settlement_date <= $2::date
         ORDER BY settlement_date, created_at, installment FOR UPDATE`,
        [clientId, date],
      );
      return rows.map(toReceivable);
    },

    /** Future receivables of a receiver that no prepayment took: the ones a prepayment may take. */
    async prepayableReceivables(db: Queryable, clientId: string, receiver: string | null, after: string): Promise<Receivable[]> {
      const { rows } = await db.query<ReceivableRow>(
        `SELECT ${RECEIVABLE_COLUMNS} FROM receivables
         WHERE client_id = $1 AND receiver_id IS NOT DISTINCT FROM $2 AND status = 'pending' AND prepayment_id IS NULL AND settlement_date > $3::date
         ORDER BY settlement_date, id`,
        [clientId, receiver, after],
      );
      return rows.map(toReceivable);
    },

    /**
     * Moves receivables into a prepayment and its pending batch, in one statement: only those still free; the count
     * taken.
     */
    async takeForPrepayment(db: Queryable, clientId: string, ids: readonly string[], prepaymentId: string, paymentDate: string, batchId: string): Promise<number> {
      const { rowCount } = await db.query(
        `UPDATE receivables SET status = 'prepaid', prepayment_id = $3, settlement_date = $4::date, batch_id = $5
         WHERE client_id = $1 AND id = ANY($2::uuid[]) AND status = 'pending' AND prepayment_id IS NULL`,
        [clientId, ids, prepaymentId, paymentDate, batchId],
      );
      return rowCount ?? 0;
    },

    async receivablesByIds(db: Queryable, clientId: string, ids: readonly string[]): Promise<Receivable[]> {
      const { rows } = await db.query<ReceivableRow>(`SELECT ${RECEIVABLE_COLUMNS} FROM receivables WHERE client_id = $1 AND id = ANY($2::uuid[])`, [clientId, ids]);
      return rows.map(toReceivable);
    },

    /** Whether a batch still holds prepaid receivables its settlement has not moved to available (it cannot be paid yet). */
    async batchAwaitsSettlement(db: Queryable, clientId: string, batchId: string): Promise<boolean> {
      const { rows } = await db.query("SELECT 1 FROM receivables WHERE client_id = $1 AND batch_id = $2 AND status = 'prepaid' LIMIT 1", [clientId, batchId]);
      return rows.length > 0;
    },

    async markSettled(db: Queryable, clientId: string, ids: readonly string[], batchId: string): Promise<void> {
      if (ids.length === 0) return;
      await db.query(`UPDATE receivables SET status = 'settled', batch_id = $3 WHERE client_id = $1 AND id = ANY($2::uuid[])`, [clientId, ids, batchId]);
    },

    async insertDebit(db: Queryable, clientId: string, debit: ReceiverDebit, at: Date): Promise<void> {
      await db.query('INSERT INTO receiver_debits (id, client_id, receiver_id, charge_id, type, amount, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)', [
        debit.id,
        clientId,
        debit.receiver,
        debit.chargeId,
        debit.type,
        debit.amount,
        at,
      ]);
    },

    async openDebits(db: Queryable, clientId: string): Promise<ReceiverDebit[]> {
      const { rows } = await db.query<{ id: string; receiver_id: string | null; charge_id: string; type: ReceiverDebit['type']; amount: string }>(
        'SELECT id, receiver_id, charge_id, type, amount FROM receiver_debits WHERE client_id = $1 AND batch_id IS NULL ORDER BY created_at FOR UPDATE',
        [clientId],
      );
      return rows.map((r) => ({ id: r.id, receiver: r.receiver_id, chargeId: r.charge_id, type: r.type, amount: Number(r.amount) }));
    },

    async closeDebits(db: Queryable, clientId: string, ids: readonly string[], batchId: string): Promise<void> {
      if (ids.length === 0) return;
      await db.query('UPDATE receiver_debits SET batch_id = $3 WHERE client_id = $1 AND id = ANY($2::uuid[])', [clientId, ids, batchId]);
    },

    /** Clients with something due by `date` (receivables or debits): the ones a settlement run visits. */
    async clientsWithDueWork(db: Queryable, date: string): Promise<string[]> {
      const { rows } = await db.query<{ client_id: string }>(
        `SELECT DISTINCT client_id FROM receivables WHERE status IN ('pending', 'prepaid') AND settlement_date <= $1::date
         UNION SELECT DISTINCT client_id FROM receiver_debits WHERE batch_id IS NULL`,
        [date],
      );
      return rows.map((r) => r.client_id);
    },

    /** The receivable and available balances of a receiver. */
    async balance(db: Queryable, clientId: string, receiver: string | null): Promise<{ available: number; receivable: number }> {
      const { rows } = await db.query<{ available: string | null; receivable: string | null }>(
        `SELECT -SUM(amount) FILTER (WHERE account = $2) AS available, -SUM(amount) FILTER (WHERE account = $3) AS receivable
         FROM ledger_entries WHERE client_id = $1 AND account IN ($2, $3)`,
        [clientId, receiverAccountPattern(receiver, 'available'), receiverAccountPattern(receiver, 'receivable')],
      );
      return { available: Number(rows[0]?.available ?? 0), receivable: Number(rows[0]?.receivable ?? 0) };
    },
  };
}

export type LedgerStore = ReturnType<typeof createLedgerStore>;
