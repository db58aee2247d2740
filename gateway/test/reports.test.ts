import { payments } from '@platform/contracts';
import { AppError } from '@platform/kit';
import request from 'supertest';
import { auth, buildGateway, CLIENT_ID, CREATED_AT, UPDATED_AT, upstreamCalls } from './helpers';

const REPORT_ID = '6b1f0d2e-3c4a-4b5d-8e6f-7a8b9c0d1e2f';

const report = (overrides: Partial<payments.Report> = {}) =>
  payments.Report.fromPartial({
    id: REPORT_ID,
    clientId: CLIENT_ID,
    type: 'transactions',
    status: 'ready',
    fields: ['id', 'amount'],
    filters: { transactionStatus: ['authorized'], paymentMethod: [], createdGte: new Date('2026-01-01T00:00:00.000Z') },
    pagesCount: 2,
    rowCount: 150_000,
    createdAt: CREATED_AT,
    updatedAt: UPDATED_AT,
    ...overrides,
  });

function gateway() {
  return buildGateway({
    payments: {
      createReport: async () => report({ status: 'created', pagesCount: 0, rowCount: 0 }),
      getReport: async () => report(),
      readReportPage: (async function* (r: payments.ReadReportPageRequest) {
        if (r.page > 2) throw new AppError('not_found', 'Report page 3 not found');
        yield { data: Buffer.from('id,amount\r\n') };
        yield { data: Buffer.from('c1,100\r\nc2,"1,5"\r\n') };
      }) as never,
    },
  });
}

describe('/v1/reports', () => {
  it('POST maps the body to the request and answers 201 with the report', async () => {
    const gw = gateway();
    const res = await request(gw.app)
      .post('/v1/reports')
      .set(auth())
      .send({ type: 'transactions', fields: ['id', 'amount'], filters: { transactionStatus: ['authorized'], paymentMethod: ['credit'], createdAt: { gte: '2026-01-01T00:00:00Z' }, merchantId: 'm1' } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ id: REPORT_ID, status: 'created', pagesCount: 0, rowCount: 0 });
    expect(upstreamCalls(gw.paymentsCalls)[0]!.request).toEqual({
      clientId: CLIENT_ID,
      type: 'transactions',
      fields: ['id', 'amount'],
      filters: { transactionStatus: ['authorized'], paymentMethod: ['credit'], createdGte: new Date('2026-01-01T00:00:00.000Z'), merchantId: 'm1' },
    });
  });

  it('refuses an unknown type, column, status or date before asking payments', async () => {
    const gw = gateway();
    const res = await request(gw.app)
      .post('/v1/reports')
      .set(auth())
      .send({ type: 'sales', fields: ['cardNumber'], filters: { transactionStatus: ['paid'], createdAt: { gte: 'yesterday' } } });
    expect(res.status).toBe(400);
    expect(res.body.error.details.map((d: { field: string }) => d.field).sort()).toEqual(['fields.0', 'filters.createdAt.gte', 'filters.transactionStatus.0', 'type']);
    expect(upstreamCalls(gw.paymentsCalls)).toEqual([]);
  });

  it('GET answers the report with its pages, rows and filters', async () => {
    const res = await request(gateway().app).get(`/v1/reports/${REPORT_ID}`).set(auth());
    expect(res.body).toEqual({
      id: REPORT_ID,
      type: 'transactions',
      status: 'ready',
      fields: ['id', 'amount'],
      filters: { transactionStatus: ['authorized'], paymentMethod: [], createdAt: { gte: '2026-01-01T00:00:00.000Z', lte: null }, merchantId: null },
      pagesCount: 2,
      rowCount: 150_000,
      createdAt: CREATED_AT.toISOString(),
      updatedAt: UPDATED_AT.toISOString(),
    });
  });

  it('streams a page as text/csv, chunk after chunk', async () => {
    const gw = gateway();
    const res = await request(gw.app).get(`/v1/reports/${REPORT_ID}/files/1`).set(auth()).buffer(true).parse((r, done) => {
      let text = '';
      r.on('data', (c: Buffer) => (text += c.toString()));
      r.on('end', () => done(null, text));
    });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="report-${REPORT_ID}-1.csv"`);
    expect(res.body).toBe('id,amount\r\nc1,100\r\nc2,"1,5"\r\n');
    expect(upstreamCalls(gw.paymentsCalls)[0]!.request).toEqual({ clientId: CLIENT_ID, id: REPORT_ID, page: 1 });
  });

  it('answers the error envelope when the page cannot be read, and 400 for a page that is not a number', async () => {
    const gw = gateway();
    const missing = await request(gw.app).get(`/v1/reports/${REPORT_ID}/files/3`).set(auth());
    expect(missing.status).toBe(404);
    expect(missing.body.error).toMatchObject({ code: 404, message: 'Report page 3 not found' });
    const bad = await request(gw.app).get(`/v1/reports/${REPORT_ID}/files/x`).set(auth());
    expect(bad.status).toBe(400);
    expect(bad.body.error.details).toEqual([{ field: 'page', message: 'must be a whole page number' }]);
  });
});
