import type { payments } from '@platform/contracts';
import { AppError } from '@platform/kit';
import request from 'supertest';
import { auth, buildGateway, CLIENT_ID, CREATED_AT, PUBLIC_URL, upstreamCalls } from './helpers';
import { CHARGE_ID } from './paymentSamples';

const RECEIPT_ID = '3c1f7e2a-9b4d-4e6f-8a1b-2c3d4e5f6a7b';
const PDF = Buffer.from('%PDF-1.3\n% a receipt\n%%EOF\n', 'latin1');

function sampleReceipt(overrides: Partial<payments.Receipt> = {}): payments.Receipt {
  return { id: RECEIPT_ID, clientId: CLIENT_ID, chargeId: CHARGE_ID, type: 'refund_receipt', createdAt: CREATED_AT, ...overrides };
}

const RECEIPT_JSON = {
  id: RECEIPT_ID,
  chargeId: CHARGE_ID,
  type: 'refund_receipt',
  createdAt: '2026-03-04T05:06:07.089Z',
  fileUrl: `${PUBLIC_URL}/v1/receipts/${RECEIPT_ID}/file`,
};

const binary = (res: request.Response, done: (error: Error | null, body: Buffer) => void) => {
  const chunks: Buffer[] = [];
  res.on('data', (c: Buffer) => chunks.push(c));
  res.on('end', () => done(null, Buffer.concat(chunks)));
};

