import request from 'supertest';
import { auth, buildGateway, CLIENT_ID, SECRET_KEY } from './helpers';

const emptyPage = { items: [], meta: { itemCount: 0, totalItems: 0, itemsPerPage: 10, totalPages: 0, currentPage: 1 } };

describe('access log', () => {
  it('writes one line per request with method, path, status, duration, client id and request id; keys redacted, no query or body', async () => {
    const gw = buildGateway({ customers: { listCustomers: async () => emptyPage, createCustomer: async () => ({}) as never } });
    await request(gw.app).get('/v1/customers?email=ana@example.com').set(auth()).set('X-Request-Id', 'req-log-1').set('Cookie', 'session=abc');
    const line = gw.lines.find((l) => l.requestId === 'req-log-1' && l.msg === 'GET /v1/customers 200');
    expect(line).toMatchObject({
      level: 30,
      requestId: 'req-log-1',
      clientId: CLIENT_ID,
      durationMs: expect.any(Number),
      req: { method: 'GET', path: '/v1/customers' },
      res: { status: 200 },
    });
    const headers = (line!.req as { headers: Record<string, string> }).headers;
    expect(headers['x-api-key']).toBe('[REDACTED]');
    expect(headers.cookie).toBe('[REDACTED]');
    expect(headers['x-client-id']).toBe(CLIENT_ID);
    const all = JSON.stringify(gw.lines);
    expect(all).not.toContain(SECRET_KEY);
    expect(all).not.toContain('ana@example.com');
  });

  it('never logs request bodies', async () => {
    const gw = buildGateway();
    await request(gw.app).post('/v1/customers').set(auth()).send({ name: 'Secret Name', email: 'bad', cardNumber: '4111111111111111' });
    const all = JSON.stringify(gw.lines);
    expect(all).toContain('POST /v1/customers 400');
    expect(all).not.toContain('Secret Name');
    expect(all).not.toContain('4111111111111111');
  });

  it('logs the admin token redacted and without a client id', async () => {
    const gw = buildGateway();
    await request(gw.app).get('/admin/v1/clients/x').set('X-Admin-Token', 'not-the-token-but-secret');
    const line = gw.lines.find((l) => l.msg === 'GET /admin/v1/clients/x 401');
    expect(line).toBeDefined();
    expect(line!.clientId).toBeUndefined();
    expect(JSON.stringify(gw.lines)).not.toContain('not-the-token-but-secret');
  });
});
