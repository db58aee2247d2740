import type { payments } from '@platform/contracts';
import { z } from '../zod';
import { requiredTimestamp } from './json';

/** A report's answer: `GET /v1/reports/{id}` (and `POST`, which answers it `created`). */
export const ReportSchema = z
  .object({
    id: z.string(),
    type: z.string().openapi({ example: 'transactions' }),
    status: z.string().openapi({ example: 'ready', description: 'created, processing, ready, empty, error' }),
    fields: z.array(z.string()),
    filters: z.object({
      transactionStatus: z.array(z.string()),
      paymentMethod: z.array(z.string()),
      createdAt: z.object({ gte: z.string().nullable(), lte: z.string().nullable() }),
      merchantId: z.string().nullable(),
    }),
    pagesCount: z.number().int(),
    rowCount: z.number().int(),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .openapi('Report');

export type ReportJson = z.infer<typeof ReportSchema>;

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
