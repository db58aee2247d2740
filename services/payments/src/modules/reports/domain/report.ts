import { CHARGE_STATUSES, PAYMENT_TYPES } from '@platform/api-model';
import { errors, isUuid, type FieldViolation } from '@platform/kit';

/** A page of a report holds at most this many rows (plus its header). */
export const PAGE_ROWS = 100_000;

export const REPORT_TYPES = ['transactions'] as const;
export const REPORT_STATUSES = ['created', 'processing', 'ready', 'empty', 'error'] as const;
export type ReportStatus = (typeof REPORT_STATUSES)[number];

/**
 * The columns a transactions report may have, each with the SQL that reads it from a charge `c` (a text, so every
 * cell is written the same way). Amounts are minor units; instants are RFC 3339 UTC.
 */
export const REPORT_COLUMNS = {
  id: 'c.id::text',
  createdAt: `to_char(c.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`,
  updatedAt: `to_char(c.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`,
  status: 'c.status',
  amount: 'c.amount::text',
  originalAmount: 'c.original_amount::text',
  currency: 'c.currency',
  paymentType: 'c.payment_type',
  installments: 'c.installments::text',
  merchantId: 'c.merchant_id::text',
  orderId: 'c.order_id',
  customerId: 'c.customer_id::text',
  sessionId: 'c.session_id::text',
  description: 'c.description',
  statementDescriptor: 'c.statement_descriptor',
  providerType: 'c.provider_type',
  authorizationCode: `(SELECT COALESCE(t.network_authorization_code, t.authorization_nsu) FROM transaction_requests t
     WHERE t.charge_id = c.id AND t.request_type = 'authorization' AND t.request_status = 'success' ORDER BY t.created_at DESC LIMIT 1)`,
  capturedAmount: 'c.captured_amount::text',
  refundedAmount: 'c.refunded_amount::text',
  declinedCode: 'c.declined_code',
  cardBrand: "c.payment_source->>'brand'",
  cardLastDigits: "c.payment_source->>'last4digits'",
} as const;
export type ReportField = keyof typeof REPORT_COLUMNS;
export const REPORT_FIELDS = Object.keys(REPORT_COLUMNS) as ReportField[];

/** The columns when a report names none, in this order. */
export const DEFAULT_FIELDS: readonly ReportField[] = [
  'id',
  'createdAt',
  'status',
  'amount',
  'currency',
  'paymentType',
  'installments',
  'merchantId',
  'orderId',
  'customerId',
  'providerType',
  'authorizationCode',
  'capturedAmount',
  'refundedAmount',
];

export interface ReportFilters {
  transactionStatus: string[];
  paymentMethod: string[];
  createdGte: Date | null;
  createdLte: Date | null;
  merchantId: string | null;
}

export interface ReportRequest {
  type: string;
  fields: string[];
  filters: { transactionStatus?: string[]; paymentMethod?: string[]; createdGte?: Date; createdLte?: Date; merchantId?: string };
}

/** A report as asked, checked: a detail per bad field. */
export function parseReportRequest(input: ReportRequest): { type: 'transactions'; fields: ReportField[]; filters: ReportFilters } {
  const problems: FieldViolation[] = [];
  if (input.type !== 'transactions') problems.push({ field: 'type', message: `must be one of ${REPORT_TYPES.join(', ')}` });
  const fields = input.fields.length === 0 ? [...DEFAULT_FIELDS] : input.fields;
  fields.forEach((f, i) => {
    if (!(REPORT_FIELDS as string[]).includes(f)) problems.push({ field: `fields.${i}`, message: `must be one of ${REPORT_FIELDS.join(', ')}` });
  });
  if (new Set(fields).size !== fields.length) problems.push({ field: 'fields', message: 'must not name a column twice' });
  const statuses = input.filters.transactionStatus ?? [];
  statuses.forEach((status, i) => {
    if (!(CHARGE_STATUSES as readonly string[]).includes(status)) problems.push({ field: `filters.transactionStatus.${i}`, message: `must be one of ${CHARGE_STATUSES.join(', ')}` });
  });
  const types = input.filters.paymentMethod ?? [];
  types.forEach((type, i) => {
    if (!(PAYMENT_TYPES as readonly string[]).includes(type)) problems.push({ field: `filters.paymentMethod.${i}`, message: `must be one of ${PAYMENT_TYPES.join(', ')}` });
  });
  const { createdGte, createdLte } = input.filters;
  if (createdGte && createdLte && createdGte.getTime() > createdLte.getTime()) problems.push({ field: 'filters.createdAt.lte', message: 'must not be before gte' });
  const merchantId = input.filters.merchantId || null;
  if (merchantId !== null && !isUuid(merchantId)) problems.push({ field: 'filters.merchantId', message: 'must be a UUID' });
  if (problems.length > 0) throw errors.validation(`invalid report: ${problems[0]!.field} ${problems[0]!.message}`, problems);
  return {
    type: 'transactions',
    fields: fields as ReportField[],
    filters: {
      transactionStatus: [...new Set(statuses)],
      paymentMethod: [...new Set(types)],
      createdGte: createdGte ?? null,
      createdLte: createdLte ?? null,
      merchantId: merchantId === null ? null : merchantId.toLowerCase(),
    },
  };
}

/** The query of a report's rows for a client: its columns, in created order. */
export function reportQuery(clientId: string, fields: readonly ReportField[], filters: ReportFilters): { text: string; values: unknown[] } {
  const values: unknown[] = [clientId];
  const where = ['c.client_id = $1'];
  if (filters.transactionStatus.length > 0) {
    values.push(filters.transactionStatus);
    where.push(`c.status = ANY($${values.length}::text[])`);
  }
  if (filters.paymentMethod.length > 0) {
    values.push(filters.paymentMethod);
    where.push(`c.payment_type = ANY($${values.length}::text[])`);
  }
  if (filters.createdGte) {
    values.push(filters.createdGte);
    where.push(`c.created_at >= $${values.length}`);
  }
  if (filters.createdLte) {
    values.push(filters.createdLte);
    where.push(`c.created_at <= $${values.length}`);
  }
  if (filters.merchantId) {
    values.push(filters.merchantId);
    where.push(`c.merchant_id = $${values.length}::uuid`);
  }
  const columns = fields.map((f, i) => `${REPORT_COLUMNS[f]} AS c${i}`).join(', ');
  return { text: `SELECT ${columns} FROM charges c WHERE ${where.join(' AND ')} ORDER BY c.created_at, c.id`, values };
}
