import { randomUUID } from 'node:crypto';
import { stringify } from 'csv-stringify/sync';
import { errors, isUuid, jsonCodec, requireClientId, scheduleJob, withIdempotency, withTransaction, type Clock, type Logger, type Pool } from '@platform/kit';
import { PAGE_ROWS, parseReportRequest, reportQuery, type ReportRequest } from '../domain/report';
import type { MerchantStore } from '../../merchants/store/merchantStore';
import type { ReportRecord, ReportStore } from '../store/reportStore';

export interface ReportDeps {
  pool: Pool;
  log: Logger;
  clock: Clock;
  merchants: Pick<MerchantStore, 'findMerchant'>;
  reports: ReportStore;
  /** Builds one client may have running at once (REPORT_BUILDS_PER_CLIENT). */
  buildsPerClient: number;
  /** Rows per page; the product's 100,000 unless a test asks for fewer. */
  pageRows?: number;
  /** Called once a build has marked its report `processing`, before it reads a row: tests hold builds there. */
  beforeBuild?: (report: { clientId: string; id: string }) => Promise<void>;
}

/** The durable job that writes a report's pages. */
export const BUILD_REPORT_JOB = 'reports.build';

/**
 * Rows fetched from the cursor at a time, and the size a chunk is written at: memory holds about one of each. Both
 * keep every string well under V8's large-object size (about 128 KB), which only a full collection frees.
 */
const FETCH_ROWS = 200;
const CHUNK_CHARS = 32 * 1024;

/**
 * RFC 4180 CSV (CRLF line ends, fields quoted when they hold a comma, a quote or a line end), UTF-8, and cells that a
 * spreadsheet would run as a formula (starting with =, +, -, @, tab or carriage return) prefixed with a quote.
 */
function csv(rows: unknown[][]): string {
  return stringify(rows, { record_delimiter: '\r\n', escape_formulas: true, quoted_match: /^\s|\s$/ });
}

async function load(deps: Pick<ReportDeps, 'pool' | 'reports'>, clientId: string, id: string): Promise<ReportRecord> {
  const found = isUuid(id) ? await deps.reports.find(deps.pool, clientId, id.toLowerCase()) : null;
  if (!found) throw errors.notFound('Report', id);
  return found;
}

export const CREATE_REPORT_OPERATION = 'reports.create';

/**
 * The job queue of one of a client's build slots. The jobs of a queue run one at a time (on every replica), so a
 * client has at most `buildsPerClient` builds running, however many reports it asked for; the others wait in the
 * database, `created`, and take no memory. Reports go to the slots in turn (the client's count of reports, modulo the
 * slots): two created at the same instant may share a slot, which only makes them wait for each other.
 */
function buildQueue(clientId: string, slot: number): string {
  return `${BUILD_REPORT_JOB}:${clientId}:${slot}`;
}

const reportCodec = jsonCodec<ReportRecord>();

/** The same X-Idempotency-Key answers the same report again (its status as it was then: read it with getReport). */
export async function createReport(deps: ReportDeps, input: { clientId: string } & ReportRequest, idempotencyKey?: string): Promise<ReportRecord> {
  const clientId = requireClientId(input.clientId);
  const parsed = parseReportRequest(input);
  // A merchant named in the filters is the caller's.
  if (parsed.filters.merchantId && !(await deps.merchants.findMerchant(deps.pool, clientId, parsed.filters.merchantId))) {
    throw errors.notFound('Merchant', parsed.filters.merchantId);
  }
  const now = deps.clock.now();
  const report: ReportRecord = { id: randomUUID(), clientId, type: parsed.type, status: 'created', fields: parsed.fields, filters: parsed.filters, pagesCount: 0, rowCount: 0, error: null, createdAt: now, updatedAt: now };
  return withIdempotency(deps.pool, { clientId, key: idempotencyKey, operation: CREATE_REPORT_OPERATION, request: input, codec: reportCodec }, async (tx) => {
    const queue = buildQueue(clientId, (await deps.reports.countOf(tx, clientId)) % Math.max(1, deps.buildsPerClient));
    await deps.reports.insert(tx, report);
    await scheduleJob(tx, { kind: BUILD_REPORT_JOB, runAt: now, payload: { clientId, reportId: report.id }, dedupeKey: report.id, maxAttempts: 3, queue });
    return report;
  });
}

