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

/** A captured charge to take into the ledger: its record, its receivables and its capture posting. */
export interface BookedCapture {
  clientId: string;
  chargeId: string;
  paymentType: string;
  installments: number;
  capturedAmount: number;
  receivables: readonly Receivable[];
  posting: Posting;
  at: Date;
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

    /**
     * Takes many captured charges into the ledger in one statement, whatever their number: each charge the ledger has
     * not seen yet (its insert is the check, as in `insertCharge`) gets its receivables and its capture posting with
     * its entries; a charge already taken in gets nothing. Rows are written in the order given. Answers the charges
     * taken in, as `client/charge` keys.
     */
    async bookCaptures(db: Queryable, captures: readonly BookedCapture[]): Promise<Set<string>> {
      if (captures.length === 0) return new Set();
      const charges = { clientId: [] as string[], chargeId: [] as string[], paymentType: [] as string[], installments: [] as number[], capturedAmount: [] as number[], at: [] as string[] };
      const receivables = {
        id: [] as string[],
        clientId: [] as string[],
        chargeId: [] as string[],
        receiver: [] as Array<string | null>,
        installment: [] as number[],
        totalInstallments: [] as number[],
        paymentType: [] as string[],
        gross: [] as number[],
        fee: [] as number[],
        net: [] as number[],
        settlementDate: [] as string[],
        at: [] as string[],
      };
      const postings = { id: [] as string[], clientId: [] as string[], chargeId: [] as string[], kind: [] as string[], reference: [] as string[], at: [] as string[] };
      const lines = { postingId: [] as string[], account: [] as string[], amount: [] as number[], receivableId: [] as Array<string | null> };
      for (const capture of captures) {
        assertBalanced(capture.posting);
        const at = capture.at.toISOString();
        charges.clientId.push(capture.clientId);
        charges.chargeId.push(capture.chargeId);
        charges.paymentType.push(capture.paymentType);
        charges.installments.push(capture.installments);
        charges.capturedAmount.push(capture.capturedAmount);
        charges.at.push(at);
        for (const r of capture.receivables) {
          receivables.id.push(r.id);
          receivables.clientId.push(r.clientId);
          receivables.chargeId.push(r.chargeId);
          receivables.receiver.push(r.receiver);
          receivables.installment.push(r.installment);
          receivables.totalInstallments.push(r.totalInstallments);
          receivables.paymentType.push(r.paymentType);
          receivables.gross.push(r.gross);
          receivables.fee.push(r.fee);
          receivables.net.push(r.net);
          receivables.settlementDate.push(r.settlementDate);
          receivables.at.push(r.createdAt.toISOString());
        }
        const postingId = randomUUID();
        postings.id.push(postingId);
        postings.clientId.push(capture.clientId);
        postings.chargeId.push(capture.chargeId);
        postings.kind.push(capture.posting.kind);
        postings.reference.push(capture.posting.reference);
        postings.at.push(at);
        for (const l of capture.posting.lines) {
          lines.postingId.push(postingId);
          lines.account.push(l.account);
          lines.amount.push(l.amount);
          lines.receivableId.push(l.receivableId ?? null);
        }
      }
      // The charge insert is the check: receivables and postings join only the charges it inserted. The posting's
      // entries join only a posting that is new (as in `post`).
      const { rows } = await db.query<{ client_id: string; charge_id: string }>(
        `WITH charge AS (
           INSERT INTO ledger_charges (client_id, charge_id, payment_type, installments, captured_amount, created_at)
           SELECT c.client_id, c.charge_id, c.payment_type, c.installments, c.captured_amount, c.created_at
           FROM unnest($1::uuid[], $2::uuid[], $3::text[], $4::int[], $5::bigint[], $6::timestamptz[]) WITH ORDINALITY
                AS c(client_id, charge_id, payment_type, installments, captured_amount, created_at, ord)
           ORDER BY c.ord
           ON CONFLICT (client_id, charge_id) DO NOTHING
           RETURNING client_id, charge_id
         ), receivable AS (
           INSERT INTO receivables (id, client_id, charge_id, receiver_id, installment, total_installments, payment_type, gross, fee, net,
                                    original_settlement_date, settlement_date, status, created_at)
           SELECT r.id, r.client_id, r.charge_id, r.receiver_id, r.installment, r.total_installments, r.payment_type, r.gross, r.fee, r.net,
                  r.settlement_date, r.settlement_date, 'pending', r.created_at
           FROM unnest($7::uuid[], $8::uuid[], $9::uuid[], $10::uuid[], $11::int[], $12::int[], $13::text[], $14::bigint[], $15::bigint[], $16::bigint[],
                       $17::date[], $18::timestamptz[]) WITH ORDINALITY
                AS r(id, client_id, charge_id, receiver_id, installment, total_installments, payment_type, gross, fee, net, settlement_date, created_at, ord)
           JOIN charge ON charge.client_id = r.client_id AND charge.charge_id = r.charge_id
           ORDER BY r.ord
         ), posting AS (
           INSERT INTO postings (id, client_id, kind, reference, created_at)
           SELECT p.id, p.client_id, p.kind, p.reference, p.created_at
           FROM unnest($19::uuid[], $20::uuid[], $21::uuid[], $22::text[], $23::text[], $24::timestamptz[]) WITH ORDINALITY
                AS p(id, client_id, charge_id, kind, reference, created_at, ord)
           JOIN charge ON charge.client_id = p.client_id AND charge.charge_id = p.charge_id
           ORDER BY p.ord
           ON CONFLICT (client_id, reference) DO NOTHING
           RETURNING id, client_id, created_at
         ), entry AS (
           INSERT INTO ledger_entries (posting_id, client_id, account, amount, receivable_id, created_at)
           SELECT posting.id, posting.client_id, l.account, l.amount, l.receivable_id, posting.created_at
           FROM unnest($25::uuid[], $26::text[], $27::bigint[], $28::uuid[]) WITH ORDINALITY AS l(posting_id, account, amount, receivable_id, ord)
           JOIN posting ON posting.id = l.posting_id
           ORDER BY l.ord
         )
         SELECT client_id, charge_id FROM charge`,
        [
          charges.clientId,
          charges.chargeId,
          charges.paymentType,
          charges.installments,
          charges.capturedAmount,
          charges.at,
          receivables.id,
          receivables.clientId,
          receivables.chargeId,
          receivables.receiver,
          receivables.installment,
          receivables.totalInstallments,
          receivables.paymentType,
          receivables.gross,
          receivables.fee,
          receivables.net,
          receivables.settlementDate,
          receivables.at,
          postings.id,
          postings.clientId,
          postings.chargeId,
          postings.kind,
          postings.reference,
          postings.at,
          lines.postingId,
          lines.account,
          lines.amount,
          lines.receivableId,
        ],
      );
      return new Set(rows.map((r) => `${r.client_id}/${r.charge_id}`));
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
