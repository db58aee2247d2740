import { request as httpRequest } from 'node:http';
import { apiClient, createClient, startTestPlatform, type Credentials, type TestPlatform } from './platform';

type Json = Record<string, unknown>;
interface Charge {
  id: string;
  status: string;
  paymentMethod: { qrCodeData?: string; qrCodeImageUrl?: string | null; barcodeData?: string; barcodeImageUrl?: string | null };
  transactionRequests: Array<{ transactionId: string | null }>;
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Width and height from the PNG's IHDR chunk, which always comes first. */
function pngSize(png: Buffer): { width: number; height: number } {
  expect(png.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);
  expect(png.subarray(12, 16).toString('latin1')).toBe('IHDR');
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

describe('the images of Pix and boleto charges', () => {
  let platform: TestPlatform;
  let api: ReturnType<typeof apiClient>;
  let owner: Credentials;
  let merchantId: string;
  let customerId: string;

  const get = async (url: string, headers: Record<string, string> = {}) => {
    // The URL names the gateway's public origin; the request goes to the address it listens on.
    const response = await fetch(`${platform.gatewayUrl}${new URL(url, platform.gatewayUrl).pathname}`, { headers });
    return { status: response.status, headers: response.headers, body: Buffer.from(await response.arrayBuffer()) };
  };
  /**
   * A conditional GET as a browser's cache revalidates: with node:http, since fetch adds `Cache-Control: no-cache` to a
   * request with If-None-Match (the fetch standard), which asks the server for a fresh answer.
   */
  const revalidate = (url: string, etag: string) =>
    new Promise<{ status: number; length: number }>((resolve, reject) => {
      const target = new URL(new URL(url, platform.gatewayUrl).pathname, platform.gatewayUrl);
      const req = httpRequest(target, { headers: { 'if-none-match': etag } }, (res) => {
        let length = 0;
        res.on('data', (chunk: Buffer) => (length += chunk.length));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, length }));
      });
      req.on('error', reject);
      req.end();
    });
  const envelopeOf = (body: Buffer) => JSON.parse(body.toString('utf8')) as { error: Json };

  beforeAll(async () => {
    platform = await startTestPlatform('e2eimages');
    api = apiClient(platform.gatewayUrl);
    owner = await createClient(platform.adminUrl, platform.adminToken, 'Images');
    const merchant = await api<{ id: string }>('POST', '/v1/merchants', {
      auth: owner,
      body: { mcc: '5999', name: 'Images', providers: [{ name: 'sandbox', priority: 1, credentials: { type: 'SANDBOX' } }] },
    });
    expect(merchant.status).toBe(201);
    merchantId = merchant.body.id;
    const customer = await api<{ id: string }>('POST', '/v1/customers', {
      auth: owner,
      body: { name: 'João Lima', email: 'joao.images@example.com', phoneNumber: '11988887777', document: { type: 'cpf', number: '11144477735', country: 'BR' } },
    });
    expect(customer.status).toBe(201);
    customerId = customer.body.id;
  });

  afterAll(async () => {
    await platform?.stop();
  });

  it("serves a Pix charge's QR code as a cacheable PNG without credentials, and 304 for the same ETag", async () => {
    const pix = await api<Charge>('POST', '/v1/charges', {
      auth: owner,
      body: { merchantId, amount: 2_500, paymentMethod: { paymentType: 'pix', expiresIn: 3600 }, paymentSource: { sourceType: 'customer', customerId } },
    });
    expect(pix.status).toBe(201);
    const url = pix.body.paymentMethod.qrCodeImageUrl!;
    expect(url).toMatch(/\/v1\/sandbox\/pix\/sbx_[0-9a-f]{32}\.png$/);

    const image = await get(url);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/png');
    expect(pngSize(image.body)).toEqual({ width: 320, height: 320 });
    expect(image.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const etag = image.headers.get('etag');
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{43}"$/);

    expect(await revalidate(url, etag!)).toEqual({ status: 304, length: 0 });
    expect((await revalidate(url, '"another"')).status).toBe(200);
    // The same charge's image twice is the same bytes (a cache may keep either).
    expect((await get(url)).body.equals(image.body)).toBe(true);
  });

  it("serves a boleto charge's Interleaved 2 of 5 barcode as a PNG without credentials", async () => {
    const due = new Date(Date.now() + 5 * 86_400_000).toISOString().slice(0, 10);
    const boleto = await api<Charge>('POST', '/v1/charges', {
      auth: owner,
      body: { merchantId, amount: 7_700, paymentMethod: { paymentType: 'boleto', expiresDate: due }, paymentSource: { sourceType: 'customer', customerId } },
    });
    expect(boleto.status).toBe(201);
    expect(boleto.body.paymentMethod.barcodeData).toMatch(/^\d{44}$/);
    const url = boleto.body.paymentMethod.barcodeImageUrl!;
    expect(url).toMatch(/\/v1\/sandbox\/boleto\/sbx_[0-9a-f]{32}\.png$/);

    const image = await get(url);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/png');
    expect(image.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(image.headers.get('etag')).toMatch(/^"[A-Za-z0-9_-]{43}"$/);
    const { width, height } = pngSize(image.body);
    // 44 digits of ITF are 22 pairs of 18 modules plus start and stop (4 + 5 modules): 405 modules, 2 px each, with quiet zones.
    expect(width).toBeGreaterThanOrEqual(810);
    expect(width).toBeGreaterThan(height * 5);
    expect(height).toBeGreaterThanOrEqual(90);
  });

  it('answers 404 with the error envelope for a forged id, an id of the other type and anything else', async () => {
    const pix = await api<Charge>('POST', '/v1/charges', {
      auth: owner,
      body: { merchantId, amount: 1_990, paymentMethod: { paymentType: 'pix', expiresIn: 600 }, paymentSource: { sourceType: 'customer', customerId } },
    });
    expect(pix.status).toBe(201);
    const path = new URL(pix.body.paymentMethod.qrCodeImageUrl!).pathname;
    const transactionId = path.match(/(sbx_[0-9a-f]{32})\.png$/)![1]!;
    const forged = transactionId.slice(0, -1) + (transactionId.endsWith('0') ? '1' : '0');
    const card = await api<Charge>('POST', '/v1/charges', {
      auth: owner,
      body: {
        merchantId,
        amount: 1_000,
        paymentMethod: { paymentType: 'credit', installments: 1 },
        paymentSource: { sourceType: 'card', card: { cardHolderName: 'Ana Souza', cardNumber: '4000000000000010', cardCvv: '120', cardExpirationDate: `12/${new Date().getUTCFullYear() + 5}` } },
      },
    });
    expect(card.status).toBe(201);
    const cardTransaction = card.body.transactionRequests[0]!.transactionId!;
    expect(cardTransaction).toMatch(/^sbx_[0-9a-f]{32}$/);

    for (const other of [
      `/v1/sandbox/pix/${forged}.png`,
      `/v1/sandbox/boleto/${transactionId}.png`,
      `/v1/sandbox/pix/${cardTransaction}.png`,
      `/v1/sandbox/pix/${pix.body.id}.png`,
      '/v1/sandbox/pix/sbx_.png',
      `/v1/sandbox/pix/${'f'.repeat(300)}.png`,
    ]) {
      const answer = await get(other);
      expect({ other, status: answer.status }).toEqual({ other, status: 404 });
      expect(answer.headers.get('content-type')).toContain('application/json');
      expect(envelopeOf(answer.body).error).toMatchObject({ code: 404, type: 'invalid_request_error' });
    }
    // The real one still answers, to anyone.
    expect((await get(path)).status).toBe(200);
  });
});
