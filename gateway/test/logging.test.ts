import { AppError, createLogger } from '@platform/kit';
import request from 'supertest';
import { auth, buildGateway, CLIENT_ID, sampleCustomer, SECRET_KEY, type CapturedLogger } from './helpers';

/** The gateway's own logger (the kit's, as main.ts makes it), keeping its lines. */
function kitLogger(): CapturedLogger {
  const lines: Array<Record<string, unknown>> = [];
  const log = createLogger({ name: 'gateway', level: 'info', destination: { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) } });
  return { log, lines };
}

type ErrorLine = { level: string; msg: string; errorId?: string; requestId?: string; err: Record<string, unknown> & { cause?: Record<string, unknown> } };

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

  it('redacts key-shaped values a caller put in the path, X-Client-Id, X-Idempotency-Key, X-Request-Id or any other header', async () => {
    const gw = buildGateway({ customers: { listCustomers: async () => emptyPage, getCustomer: async () => sampleCustomer() } });
    const liveKey = `sk_live_${'Ab3_x-Z9'.repeat(5)}abc`;
    const publicKey = `pk_sandbox_${'Qw7-Er5_'.repeat(5)}xyz`;
    const webhookSecret = `whsec_${'c2VjcmV0LXNlY3JldC1zZWNyZXQtc2VjcmV0'}`;
    const sessionKey = `sk_session_${'Zz9Yy8Xx7'.repeat(4)}`;
    const randomToken = 'q8W2e9R4t7Y1u6I3o0P5a2S8d4F7g1H9';
    await request(gw.app).get(`/v1/customers/${liveKey}`).set(auth()).set('X-Request-Id', 'req-redact-1');
    await request(gw.app).get('/v1/customers').set({ 'X-Client-Id': publicKey, 'X-Api-Key': SECRET_KEY, 'X-Request-Id': 'req-redact-2' });
    await request(gw.app)
      .post('/v1/customers')
      .set(auth())
      .set({ 'X-Idempotency-Key': webhookSecret, 'X-Request-Id': 'req-redact-3', 'X-Merchant-Id': sessionKey, 'X-Other': `Bearer ${randomToken}` })
      .send({});
    await request(gw.app).get(`/v1/customers/${sessionKey}`).set(auth()).set('X-Request-Id', liveKey);
    const all = JSON.stringify(gw.lines);
    for (const secret of [liveKey, publicKey, webhookSecret, sessionKey, randomToken]) expect(all).not.toContain(secret);
    // What the secret was is still readable, and ids, request ids and the rest of the line are kept as they were.
    const first = gw.lines.find((l) => l.requestId === 'req-redact-1');
    expect(first?.msg).toMatch(/^GET \/v1\/customers\/sk_live_\[REDACTED\] \d{3}$/);
    expect((first!.req as { path: string }).path).toBe('/v1/customers/sk_live_[REDACTED]');
    expect((first!.req as { headers: Record<string, string> }).headers['x-client-id']).toBe(CLIENT_ID);
    const second = gw.lines.find((l) => l.requestId === 'req-redact-2');
    expect((second!.req as { headers: Record<string, string> }).headers['x-client-id']).toBe('pk_sandbox_[REDACTED]');
    const third = (gw.lines.find((l) => l.requestId === 'req-redact-3')!.req as { headers: Record<string, string> }).headers;
    expect(third['x-idempotency-key']).toBe('whsec_[REDACTED]');
    expect(third['x-merchant-id']).toBe('sk_session_[REDACTED]');
    expect(third['x-other']).toBe('Bearer [REDACTED]');
    // A key given as X-Request-Id is not kept as the request id (every later line would carry it).
    const fourth = gw.lines.find((l) => typeof l.msg === 'string' && l.msg.startsWith('GET /v1/customers/sk_session_[REDACTED]'));
    expect(fourth?.requestId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
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
    await request(gw.admin).get('/admin/v1/clients/x').set('X-Admin-Token', 'not-the-token-but-secret');
    const line = gw.lines.find((l) => l.msg === 'GET /admin/v1/clients/x 401');
    expect(line).toBeDefined();
    expect(line!.clientId).toBeUndefined();
    expect(JSON.stringify(gw.lines)).not.toContain('not-the-token-but-secret');
  });

  it('truncates the path and header values a caller sizes, so no line grows with the request', async () => {
    const gw = buildGateway();
    const longPath = `/v1/${'p'.repeat(2_000)}`;
    await request(gw.app).get(longPath).set('X-Long', 'h'.repeat(6_000)).set('User-Agent', 'u'.repeat(1_000));
    const line = gw.lines.find((l) => typeof l.msg === 'string' && l.msg.startsWith('GET /v1/ppp'));
    expect(line).toBeDefined();
    const req = line!.req as { path: string; headers: Record<string, string> };
    expect(req.path).toBe(`${longPath.slice(0, 256)}…[${longPath.length - 256} more]`);
    expect(req.headers['x-long']).toBe(`${'h'.repeat(256)}…[${6_000 - 256} more]`);
    expect(req.headers['user-agent']).toHaveLength(256 + '…[744 more]'.length);
    expect((line!.msg as string).length).toBeLessThan(300);
    expect(JSON.stringify(line).length).toBeLessThan(2_500);
  });
});

