import { AppError, ERROR_KINDS, type ErrorKind } from '@platform/kit';
import request from 'supertest';
import { httpErrorOf } from '../src/http/errors';
import { auth, buildGateway, sampleCustomer, upstreamCalls } from './helpers';

const validCustomer = { name: 'Ana', email: 'ana@example.com', phoneNumber: '+55 11 99999-0000', document: { type: 'cpf', number: '12345678909' } };

describe('the error envelope', () => {
  it('answers an unknown route with 404 route_not_found, before any authentication', async () => {
    const gw = buildGateway();
    for (const path of ['/v1/nope', '/nothing/here', '/v1/customers/1/cards/2']) {
      const res = await request(gw.app).get(path);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: { type: 'invalid_request_error', code: 404, message: expect.any(String), key: 'route_not_found' } });
    }
    expect(gw.settingsCalls).toHaveLength(0);
  });

  it('answers a wrong method with 405 and the allowed methods', async () => {
    const gw = buildGateway();
    const res = await request(gw.app).put('/v1/customers').set(auth()).send({});
    expect(res.status).toBe(405);
    expect(res.headers.allow?.split(', ').sort()).toEqual(['GET', 'HEAD', 'POST']);
    expect(res.body.error).toMatchObject({ type: 'invalid_request_error', code: 405, key: 'method_not_allowed' });
    const byId = await request(gw.app).post('/v1/customers/abc').set(auth());
    expect(byId.status).toBe(405);
    expect(byId.headers.allow?.split(', ').sort()).toEqual(['DELETE', 'GET', 'HEAD', 'PATCH']);
  });

  it('answers malformed JSON with 400 bad_request', async () => {
    const gw = buildGateway();
    const res = await request(gw.app).post('/v1/customers').set(auth()).set('Content-Type', 'application/json').send('{"name": ');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: { type: 'bad_request', code: 400, message: 'Malformed JSON body', key: 'malformed_json' } });
    expect(upstreamCalls(gw.customersCalls)).toHaveLength(0);
  });

  it('answers a body over BODY_LIMIT with 413 payload_too_large', async () => {
    const gw = buildGateway({ config: { BODY_LIMIT: '1kb' } });
    const res = await request(gw.app)
      .post('/v1/customers')
      .set(auth())
      .send({ ...validCustomer, name: 'x'.repeat(2048) });
    expect(res.status).toBe(413);
    expect(res.body.error).toMatchObject({ type: 'invalid_request_error', code: 413, key: 'payload_too_large' });
  });

  it('answers a content type the route cannot take with 415 unsupported_media_type', async () => {
    const gw = buildGateway();
    const text = await request(gw.app).post('/v1/customers').set(auth()).set('Content-Type', 'text/plain').send('name=Ana');
    expect(text.status).toBe(415);
    expect(text.body.error).toMatchObject({ type: 'invalid_request_error', code: 415, key: 'unsupported_media_type' });
    const form = await request(gw.app).post('/v1/customers').set(auth()).field('name', 'Ana');
    expect(form.status).toBe(415);
    expect(upstreamCalls(gw.customersCalls)).toHaveLength(0);
  });

  it('answers an invalid body with 400 and one detail per bad field, with dotted paths', async () => {
    const gw = buildGateway();
    const res = await request(gw.app)
      .post('/v1/customers')
      .set(auth())
      .send({ name: '', email: 'not-an-email', document: { type: 'cpf' }, phoneNumber: 12, address: { city: 5 } });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ type: 'bad_request', code: 400, message: 'Invalid request' });
    const fields = (res.body.error.details as Array<{ field: string; message: string }>).map((d) => d.field).sort();
    expect(fields).toEqual(['address.city', 'document.number', 'email', 'name', 'phoneNumber']);
    expect(res.body.error.details).toContainEqual({ field: 'document.number', message: 'is required' });
    expect(upstreamCalls(gw.customersCalls)).toHaveLength(0);
  });

  it('names every required field when the body is missing, and the body itself when it is not an object', async () => {
    const gw = buildGateway();
    const missing = await request(gw.app).post('/v1/customers').set(auth());
    expect(missing.status).toBe(400);
    expect(missing.body.error.details.map((d: { field: string }) => d.field).sort()).toEqual(['document', 'email', 'name', 'phoneNumber']);
    const array = await request(gw.app).post('/v1/customers').set(auth()).send([validCustomer]);
    expect(array.status).toBe(400);
    expect(array.body.error.details).toEqual([{ field: 'body', message: expect.any(String) }]);
  });

  it('validates query, params and headers with details too', async () => {
    const gw = buildGateway();
    const query = await request(gw.app).get('/v1/customers?page=0&limit=abc&sort=sideways').set(auth());
    expect(query.status).toBe(400);
    expect(query.body.error.details.map((d: { field: string }) => d.field).sort()).toEqual(['limit', 'page', 'sort']);
    const params = await request(gw.app).get(`/v1/customers/${'x'.repeat(201)}`).set(auth());
    expect(params.status).toBe(400);
    expect(params.body.error.details.map((d: { field: string }) => d.field)).toEqual(['id']);
    const idem = await request(gw.app).post('/v1/customers').set(auth()).set('X-Idempotency-Key', 'k'.repeat(256)).send(validCustomer);
    expect(idem.status).toBe(400);
    expect(idem.body.error.details).toEqual([{ field: 'x-idempotency-key', message: 'must be at most 255 characters' }]);
    expect(upstreamCalls(gw.customersCalls)).toHaveLength(0);
  });

  const expected: Record<ErrorKind, { status: number; type: string }> = {
    validation: { status: 400, type: 'bad_request' },
    unauthenticated: { status: 401, type: 'invalid_request_error' },
    forbidden: { status: 403, type: 'invalid_request_error' },
    not_found: { status: 404, type: 'invalid_request_error' },
    conflict: { status: 409, type: 'invalid_request_error' },
    business_rule: { status: 422, type: 'invalid_request_error' },
    card_declined: { status: 402, type: 'card_declined' },
    unavailable: { status: 503, type: 'api_error' },
    internal: { status: 500, type: 'api_error' },
  };

  it.each(ERROR_KINDS.map((kind) => [kind]))('maps an upstream %s error to its status and type', async (kind) => {
    const gw = buildGateway({
      customers: {
        getCustomer: async () => {
          throw new AppError(kind, `upstream said ${kind}`, {
            businessCode: kind === 'business_rule' ? 'customer_locked' : undefined,
            declinedCode: kind === 'card_declined' ? 'insufficient_funds' : undefined,
            details: kind === 'validation' ? [{ field: 'document.number', message: 'must be 11 digits for cpf' }] : undefined,
            key: kind === 'conflict' ? 'customer_email_taken' : undefined,
            errorId: kind === 'internal' ? 'svc-error-1' : undefined,
          });
        },
      },
    });
    const res = await request(gw.app).get('/v1/customers/abc').set(auth());
    const { status, type } = expected[kind];
    expect(res.status).toBe(status);
    expect(httpErrorOf(kind)).toEqual({ status, type });
    expect(res.body.error).toMatchObject({ type, code: status });
    switch (kind) {
      case 'business_rule':
        expect(res.body.error).toMatchObject({ businessCode: 'customer_locked', key: 'customer_locked' });
        break;
      case 'card_declined':
        expect(res.body.error).toMatchObject({ declinedCode: 'insufficient_funds', declined_code: 'insufficient_funds' });
        break;
      case 'validation':
        expect(res.body.error.details).toEqual([{ field: 'document.number', message: 'must be 11 digits for cpf' }]);
        break;
      case 'conflict':
        expect(res.body.error.key).toBe('customer_email_taken');
        break;
      case 'internal':
        expect(res.body.error.message).toBe('Internal error, logId=svc-error-1');
        break;
      default:
        expect(res.body.error.message).toBe(`upstream said ${kind}`);
    }
    if (kind !== 'business_rule') expect(res.body.error.businessCode).toBeUndefined();
    if (kind !== 'card_declined') expect(res.body.error.declinedCode ?? res.body.error.declined_code).toBeUndefined();
    if (kind !== 'validation') expect(res.body.error.details).toBeUndefined();
  });

  it('turns an unexpected error into a 500 with a logId that is in the error log line, and no stack or raw message', async () => {
    const gw = buildGateway({
      customers: {
        getCustomer: async () => {
          throw new Error('relation "customers" does not exist at /srv/app/store.ts:42');
        },
      },
    });
    const res = await request(gw.app).get('/v1/customers/abc').set(auth()).set('X-Request-Id', 'req-500');
    expect(res.status).toBe(500);
    expect(Object.keys(res.body.error).sort()).toEqual(['code', 'message', 'type']);
    expect(res.body.error).toMatchObject({ type: 'api_error', code: 500 });
    const match = /^Internal error, logId=([0-9a-f-]{36})$/.exec(res.body.error.message as string);
    expect(match).not.toBeNull();
    expect(JSON.stringify(res.body)).not.toContain('relation');
    const errorLine = gw.lines.find((l) => l.errorId === match![1]);
    expect(errorLine).toMatchObject({ level: 50, requestId: 'req-500', err: { message: expect.stringContaining('relation "customers"') } });
  });

  it('keeps the envelope when the service answers a response the gateway cannot map', async () => {
    const gw = buildGateway({ customers: { getCustomer: async () => sampleCustomer({ createdAt: undefined }) } });
    const res = await request(gw.app).get('/v1/customers/abc').set(auth());
    expect(res.status).toBe(500);
    expect(res.body.error.message).toMatch(/^Internal error, logId=/);
  });
});
