import type { ReceiptType } from '@platform/api-model';
import type { Queryable } from '@platform/kit';

export interface ReceiptRecord {
  id: string;
  clientId: string;
  chargeId: string;
  type: ReceiptType;
  createdAt: Date;
}

interface ReceiptRow {
  id: string;
  client_id: string;
  charge_id: string;
  type: ReceiptType;
  created_at: Date;
}

const COLUMNS = 'id, client_id, charge_id, type, created_at';

const toRecord = (row: ReceiptRow): ReceiptRecord => ({ id: row.id, clientId: row.client_id, chargeId: row.charge_id, type: row.type, createdAt: row.created_at });

/** SQL of the receipts table, every query scoped by client; the PDF is read only when it is downloaded. */
export function createReceiptStore() {
  return {
    /** Keeps the first receipt of a charge and type: a second insert for them changes nothing. */
    async insertOnce(db: Queryable, receipt: ReceiptRecord, pdf: Buffer): Promise<void> {
      await db.query(
        `INSERT INTO receipts (id, client_id, charge_id, type, pdf, created_at) VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (client_id, charge_id, type) DO NOTHING`,
        [receipt.id, receipt.clientId, receipt.chargeId, receipt.type, pdf, receipt.createdAt],
      );
    },

    async findByCharge(db: Queryable, clientId: string, chargeId: string, type: ReceiptType): Promise<ReceiptRecord | null> {
      const { rows } = await db.query<ReceiptRow>(`SELECT ${COLUMNS} FROM receipts WHERE client_id = $1 AND charge_id = $2 AND type = $3`, [clientId, chargeId, type]);
      return rows[0] ? toRecord(rows[0]) : null;
    },

    async find(db: Queryable, clientId: string, id: string): Promise<ReceiptRecord | null> {
      const { rows } = await db.query<ReceiptRow>(`SELECT ${COLUMNS} FROM receipts WHERE client_id = $1 AND id = $2`, [clientId, id]);
      return rows[0] ? toRecord(rows[0]) : null;
    },

    async pdfOf(db: Queryable, clientId: string, id: string): Promise<Buffer | null> {
      const { rows } = await db.query<{ pdf: Buffer }>('SELECT pdf FROM receipts WHERE client_id = $1 AND id = $2', [clientId, id]);
      return rows[0]?.pdf ?? null;
    },
  };
}

export type ReceiptStore = ReturnType<typeof createReceiptStore>;