describe('access log at a production level (warn)', () => {
  function warnLogger(): CapturedLogger {
    const lines: Array<Record<string, unknown>> = [];
    const log = createLogger({ name: 'gateway', level: 'warn', destination: { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) } });
    return { log, lines };
  }

  it('writes no line for an answer below 500', async () => {
    const logger = warnLogger();
    const gw = buildGateway({ logger, customers: { listCustomers: async () => emptyPage } });
    expect((await request(gw.app).get('/v1/customers').set(auth())).status).toBe(200);
    expect((await request(gw.app).post('/v1/customers').set(auth()).send({ email: 'bad' })).status).toBe(400);
    expect(logger.lines).toEqual([]);
  });

  it('writes one access line for a 5xx, with method, path, status and client id, the key redacted', async () => {
    const logger = warnLogger();
    const gw = buildGateway({
      logger,
      customers: {
        listCustomers: async () => {
          throw new TypeError('boom');
        },
      },
    });
    const response = await request(gw.app).get('/v1/customers?email=ana@example.com').set(auth()).set('X-Request-Id', 'req-warn-1');
    expect(response.status).toBe(500);
    const access = logger.lines.filter((l) => l.msg === 'GET /v1/customers 500');
    expect(access).toHaveLength(1);
    expect(access[0]).toMatchObject({ level: 'error', requestId: 'req-warn-1', clientId: CLIENT_ID, req: { method: 'GET', path: '/v1/customers' }, res: { status: 500 } });
    expect((access[0]!.req as { headers: Record<string, string> }).headers['x-api-key']).toBe('[REDACTED]');
    const all = JSON.stringify(logger.lines);
    expect(all).not.toContain(SECRET_KEY);
    expect(all).not.toContain('ana@example.com');
  });
});

describe('error log lines', () => {
  it('logs a 500 with the message, type and stack of what was thrown, and the logId the client got', async () => {
    const logger = kitLogger();
    const gw = buildGateway({
      logger,
      customers: {
        listCustomers: async () => {
          throw new TypeError("Cannot read properties of undefined (reading 'items')");
        },
      },
    });
    const response = await request(gw.app).get('/v1/customers').set(auth()).set('X-Request-Id', 'req-err-1');
    expect(response.status).toBe(500);
    const logId = /logId=([0-9a-f-]+)/.exec(response.body.error.message as string)?.[1];
    const line = logger.lines.find((l) => l.msg === 'internal error') as ErrorLine | undefined;
    expect(line).toMatchObject({ level: 'error', requestId: 'req-err-1', errorId: logId, err: { type: 'TypeError', message: "Cannot read properties of undefined (reading 'items')" } });
    expect(String(line!.err.stack)).toMatch(/^TypeError: Cannot read properties/);
    expect(String(line!.err.stack)).toContain('logging.test.ts');
  });

  it('logs an unavailable upstream with the gRPC error that caused it: message and code', async () => {
    const logger = kitLogger();
    const grpcError = Object.assign(new Error('14 UNAVAILABLE: No connection established'), { code: 14, details: 'No connection established', metadata: {} });
    const gw = buildGateway({
      logger,
      customers: {
        listCustomers: async () => {
          throw new AppError('unavailable', 'customers is unavailable', { cause: grpcError });
        },
      },
    });
    const response = await request(gw.app).get('/v1/customers').set(auth());
    expect(response.status).toBe(503);
    const line = logger.lines.find((l) => l.msg === 'upstream unavailable') as ErrorLine | undefined;
    expect(line).toMatchObject({ level: 'warn', err: { type: 'Error', message: '14 UNAVAILABLE: No connection established', code: 14 } });
    expect(line!.err.stack).toEqual(expect.any(String));
    expect(line!.err).not.toHaveProperty('metadata');
  });

  it('logs an http-errors style error (statusCode, status, expose) by its message and stack, not by its status alone', async () => {
    const logger = kitLogger();
    const streamError = Object.assign(new Error('stream encoding should not be set'), { statusCode: 500, status: 500, expose: false, type: 'stream.encoding.set' });
    const gw = buildGateway({
      logger,
      customers: {
        listCustomers: async () => {
          throw streamError;
        },
      },
    });
    const response = await request(gw.app).get('/v1/customers').set(auth());
    expect(response.status).toBe(500);
    const line = logger.lines.find((l) => l.msg === 'internal error') as ErrorLine | undefined;
    expect(line!.err).toMatchObject({ type: 'Error', message: 'stream encoding should not be set' });
    expect(String(line!.err.stack)).toContain('stream encoding should not be set');
  });

  it('logs a PostgreSQL error behind a 500 without the row values in its detail', async () => {
    const logger = kitLogger();
    const pgError = Object.assign(new Error('duplicate key value violates unique constraint "customers_email_key"'), {
      code: '23505',
      severity: 'ERROR',
      constraint: 'customers_email_key',
      table: 'customers',
      detail: 'Key (email)=(ana.secret@example.com) already exists.',
    });
    const gw = buildGateway({
      logger,
      customers: {
        listCustomers: async () => {
          throw pgError;
        },
      },
    });
    await request(gw.app).get('/v1/customers').set(auth());
    const line = logger.lines.find((l) => l.msg === 'internal error') as ErrorLine | undefined;
    expect(line!.err).toMatchObject({ code: '23505', constraint: 'customers_email_key', table: 'customers' });
    expect(JSON.stringify(logger.lines)).not.toContain('ana.secret@example.com');
  });
});
