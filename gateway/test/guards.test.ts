import net from 'node:net';
import { AppError } from '@platform/kit';
import { AMOUNT_MAX, INT32_MAX } from '@platform/api-model';
import request from 'supertest';
import { jsonDepthExceeds, MAX_BODY_DEPTH } from '../src/http/body';
import { jsonObjectProblem } from '../src/http/json';
import { textViolations } from '../src/http/validation';
import { KEEP_ALIVE_TIMEOUT_MS, listen } from '../src/server';
import { auth, buildGateway, captureLogger, upstreamCalls } from './helpers';

type Detail = { field: string; message: string };
const fieldsOf = (body: { error: { details?: Detail[] } }) => (body.error.details ?? []).map((d) => d.field).sort();

const nested = (depth: number): Record<string, unknown> => {
  let value: unknown = 'leaf';
  for (let i = 0; i < depth; i++) value = { k: value };
  return value as Record<string, unknown>;
};

const charge = (extra: Record<string, unknown> = {}) => ({
  merchantId: 'merchant-1',
  amount: 1000,
  currency: 'BRL',
  paymentMethod: { paymentType: 'pix', expiresIn: 600 },
  paymentSource: { sourceType: 'token', tokenId: 'token-1' },
  ...extra,
});

/** A gateway whose CreateCharge answers 404, so a request that passed validation is told apart from one refused. */
const chargeGateway = () => buildGateway({ payments: { createCharge: async () => Promise.reject(new AppError('not_found', 'Merchant not found')) } });

function raw(port: number, bytes: Buffer | string): Promise<{ status: number; contentType: string; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (c) => chunks.push(c));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('latin1');
      const [head = '', body = ''] = text.split('\r\n\r\n');
      const contentType = /content-type: ([^\r\n]+)/i.exec(head)?.[1] ?? '';
      resolve({ status: Number(head.split(' ')[1]), contentType, body });
    });
    socket.on('connect', () => socket.write(bytes));
  });
}

describe('text no column can hold', () => {
  it('names each body field with NUL or an unpaired surrogate, at any depth, keys included, once per path', async () => {
    const gw = buildGateway();
    const body = '{"name":"a\\u0000b","email":"x\\ud800@example.com","phoneNumber":"\\udc00","document":{"type":"cpf","number":"1\\u0000"},"address":{"a\\u0000":1}}';
    const res = await request(gw.app).post('/v1/customers').set(auth()).set('Content-Type', 'application/json').send(body);
    expect(res.status).toBe(400);
    expect(fieldsOf(res.body)).toEqual(['address.a\uFFFD', 'document.number', 'email', 'name', 'phoneNumber']);
    expect(res.body.error.details).toContainEqual({ field: 'name', message: 'must not contain NUL characters or unpaired UTF-16 surrogates' });
    expect(upstreamCalls(gw.customersCalls)).toHaveLength(0);
  });

  it('refuses NUL in a query filter and a path parameter, and keeps paired surrogates (emoji)', async () => {
    const gw = buildGateway({ payments: { listCharges: async () => ({ items: [], meta: { itemCount: 0, totalItems: 0, itemsPerPage: 10, totalPages: 0, currentPage: 1 } }) } });
    const query = await request(gw.app).get('/v1/charges?orderId=%00').set(auth());
    expect(query.status).toBe(400);
    expect(query.body.error.details).toEqual([{ field: 'orderId', message: expect.stringContaining('NUL') }]);
    const path = await request(gw.app).patch('/v1/customers/a%00b').set(auth()).send({ name: 'Ana' });
    expect(path.status).toBe(400);
    expect(fieldsOf(path.body)).toEqual(['id']);
    const emoji = await request(gw.app).get(`/v1/charges?orderId=${encodeURIComponent('😀')}`).set(auth());
    expect(emoji.status).toBe(200);
  });

  it('walks deep values without recursion and reports a bad top-level string by its part', () => {
    const violations: Detail[] = [];
    textViolations('\u0000', 'body', violations);
    let deep: unknown = 'a\u0000';
    for (let i = 0; i < 50_000; i++) deep = [deep];
    textViolations(deep, 'body', violations);
    expect(violations.map((v) => v.field)).toEqual(['body', Array.from({ length: 50_000 }, () => '0').join('.')]);
  });
});