export async function getReport(deps: ReportDeps, input: { clientId: string; id: string }): Promise<ReportRecord> {
  return load(deps, requireClientId(input.clientId), input.id);
}

/**
 * The job: reads the charges with a cursor, a batch at a time, and writes the CSV pages as chunks, all in one
 * transaction (an interrupted build leaves nothing, and the job's next attempt starts over). The report is `ready`,
 * `empty` when no charge matched, or `error` with the reason.
 */
export async function buildReport(deps: ReportDeps, input: { clientId: string; reportId: string }): Promise<void> {
  const report = await deps.reports.find(deps.pool, input.clientId, input.reportId);
  if (!report || report.status === 'ready' || report.status === 'empty') return;
  await deps.reports.setOutcome(deps.pool, { ...report, status: 'processing', updatedAt: deps.clock.now() });
  await deps.beforeBuild?.({ clientId: report.clientId, id: report.id });
  const pageRows = deps.pageRows ?? PAGE_ROWS;
  try {
    const outcome = await withTransaction(deps.pool, async (tx) => {
      await deps.reports.clearChunks(tx, report.id);
      const query = reportQuery(report.clientId, report.fields, report.filters);
      await tx.query(`DECLARE report_rows NO SCROLL CURSOR FOR ${query.text}`, query.values);
      let rowCount = 0;
      let page = 0;
      let seq = 0;
      let rowsInPage = pageRows;
      let pending = '';
      const flush = async () => {
        if (pending.length === 0) return;
        await deps.reports.insertChunk(tx, report.id, page, seq, pending);
        seq += 1;
        pending = '';
      };
      const append = (text: string) => {
        pending += text;
      };
      const cells = (row: Array<string | null>) => row.map((cell) => cell ?? '');
      for (;;) {
        const { rows } = await tx.query<Array<string | null>>({ text: `FETCH ${FETCH_ROWS} FROM report_rows`, rowMode: 'array' });
        if (rows.length === 0) break;
        // A batch is written at once, cut where a page ends.
        for (let from = 0; from < rows.length; ) {
          if (rowsInPage === pageRows) {
            await flush();
            page += 1;
            seq = 0;
            rowsInPage = 0;
            append(csv([report.fields]));
          }
          const to = Math.min(rows.length, from + (pageRows - rowsInPage));
          append(csv(rows.slice(from, to).map(cells)));
          rowsInPage += to - from;
          rowCount += to - from;
          from = to;
          if (pending.length >= CHUNK_CHARS) await flush();
        }
      }
      await flush();
      await tx.query('CLOSE report_rows');
      return { rowCount, pagesCount: page };
    });
    await deps.reports.setOutcome(deps.pool, {
      ...report,
      status: outcome.rowCount === 0 ? 'empty' : 'ready',
      pagesCount: outcome.pagesCount,
      rowCount: outcome.rowCount,
      error: null,
      updatedAt: deps.clock.now(),
    });
  } catch (error) {
    deps.log.error({ err: error, reportId: report.id }, 'report build failed');
    await deps.reports.setOutcome(deps.pool, { ...report, status: 'error', error: 'The report could not be built', updatedAt: deps.clock.now() });
  }
}

/** A page of a ready report, chunk after chunk (UTF-8), read one at a time so that memory stays flat. */
export async function* readReportPage(deps: ReportDeps, input: { clientId: string; id: string; page: number }): AsyncGenerator<Buffer> {
  const report = await load(deps, requireClientId(input.clientId), input.id);
  if (report.status !== 'ready') throw errors.businessRule('report_not_ready', `The report is ${report.status}: no file to read`);
  if (!Number.isInteger(input.page) || input.page < 1 || input.page > report.pagesCount) throw errors.notFound('Report page', String(input.page));
  for (let seq = 0; ; seq += 1) {
    const data = await deps.reports.chunk(deps.pool, report.id, input.page, seq);
    if (data === null) return;
    yield Buffer.from(data, 'utf8');
  }
}
