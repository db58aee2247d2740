import { payments } from '@platform/contracts';
import type { Handlers } from '@platform/kit';
import { createReport, getReport, readReportPage, type ReportDeps } from '../app/reports';
import type { ReportRecord } from '../store/reportStore';

export function toReportMessage(r: ReportRecord): payments.Report {
  return payments.Report.fromPartial({
    id: r.id,
    clientId: r.clientId,
    type: r.type,
    status: r.status,
    fields: r.fields,
    filters: {
      transactionStatus: r.filters.transactionStatus,
      paymentMethod: r.filters.paymentMethod,
      ...(r.filters.createdGte ? { createdGte: r.filters.createdGte } : {}),
      ...(r.filters.createdLte ? { createdLte: r.filters.createdLte } : {}),
      ...(r.filters.merchantId ? { merchantId: r.filters.merchantId } : {}),
    },
    pagesCount: r.pagesCount,
    rowCount: r.rowCount,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
  });
}

export function createReportHandlers(deps: ReportDeps): Pick<Handlers<typeof payments.PaymentsServiceService>, 'createReport' | 'getReport' | 'readReportPage'> {
  return {
    createReport: async (r, ctx) =>
      toReportMessage(
        await createReport(deps, {
          clientId: r.clientId,
          type: r.type,
          fields: r.fields,
          filters: {
            transactionStatus: r.filters?.transactionStatus ?? [],
            paymentMethod: r.filters?.paymentMethod ?? [],
            ...(r.filters?.createdGte ? { createdGte: r.filters.createdGte } : {}),
            ...(r.filters?.createdLte ? { createdLte: r.filters.createdLte } : {}),
            ...(r.filters?.merchantId ? { merchantId: r.filters.merchantId } : {}),
          },
        }, ctx.idempotencyKey),
      ),
    getReport: async (r) => toReportMessage(await getReport(deps, r)),
    readReportPage: async function* (r) {
      for await (const data of readReportPage(deps, { clientId: r.clientId, id: r.id, page: r.page })) yield { data };
    },
  };
}