describe('integer ranges', () => {
  it('refuses a page past int32 and an amount past int64-safe, naming the field', async () => {
    const gw = chargeGateway();
    const page = await request(gw.app).get('/v1/customers?page=2147483648').set(auth());
    expect(page.status).toBe(400);
    expect(page.body.error.details).toEqual([{ field: 'page', message: `must be at most ${INT32_MAX}` }]);
    const amount = await request(gw.app)
      .post('/v1/charges')
      .set(auth())
      .set('Content-Type', 'application/json')
      .send(JSON.stringify(charge()).replace('"amount":1000', '"amount":9007199254740993'));
    expect(amount.status).toBe(400);
    expect(fieldsOf(amount.body)).toEqual(['amount']);
    const atMax = await request(gw.app).post('/v1/charges').set(auth()).send(charge({ amount: AMOUNT_MAX }));
    expect(atMax.status).toBe(404);
  });

  it('refuses int32 overflows in nested arrays: retry days, installments, split percentages', async () => {
    const gw = chargeGateway();
    const days = await request(gw.app).patch('/v1/subscriptions/settings').set(auth()).send({ retryPolicy: [{ daysAfterLastAttempt: 2_147_483_648 }] });
    expect(days.status).toBe(400);
    expect(fieldsOf(days.body)).toEqual(['retryPolicy.0.daysAfterLastAttempt']);
    const installments = await request(gw.app)
      .post('/v1/charges')
      .set(auth())
      .send(charge({ paymentMethod: { paymentType: 'credit', installments: 2_147_483_648 } }));
    expect(installments.status).toBe(400);
    expect(fieldsOf(installments.body)).toEqual(['paymentMethod.installments']);
    const priority = await request(gw.app)
      .post('/v1/merchants')
      .set(auth())
      .send({ mcc: '5999', providers: [{ name: 'p', priority: 2_147_483_648, credentials: { type: 'SANDBOX' } }] });
    expect(fieldsOf(priority.body)).toEqual(['providers.0.priority']);
  });
});

describe('path, headers and parser errors', () => {
  it('answers a malformed percent-encoding in the path with the 400 envelope', async () => {
    const gw = buildGateway();
    for (const path of ['/v1/customers/%ff', '/v1/customers/%', '/v1/charges/%E0%A4%A/capture']) {
      const res = await request(gw.app).get(path).set(auth());
      expect({ path, status: res.status }).toEqual({ path, status: 400 });
      expect(res.body).toEqual({ error: { type: 'bad_request', code: 400, message: 'Malformed percent-encoding in the path', key: 'malformed_path' } });
    }
    expect(gw.lines.filter((l) => l.msg === 'internal error')).toEqual([]);
  });

  it('takes visible ASCII idempotency keys only, and never hands another to gRPC metadata', async () => {
    const gw = buildGateway();
    for (const key of ['caf\u00e9', 'a b', '\u00ff']) {
      const res = await request(gw.app).post('/v1/customers').set(auth()).set('X-Idempotency-Key', key).send({});
      expect(res.status).toBe(400);
      expect(res.body.error.details).toContainEqual({ field: 'x-idempotency-key', message: 'must be visible ASCII characters (0x21 to 0x7E)' });
    }
    expect(upstreamCalls(gw.customersCalls)).toHaveLength(0);
  });

  it('answers what Node refuses before express in the error envelope: bad path bytes, NUL in a header, huge headers', async () => {
    const gw = buildGateway();
    const { log, lines } = captureLogger();
    const server = await listen(gw.app, { host: '127.0.0.1', port: 0, log });
    try {
      const badPath = await raw(server.port, Buffer.concat([Buffer.from('GET /v1/customers/'), Buffer.from([0xff]), Buffer.from(' HTTP/1.1\r\nHost: x\r\n\r\n')]));
      expect(badPath.status).toBe(400);
      expect(badPath.contentType).toContain('application/json');
      expect(JSON.parse(badPath.body)).toEqual({ error: { type: 'bad_request', code: 400, message: 'Malformed HTTP request', key: 'malformed_request' } });
      const nul = await raw(server.port, 'GET /health HTTP/1.1\r\nHost: x\r\nX-A: a\u0000b\r\n\r\n');
      expect(nul.status).toBe(400);
      const big = await raw(server.port, `GET /health HTTP/1.1\r\nHost: x\r\nX-Big: ${'b'.repeat(100_000)}\r\n\r\n`);
      expect(big.status).toBe(431);
      expect(JSON.parse(big.body).error).toEqual({ type: 'invalid_request_error', code: 431, message: 'The request headers are too large', key: 'header_fields_too_large' });
      expect(lines.filter((l) => l.msg === 'malformed request refused').map((l) => l.code)).toEqual(['HPE_INVALID_URL', 'HPE_INVALID_HEADER_TOKEN', 'HPE_HEADER_OVERFLOW']);
    } finally {
      await server.stop(100);
    }
  });
});

