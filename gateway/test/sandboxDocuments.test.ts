import { AppError } from '@platform/kit';
import request from 'supertest';
import { buildGateway, upstreamCalls } from './helpers';

const TRANSACTION_ID = 'sbx_3f9c2a7e5b1d4c8fa6e0b2d9c7a1e5f3';
const PIX_PAYLOAD = '00020101021226540014br.gov.bcb.pix2532pix.sandbox.local/qr/v2/3f9c2a7e5b1d4c8fa6e0b5204000053039865802BR6304ABCD';
const BARCODE = '00191987600000077000000000000000000000000000';

const binary = (res: request.Response, done: (error: Error | null, body: Buffer) => void) => {
  const chunks: Buffer[] = [];
  res.on('data', (c: Buffer) => chunks.push(c));
  res.on('end', () => done(null, Buffer.concat(chunks)));
};

function pngSize(png: Buffer): { width: number; height: number } {
  expect(png.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

const documents = (found: Record<string, string>) => ({
  getSandboxPaymentDocument: async (r: { transactionId: string; paymentType: string }) => {
    const data = found[`${r.paymentType}:${r.transactionId}`];
    if (!data) throw new AppError('not_found', 'Payment document not found', { key: 'not_found' });
    return { paymentType: r.paymentType, data };
  },
});

describe('the images of SANDBOX Pix and boleto charges', () => {
  it('draws the Pix QR code as a cacheable PNG, without credentials, and answers 304 to its ETag', async () => {
    const gw = buildGateway({ payments: documents({ [`pix:${TRANSACTION_ID}`]: PIX_PAYLOAD }) });
    const res = await request(gw.app).get(`/v1/sandbox/pix/${TRANSACTION_ID}.png`).buffer(true).parse(binary);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers.etag).toMatch(/^"[A-Za-z0-9_-]{43}"$/);
    expect(pngSize(res.body as Buffer)).toEqual({ width: 320, height: 320 });
    expect(upstreamCalls(gw.paymentsCalls)).toEqual([expect.objectContaining({ request: { transactionId: TRANSACTION_ID, paymentType: 'pix' } })]);
    const again = await request(gw.app).get(`/v1/sandbox/pix/${TRANSACTION_ID}.png`).set('If-None-Match', res.headers.etag as string);
    expect(again.status).toBe(304);
    expect(gw.settingsCalls).toEqual([]);
  });

  it('draws the boleto barcode as an Interleaved 2 of 5 PNG', async () => {
    const gw = buildGateway({ payments: documents({ [`boleto:${TRANSACTION_ID}`]: BARCODE }) });
    const res = await request(gw.app).get(`/v1/sandbox/boleto/${TRANSACTION_ID}.png`).buffer(true).parse(binary);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const { width, height } = pngSize(res.body as Buffer);
    expect(width).toBeGreaterThanOrEqual(810);
    expect(height).toBeGreaterThanOrEqual(90);
    expect(width).toBeGreaterThan(height * 5);
  });

  it('answers the 404 envelope for an id payments does not know, and for a malformed one without asking', async () => {
    const gw = buildGateway({ payments: documents({ [`pix:${TRANSACTION_ID}`]: PIX_PAYLOAD }) });
    const other = await request(gw.app).get(`/v1/sandbox/boleto/${TRANSACTION_ID}.png`);
    expect(other.status).toBe(404);
    expect(other.body.error).toMatchObject({ code: 404, type: 'invalid_request_error' });
    const before = upstreamCalls(gw.paymentsCalls).length;
    for (const id of ['sbx_', 'not-an-id', `${TRANSACTION_ID}0`, 'SBX_3F9C2A7E5B1D4C8FA6E0B2D9C7A1E5F3', 'x'.repeat(300)]) {
      const res = await request(gw.app).get(`/v1/sandbox/pix/${id}.png`);
      expect({ id, status: res.status }).toEqual({ id, status: 404 });
      expect(res.body.error).toMatchObject({ code: 404 });
    }
    expect(upstreamCalls(gw.paymentsCalls)).toHaveLength(before);
  });
});
