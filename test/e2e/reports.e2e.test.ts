import { execFileSync } from 'node:child_process';
import { parse } from 'csv-parse/sync';
import { cardNumberEnding, eventually } from '@platform/testkit';
import { apiClient, createClient, startTestPlatform, type Credentials, type TestPlatform } from './platform';

type Json = Record<string, unknown>;
interface Report {
  id: string;
  status: string;
  pagesCount: number;
  rowCount: number;
}

/** Reports and receipts through the gateway, on the whole platform. */
describe('reports and receipts through the gateway', () => {
  let platform: TestPlatform;
  let api: ReturnType<typeof apiClient>;
  let client: Credentials;
  let merchantId: string;
  const charge = async (body: Json = {}) => {
    const res = await api<{ id: string; status: string }>('POST', '/v1/charges', {
      auth: client,
      body: {
        merchantId,
        amount: 5_000,
        paymentMethod: { paymentType: 'credit', installments: 1 },
        paymentSource: { sourceType: 'card', card: { cardHolderName: 'Ana Souza', cardNumber: cardNumberEnding('1'), cardCvv: '870', cardExpirationDate: `12/${new Date().getUTCFullYear() + 5}` } },
        ...body,
      },
    });
    expect(res.status).toBe(201);
    return res.body;
  };

  beforeAll(async () => {
    platform = await startTestPlatform('e2ereports');
    api = apiClient(platform.gatewayUrl);
    client = await createClient(platform.adminUrl, platform.adminToken, 'Reports Store');
    const merchant = await api<{ id: string }>('POST', '/v1/merchants', {
      auth: client,
      body: { mcc: '5999', name: 'Loja Relatório', providers: [{ name: 'sandbox', priority: 1, credentials: { type: 'SANDBOX' } }] },
    });
    merchantId = merchant.body.id;
  }, 120_000);

  afterAll(async () => {
    await platform?.stop();
  });

  it('builds a CSV report whose tricky descriptions survive a standard CSV parser', async () => {
    const tricky = 'Mugs, "blue"\nand =SUM(A1:A2)';
    const first = await charge({ description: tricky, orderId: 'order-1' });
    await charge({ description: '=1+1', orderId: 'order-2' });
    const created = await api<Report>('POST', '/v1/reports', { auth: client, body: { type: 'transactions', fields: ['id', 'orderId', 'description', 'amount', 'status'], filters: { paymentMethod: ['credit'] } } });
    expect(created.status).toBe(201);
    const ready = await eventually(
      async () => {
        const report = (await api<Report>('GET', `/v1/reports/${created.body.id}`, { auth: client })).body;
        return report.status === 'ready' ? report : undefined;
      },
      'the report ready',
      { timeoutMs: 20_000, intervalMs: 200 },
    );
    expect(ready).toMatchObject({ rowCount: 2, pagesCount: 1 });
    const file = await fetch(`${platform.gatewayUrl}/v1/reports/${created.body.id}/files/1`, { headers: { 'x-client-id': client.clientId, 'x-api-key': client.apiKey } });
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    const rows = parse(await file.text(), { columns: true }) as Array<Record<string, string>>;
    expect(rows).toEqual([
      { id: first.id, orderId: 'order-1', description: tricky, amount: '5000', status: 'authorized' },
      { id: expect.any(String), orderId: 'order-2', description: "'=1+1", amount: '5000', status: 'authorized' },
    ]);
    const foreign = await createClient(platform.adminUrl, platform.adminToken, 'Other');
    expect((await api('GET', `/v1/reports/${created.body.id}`, { auth: foreign })).status).toBe(404);
    expect((await api('GET', `/v1/reports/${created.body.id}/files/1`, { auth: foreign })).status).toBe(404);
  });

  it('makes a receipt of a refunded charge once, whose text shows the charge and the refunded amount', async () => {
    const refunded = await charge({ amount: 12_345 });
    expect((await api('POST', `/v1/charges/${refunded.id}/void`, { auth: client, body: { amount: 2_345 } })).status).toBe(201);
    const receipt = await api<{ id: string; fileUrl: string }>('POST', '/v1/receipts', { auth: client, body: { chargeId: refunded.id, type: 'refund_receipt' } });
    expect(receipt.status).toBe(201);
    const headers = { 'x-client-id': client.clientId, 'x-api-key': client.apiKey };
    const pdf = Buffer.from(await (await fetch(receipt.body.fileUrl.replace(/^https?:\/\/[^/]+/, platform.gatewayUrl), { headers })).arrayBuffer());
    const text = execFileSync('pdftotext', ['-layout', '-', '-'], { input: pdf }).toString('utf8');
    expect(text).toContain(refunded.id);
    expect(text).toMatch(/R\$\s23,45/);
    const again = await api<{ id: string }>('POST', '/v1/receipts', { auth: client, body: { chargeId: refunded.id, type: 'refund_receipt' } });
    expect(again.body.id).toBe(receipt.body.id);
    const same = Buffer.from(await (await fetch(`${platform.gatewayUrl}/v1/receipts/${receipt.body.id}/file`, { headers })).arrayBuffer());
    expect(same.equals(pdf)).toBe(true);
    const never = await charge();
    const refused = await api<{ error: { businessCode: string } }>('POST', '/v1/receipts', { auth: client, body: { chargeId: never.id, type: 'refund_receipt' } });
    expect(refused.status).toBe(422);
    expect(refused.body.error.businessCode).toBe('receipt_not_available');
  });
});
