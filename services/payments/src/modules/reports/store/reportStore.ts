import type { Queryable } from '@platform/kit';
import type { ReportField, ReportFilters, ReportStatus } from '../domain/report';

export interface ReportRecord {
  id: string;
  clientId: string;
  type: string;
  status: ReportStatus;
  fields: ReportField[];
  filters: ReportFilters;
  pagesCount: number;
  rowCount: number;
  error: string | null;
  createdAt: Date;
  updatedAt: Date;
}

interface ReportRow {
  id: string;
  client_id: string;
  type: string;
  status: ReportStatus;
  fields: ReportField[];
  filters: Omit<ReportFilters, 'createdGte' | 'createdLte'> & { createdGte: string | null; createdLte: string | null };
  pages_count: number;
  row_count: number;
  error: string | null;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = 'id, client_id, type, status, fields, filters, pages_count, row_count, error, created_at, updated_at';

function toReport(row: ReportRow): ReportRecord {
  return {
    id: row.id,
    clientId: row.client_id,
    type: row.type,
    status: row.status,
    fields: row.fields,
    filters: { ...row.filters, createdGte: row.filters.createdGte ? new Date(row.filters.createdGte) : null, createdLte: row.filters.createdLte ? new Date(row.filters.createdLte) : null },
    pagesCount: row.pages_count,
    rowCount: row.row_count,
    error: row.error,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** SQL for reports and their chunks; every query is scoped by client. */
export function createReportStore() {
  return {
    async insert(db: Queryable, r: ReportRecord): Promise<void> {
      await db.query(`INSERT INTO reports (${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`, [
        r.id,
        r.clientId,
        r.type,
        r.status,
        JSON.stringify(r.fields),
        JSON.stringify(r.filters),
        r.pagesCount,
        r.rowCount,
        r.error,
        r.createdAt,
        r.updatedAt,
      ]);
    },

    /** How many reports the client has asked for. */
    async countOf(db: Queryable, clientId: string): Promise<number> {
      const { rows } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM reports WHERE client_id = $1', [clientId]);
      return rows[0]?.n ?? 0;
    },

    async find(db: Queryable, clientId: string, id: string, options: { forUpdate?: boolean } = {}): Promise<ReportRecord | null> {
      const { rows } = await db.query<ReportRow>(`SELECT ${COLUMNS} FROM reports WHERE client_id = $1 AND id = $2${options.forUpdate ? ' FOR UPDATE' : ''}`, [clientId, id]);
      return rows[0] ? toReport(rows[0]) : null;
    },

    async setOutcome(db: Queryable, r: Pick<ReportRecord, 'clientId' | 'id' | 'status' | 'pagesCount' | 'rowCount' | 'error' | 'updatedAt'>): Promise<void> {
      await db.query('UPDATE reports SET status = $3, pages_count = $4, row_count = $5, error = $6, updated_at = $7 WHERE client_id = $1 AND id = $2', [
        r.clientId,
        r.id,
        r.status,
        r.pagesCount,
        r.rowCount,
        r.error,
        r.updatedAt,
      ]);
    },

    /** Removes what an earlier, interrupted build of the report wrote. */
    async clearChunks(db: Queryable, reportId: string): Promise<void> {
      await db.query('DELETE FROM report_chunks WHERE report_id = $1', [reportId]);
    },

    async insertChunk(db: Queryable, reportId: string, page: number, seq: number, data: string): Promise<void> {
      await db.query('INSERT INTO report_chunks (report_id, page, seq, data) VALUES ($1, $2, $3, $4)', [reportId, page, seq, data]);
    },

    /** One chunk of a page, or null past its last one: a page is read one chunk at a time. */
    async chunk(db: Queryable, reportId: string, page: number, seq: number): Promise<string | null> {
      const { rows } = await db.query<{ data: string }>('SELECT data FROM report_chunks WHERE report_id = $1 AND page = $2 AND seq = $3', [reportId, page, seq]);
      return rows[0]?.data ?? null;
    },
  };
}

export type ReportStore = ReturnType<typeof createReportStore>;