describe('connections', () => {
  it('keeps an idle connection longer than a client or a load balancer does, and says so in Keep-Alive', async () => {
    const gw = buildGateway();
    const { log } = captureLogger();
    const server = await listen(gw.app, { host: '127.0.0.1', port: 0, log });
    try {
      const res = await fetch(`http://127.0.0.1:${server.port}/health`);
      await res.text();
      expect(KEEP_ALIVE_TIMEOUT_MS).toBeGreaterThan(60_000);
      expect(res.headers.get('keep-alive')).toBe(`timeout=${KEEP_ALIVE_TIMEOUT_MS / 1000}`);
    } finally {
      await server.stop(100);
    }
  });
});

describe('free-form objects and nesting', () => {
  it('refuses a free-form object deeper than 8 levels, with more than 1,000 keys or over 16 KB, and takes one at the limits', async () => {
    const gw = chargeGateway();
    const deep = await request(gw.app).post('/v1/charges').set(auth()).send(charge({ appInfo: nested(9), fraudAnalysis: nested(8) }));
    expect(deep.status).toBe(400);
    expect(deep.body.error.details).toEqual([{ field: 'appInfo', message: 'must not be nested more than 8 levels deep' }]);
    const wide = Object.fromEntries(Array.from({ length: 1_001 }, (_, i) => [`k${i}`, i]));
    const manyKeys = await request(gw.app).post('/v1/charges').set(auth()).send(charge({ threeDSecure2: wide }));
    expect(manyKeys.body.error.details).toEqual([{ field: 'threeDSecure2', message: 'must have at most 1000 keys' }]);
    const large = await request(gw.app).post('/v1/charges').set(auth()).send(charge({ paymentFlow: { text: 'x'.repeat(17_000) } }));
    expect(large.body.error.details).toEqual([{ field: 'paymentFlow', message: 'must be at most 16384 bytes as JSON' }]);
    const credentials = await request(gw.app)
      .post('/v1/merchants')
      .set(auth())
      .send({ mcc: '5999', providers: [{ name: 'p', priority: 1, credentials: { type: 'SANDBOX', extra: nested(9) } }] });
    expect(fieldsOf(credentials.body)).toEqual(['providers.0.credentials']);
    const atLimit = await request(gw.app).post('/v1/charges').set(auth()).send(charge({ appInfo: nested(8) }));
    expect(atLimit.status).toBe(404);
    expect(jsonObjectProblem({ list: [[[[[[[[1]]]]]]]] })).toBe('must not be nested more than 8 levels deep');
  });

  it('refuses a body nested past the limit before parsing it, however deep', async () => {
    const gw = chargeGateway();
    for (const body of ['['.repeat(5_000) + ']'.repeat(5_000), '{"a":'.repeat(3_000) + '1' + '}'.repeat(3_000)]) {
      const res = await request(gw.app).post('/v1/charges').set(auth()).set('Content-Type', 'application/json').send(body);
      expect(res.status).toBe(400);
      expect(res.body.error).toEqual({ type: 'bad_request', code: 400, message: `The JSON body is nested more than ${MAX_BODY_DEPTH} levels deep`, key: 'body_too_deep' });
    }
    expect(upstreamCalls(gw.paymentsCalls)).toHaveLength(0);
  });

  it('counts nesting in raw JSON, ignoring brackets inside strings and escaped quotes', () => {
    expect(jsonDepthExceeds(Buffer.from('{"a":[{"b":1}]}'), 3)).toBe(false);
    expect(jsonDepthExceeds(Buffer.from('{"a":[{"b":[1]}]}'), 3)).toBe(true);
    expect(jsonDepthExceeds(Buffer.from(`{"a":"${'['.repeat(100)}"}`), 1)).toBe(false);
    expect(jsonDepthExceeds(Buffer.from(`{"a":"\\"${'{'.repeat(10)}"}`), 1)).toBe(false);
    expect(jsonDepthExceeds(Buffer.from('[[],[],[]]'), 2)).toBe(false);
  });
});