describe('POST /v1/receipts', () => {
  it('sends the charge and type of the caller and answers 201 with the receipt and where its file is', async () => {
    const gw = buildGateway({ payments: { createReceipt: async () => sampleReceipt() } });
    const res = await request(gw.app).post('/v1/receipts').set(auth()).set('X-Idempotency-Key', 'receipt-1').send({ chargeId: CHARGE_ID, type: 'refund_receipt', clientId: 'forged' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual(RECEIPT_JSON);
    const [call] = upstreamCalls(gw.paymentsCalls);
    const expected: payments.CreateReceiptRequest = { clientId: CLIENT_ID, chargeId: CHARGE_ID, type: 'refund_receipt' };
    expect(call).toMatchObject({ method: 'createReceipt', request: expected });
    expect(call!.meta?.idempotencyKey).toBe('receipt-1');
  });

  it('names each bad field with 400 and asks nothing upstream', async () => {
    const gw = buildGateway();
    const empty = await request(gw.app).post('/v1/receipts').set(auth()).send({});
    expect(empty.status).toBe(400);
    expect(empty.body.error.details).toEqual([
      { field: 'chargeId', message: 'is required' },
      { field: 'type', message: 'is required' },
    ]);
    const wrong = await request(gw.app).post('/v1/receipts').set(auth()).send({ chargeId: 42, type: 'invoice' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.details).toEqual([
      { field: 'chargeId', message: 'must be a string' },
      { field: 'type', message: 'must be one of refund_receipt, cancellation_letter' },
    ]);
    const blank = await request(gw.app).post('/v1/receipts').set(auth()).send({ chargeId: '', type: 'cancellation_letter' });
    expect(blank.body.error.details).toEqual([{ field: 'chargeId', message: 'must not be empty' }]);
    expect(upstreamCalls(gw.paymentsCalls)).toEqual([]);
  });

  it('answers the 422 receipt_not_available and the 404 the service gives', async () => {
    const refused = buildGateway({
      payments: {
        createReceipt: async () => {
          throw new AppError('business_rule', `Charge ${CHARGE_ID} was neither voided nor refunded (status authorized)`, { businessCode: 'receipt_not_available' });
        },
      },
    });
    const rule = await request(refused.app).post('/v1/receipts').set(auth()).send({ chargeId: CHARGE_ID, type: 'cancellation_letter' });
    expect(rule.status).toBe(422);
    expect(rule.body.error).toMatchObject({ code: 422, businessCode: 'receipt_not_available', message: expect.stringContaining('neither voided nor refunded') });

    const missing = buildGateway({
      payments: {
        createReceipt: async () => {
          throw new AppError('not_found', `Charge ${CHARGE_ID} not found`, { key: 'not_found' });
        },
      },
    });
    const notFound = await request(missing.app).post('/v1/receipts').set(auth()).send({ chargeId: CHARGE_ID, type: 'refund_receipt' });
    expect(notFound.status).toBe(404);
    expect(notFound.body.error).toMatchObject({ code: 404, key: 'not_found' });
  });
});

describe('GET /v1/receipts/{id} and /v1/receipts/{id}/file', () => {
  it('answers the receipt of the caller', async () => {
    const gw = buildGateway({ payments: { getReceipt: async () => sampleReceipt({ type: 'cancellation_letter' }) } });
    const res = await request(gw.app).get(`/v1/receipts/${RECEIPT_ID}`).set(auth());
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...RECEIPT_JSON, type: 'cancellation_letter' });
    expect(upstreamCalls(gw.paymentsCalls)).toMatchObject([{ method: 'getReceipt', request: { clientId: CLIENT_ID, id: RECEIPT_ID } }]);
  });

  it('serves the PDF bytes as application/pdf, named after the receipt', async () => {
    const gw = buildGateway({ payments: { readReceiptFile: async () => ({ data: PDF, contentType: 'application/pdf' }) } });
    const res = await request(gw.app).get(`/v1/receipts/${RECEIPT_ID}/file`).set(auth()).buffer(true).parse(binary);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toBe(`inline; filename="receipt-${RECEIPT_ID}.pdf"`);
    expect(Buffer.compare(res.body as Buffer, PDF)).toBe(0);
    expect(upstreamCalls(gw.paymentsCalls)).toMatchObject([{ method: 'readReceiptFile', request: { clientId: CLIENT_ID, id: RECEIPT_ID } }]);
  });

  it("answers 404 with the envelope for an unknown or another client's receipt, and its file", async () => {
    const notFound = async () => {
      throw new AppError('not_found', 'Receipt nope not found', { key: 'not_found' });
    };
    const gw = buildGateway({ payments: { getReceipt: notFound, readReceiptFile: notFound } });
    for (const path of ['/v1/receipts/nope', '/v1/receipts/nope/file']) {
      const res = await request(gw.app).get(path).set(auth());
      expect(res.status).toBe(404);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.body.error).toMatchObject({ code: 404, key: 'not_found' });
    }
  });

  it('needs the receipts scope for a public key', async () => {
    const gw = buildGateway({ payments: { getReceipt: async () => sampleReceipt() } });
    const refused = await request(gw.app).get(`/v1/receipts/${RECEIPT_ID}`).set(auth('pk_charges'));
    expect(refused.status).toBe(403);
    expect(refused.body.error.key).toBe('scope_not_allowed');
    expect((await request(gw.app).get(`/v1/receipts/${RECEIPT_ID}`).set(auth('pk_all'))).status).toBe(200);
    expect((await request(gw.app).post('/v1/receipts').send({ chargeId: CHARGE_ID, type: 'refund_receipt' })).status).toBe(401);
  });

  it('is in the OpenAPI document: the JSON schema, the 422 of POST and the PDF of the file route', async () => {
    const doc = (await request(buildGateway().app).get('/v1/openapi.json')).body;
    expect(Object.keys(doc.paths['/v1/receipts']!)).toEqual(['post']);
    expect(Object.keys(doc.paths['/v1/receipts/{id}']!)).toEqual(['get']);
    expect(doc.paths['/v1/receipts']!.post.responses['201'].content['application/json'].schema.$ref).toBe('#/components/schemas/Receipt');
    expect(Object.keys(doc.paths['/v1/receipts']!.post.responses)).toEqual(expect.arrayContaining(['400', '404', '422']));
    expect(Object.keys(doc.paths['/v1/receipts/{id}/file']!.get.responses['200'].content)).toEqual(['application/pdf']);
    expect(doc.components.schemas.CreateReceiptRequest.properties.type.enum).toEqual(['refund_receipt', 'cancellation_letter']);
    expect(doc.paths['/v1/receipts/{id}']!.get.description).toContain('scope `receipts`');
  });
});
