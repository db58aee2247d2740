import { randomUUID } from 'node:crypto';
import { parse } from 'csv-parse/sync';
import { eventually } from '@platform/testkit';
import { cardCharge, cardNumberEnding, createMerchant, failureOf, pixCharge, startCharges, type RunningCharges } from '../support/charges';

let running: RunningCharges;

beforeAll(async () => {
  // Pages of 3 rows, so that paging shows with a handful of charges.
  running = await startCharges({}, { reportPageRows: 3 });
});

afterAll(async () => {
  await running.stop();
});

async function readyReport(clientId: string, id: string) {
  return eventually(
    async () => {
      const report = await running.client.getReport({ clientId, id });
      return ['ready', 'empty', 'error'].includes(report.status) ? report : undefined;
    },
    'the report built by its job',
    { timeoutMs: 15_000, intervalMs: 100 },
  );
}

async function page(clientId: string, id: string, n: number): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of running.client.readReportPage({ clientId, id, page: n })) chunks.push(Buffer.from(chunk.data));
  return Buffer.concat(chunks).toString('utf8');
}

describe('reports (CSV)', () => {
  const clientId = randomUUID();
  const descriptions = ['Plain', 'Comma, then "quotes"\nand a new line', '=HYPERLINK("https://evil.example")', '+1 and -1', '@handle', 'Último café'];
  const ids: string[] = [];

  beforeAll(async () => {
    const merchant = await createMerchant(running.client, clientId, [{ name: 'sandbox', priority: 1 }]);
    for (const description of descriptions) {
      ids.push((await running.client.createCharge(cardCharge(clientId, merchant.id, cardNumberEnding('1'), { amount: 1_234, description }))).id);
    }
    await running.client.createCharge(pixCharge(clientId, merchant.id, { amount: 999 }));
  });

  it('builds the pages with a job and streams each as RFC 4180 CSV that a standard parser reads back', async () => {
    const created = await running.client.createReport({ clientId, type: 'transactions', fields: ['id', 'description', 'amount', 'paymentType'], filters: { transactionStatus: [], paymentMethod: ['credit'] } });
    expect(created.status).toBe('created');
    const report = await readyReport(clientId, created.id);
    expect(report).toMatchObject({ status: 'ready', rowCount: 6, pagesCount: 2, fields: ['id', 'description', 'amount', 'paymentType'] });
    const pages = [await page(clientId, created.id, 1), await page(clientId, created.id, 2)];
    expect(pages[0]!.startsWith('id,description,amount,paymentType\r\n')).toBe(true);
    const rows = pages.flatMap((text) => parse(text, { columns: true }) as Array<Record<string, string>>);
    expect(rows.map((r) => r.id)).toEqual(ids);
    expect(rows.map((r) => r.amount)).toEqual(Array(6).fill('1234'));
    // Text survives the round trip; a cell a spreadsheet would run as a formula comes back with a leading quote.
    expect(rows.map((r) => r.description)).toEqual(['Plain', 'Comma, then "quotes"\nand a new line', '\'=HYPERLINK("https://evil.example")', "'+1 and -1", "'@handle", 'Último café']);
  });

  it('takes the default columns, answers empty when nothing matches, and refuses bad fields and filters', async () => {
    const all = await running.client.createReport({ clientId, type: 'transactions', fields: [], filters: { transactionStatus: ['authorized', 'pending'], paymentMethod: [] } });
    const ready = await readyReport(clientId, all.id);
    expect(ready).toMatchObject({ status: 'ready', rowCount: 7, pagesCount: 3 });
    expect((await page(clientId, all.id, 1)).split('\r\n')[0]).toBe(
      'id,createdAt,status,amount,currency,paymentType,installments,merchantId,orderId,customerId,providerType,authorizationCode,capturedAmount,refundedAmount',
    );
    const none = await running.client.createReport({ clientId, type: 'transactions', fields: [], filters: { transactionStatus: ['charged_back'], paymentMethod: [] } });
    expect(await readyReport(clientId, none.id)).toMatchObject({ status: 'empty', rowCount: 0, pagesCount: 0 });
    const bad = await failureOf(running.client.createReport({ clientId, type: 'sales', fields: ['id', 'cardNumber'], filters: { transactionStatus: ['paid'], paymentMethod: [] } }));
    expect(bad.details?.map((d) => d.field)).toEqual(['type', 'fields.1', 'filters.transactionStatus.0']);
    expect(await failureOf(running.client.createReport({ clientId, type: 'transactions', fields: [], filters: { transactionStatus: [], paymentMethod: [], merchantId: randomUUID() } }))).toMatchObject({ kind: 'not_found' });
  });

  it("answers not found for another client's report or a page past the last, and 422 for a report without a file", async () => {
    const report = await running.client.createReport({ clientId, type: 'transactions', fields: [], filters: { transactionStatus: [], paymentMethod: [] } });
    await readyReport(clientId, report.id);
    expect(await failureOf(running.client.getReport({ clientId: randomUUID(), id: report.id }))).toMatchObject({ kind: 'not_found' });
    expect(await failureOf(page(randomUUID(), report.id, 1))).toMatchObject({ kind: 'not_found' });
    expect(await failureOf(page(clientId, report.id, 99))).toMatchObject({ kind: 'not_found' });
    const fresh = await running.client.createReport({ clientId: randomUUID(), type: 'transactions', fields: [], filters: { transactionStatus: [], paymentMethod: [] } });
    expect(await readyReport(fresh.clientId, fresh.id)).toMatchObject({ status: 'empty' });
    expect(await failureOf(page(fresh.clientId, fresh.id, 1))).toMatchObject({ businessCode: 'report_not_ready' });
  });
});
