import type { payments } from '@platform/contracts';
import { requiredTimestamp } from './json';

/** A report's answer: `GET /v1/reports/{id}` (and `POST`, which answers it `created`). */
export interface ReportJson {
  id: string;
  type: string;
  status: string;
  fields: string[];
  filters: {
    transactionStatus: string[];
    paymentMethod: string[];
    createdAt: { gte: string | null; lte: string | null };
    merchantId: string | null;
  };
  pagesCount: number;
  rowCount: number;
  createdAt: string;
  updatedAt: string;
}

export function toReportJson(report: payments.Report): ReportJson {
  const filters = report.filters;
  return {
    id: report.id,
    type: report.type,
    status: report.status,
    fields: report.fields,
    filters: {
      transactionStatus: filters?.transactionStatus ?? [],
      paymentMethod: filters?.paymentMethod ?? [],
      createdAt: { gte: filters?.createdGte?.toISOString() ?? null, lte: filters?.createdLte?.toISOString() ?? null },
      merchantId: filters?.merchantId ?? null,
    },
    pagesCount: report.pagesCount,
    rowCount: report.rowCount,
    createdAt: requiredTimestamp(report.createdAt, 'createdAt'),
    updatedAt: requiredTimestamp(report.updatedAt, 'updatedAt'),
  };
}
