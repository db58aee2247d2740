import { toReportJson } from '@platform/api-model';
import type { GatewayClients } from '../../clients';
import { defineRoute, type RouteDefinition } from '../../http/route';
import { TAGS } from '../../openapi/tags';
import { CreateReportBody, ReportFileParams, ReportParams, ReportSchema } from './schemas';

const tags = [TAGS.reports] as const;

/** The bytes of a streamed page, as the payments service sends them. */
async function* bytesOf(chunks: AsyncIterable<{ data: Uint8Array }>): AsyncGenerator<Uint8Array> {
  for await (const chunk of chunks) yield chunk.data;
}

export function reportRoutes({ payments }: Pick<GatewayClients, 'payments'>): RouteDefinition[] {
  return [
    defineRoute({
      method: 'post',
      path: '/v1/reports',
      operationId: 'createReport',
      summary: 'Ask for a report of charges (CSV)',
      description:
        'A durable job builds it: poll GET /v1/reports/{id} until it is ready (or empty), then download its pages. ' +
        "A client's builds run at most two at a time by default (the payments service's REPORT_BUILDS_PER_CLIENT); its other reports wait, `created`, in turn, and other clients' reports are not held up by them.",
      tags,
      resource: 'reports',
      body: CreateReportBody,
      response: { status: 201, description: 'The report, created', schema: ReportSchema },
      errors: [404, 409, 422],
      handler: async ({ client, body, call }) =>
        toReportJson(
          await payments.createReport(
            {
              clientId: client.clientId,
              type: body.type,
              fields: body.fields ?? [],
              filters: {
                transactionStatus: body.filters?.transactionStatus ?? [],
                paymentMethod: body.filters?.paymentMethod ?? [],
                ...(body.filters?.createdAt?.gte ? { createdGte: body.filters.createdAt.gte } : {}),
                ...(body.filters?.createdAt?.lte ? { createdLte: body.filters.createdAt.lte } : {}),
                ...(body.filters?.merchantId ? { merchantId: body.filters.merchantId } : {}),
              },
            },
            call,
          ),
        ),
    }),
    defineRoute({
      method: 'get',
      path: '/v1/reports/{id}',
      operationId: 'getReport',
      summary: 'A report: created, processing, ready, empty or error, with its pages and rows',
      tags,
      resource: 'reports',
      params: ReportParams,
      response: { status: 200, description: 'The report', schema: ReportSchema },
      handler: async ({ client, params, call }) => toReportJson(await payments.getReport({ clientId: client.clientId, id: params.id }, call)),
    }),
    defineRoute({
      method: 'get',
      path: '/v1/reports/{id}/files/{page}',
      operationId: 'downloadReportPage',
      summary: 'Download a page of a ready report (CSV, at most 100,000 rows plus a header)',
      description: 'RFC 4180, UTF-8; amounts in minor units; cells that a spreadsheet would run as formulas start with a quote. Streamed.',
      tags,
      resource: 'reports',
      params: ReportFileParams,
      response: { status: 200, description: 'The page', binary: ['text/csv'] },
      errors: [422],
      handler: async ({ client, params, call }) => ({
        contentType: 'text/csv; charset=utf-8',
        headers: { 'Content-Disposition': `attachment; filename="report-${params.id}-${params.page}.csv"` },
        data: bytesOf(payments.readReportPage({ clientId: client.clientId, id: params.id, page: params.page }, call)),
      }),
    }),
  ];
}
