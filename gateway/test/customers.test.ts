import type { customers } from '@platform/contracts';
import request from 'supertest';
import { auth, buildGateway, CLIENT_ID, sampleCustomer, upstreamCalls } from './helpers';

const meta = (over: Partial<Record<string, number>> = {}) => ({ itemCount: 1, totalItems: 1, itemsPerPage: 10, totalPages: 1, currentPage: 1, ...over });

const body = {
  name: 'Ana Souza',
  email: 'ana@example.com',
  phoneNumber: '+55 11 99999-0000',
  document: { type: 'cpf', number: '12345678909', country: 'BR' },
  address: { city: 'São Paulo', zipCode: '01310100' },
};

describe('/v1/customers', () => {
  it('POST maps the JSON body to CreateCustomerRequest, strips unknown fields, and answers 201 with camelCase JSON and ISO dates', async () => {
    const gw = buildGateway({ customers: { createCustomer: async () => sampleCustomer() } });
    const res = await request(gw.app)
      .post('/v1/customers')
      .set(auth())
      .send({ ...body, isAdmin: true, document: { ...body.document, extra: 'x' }, address: { ...body.address, floor: 3 } });
    expect(res.status).toBe(201);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body).toEqual({
      id: '0d6c9a53-0b3e-4d36-9a39-0f2a8c5b3e11',
      clientId: CLIENT_ID,
      name: 'Ana Souza',
      email: 'ana@example.com',
      phoneNumber: '+55 11 99999-0000',
      document: { type: 'cpf', number: '12345678909', country: 'BR' },
      address: { country: 'BR', state: null, city: 'São Paulo', district: null, zipCode: '01310100', street: null, streetNumber: null, complement: null },
      createdAt: '2026-03-04T05:06:07.089Z',
      updatedAt: '2026-03-05T05:06:07.001Z',
    });
    const [call] = upstreamCalls(gw.customersCalls);
    expect(call!.method).toBe('createCustomer');
    const expected: customers.CreateCustomerRequest = {
      clientId: CLIENT_ID,
      name: 'Ana Souza',
      email: 'ana@example.com',
      phoneNumber: '+55 11 99999-0000',
      document: { type: 'cpf', number: '12345678909', country: 'BR' },
      address: { city: 'São Paulo', zipCode: '01310100' },
      force: false,
    };
    expect(call!.request).toEqual(expected);
  });

  it('POST forwards X-Idempotency-Key and the request id as call metadata, and ?force=true', async () => {
    const gw = buildGateway({ customers: { createCustomer: async () => sampleCustomer() } });
    const res = await request(gw.app)
      .post('/v1/customers?force=true')
      .set(auth())
      .set('X-Idempotency-Key', 'idem-123')
      .set('X-Request-Id', 'req-abc.1')
      .send(body);
    expect(res.status).toBe(201);
    expect(res.headers['x-request-id']).toBe('req-abc.1');
    const [call] = upstreamCalls(gw.customersCalls);
    expect(call!.meta).toEqual({ requestId: 'req-abc.1', idempotencyKey: 'idem-123' });
    expect(call!.request.force).toBe(true);
    const bad = await request(gw.app).post('/v1/customers?force=yes').set(auth()).send(body);
    expect(bad.status).toBe(400);
    expect(bad.body.error.details).toEqual([{ field: 'force', message: 'must be true or false' }]);
  });

  it('makes a request id when the caller gives none or an unsafe one, and passes it on', async () => {
    const gw = buildGateway({ customers: { getCustomer: async () => sampleCustomer() } });
    const none = await request(gw.app).get('/v1/customers/abc').set(auth());
    expect(none.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const unsafe = await request(gw.app).get('/v1/customers/abc').set(auth()).set('X-Request-Id', 'bad id<script>');
    expect(unsafe.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const long = await request(gw.app).get('/v1/customers/abc').set(auth()).set('X-Request-Id', 'a'.repeat(129));
    expect(long.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const calls = upstreamCalls(gw.customersCalls);
    expect(calls.map((c) => c.meta?.requestId)).toEqual([none.headers['x-request-id'], unsafe.headers['x-request-id'], long.headers['x-request-id']]);
    expect(calls[0]!.meta?.idempotencyKey).toBeUndefined();
  });

  it('GET list applies pagination defaults and answers the list envelope', async () => {
    const gw = buildGateway({ customers: { listCustomers: async () => ({ items: [sampleCustomer()], meta: meta() }) } });
    const res = await request(gw.app).get('/v1/customers').set(auth());
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ items: [expect.objectContaining({ id: sampleCustomer().id, createdAt: '2026-03-04T05:06:07.089Z' })], meta: meta() });
    expect(upstreamCalls(gw.customersCalls)[0]!.request).toEqual({ clientId: CLIENT_ID, page: { page: 1, limit: 10, sort: 'DESC' } });
  });

  it('GET list passes page, limit, sort (or order, any case) and the filters', async () => {
    const gw = buildGateway({ customers: { listCustomers: async () => ({ items: [], meta: meta({ itemCount: 0 }) }) } });
    await request(gw.app).get('/v1/customers?page=3&limit=100&sort=asc&document.type=cpf&document.number=123&email=a@b.co&id=x').set(auth());
    await request(gw.app).get('/v1/customers?order=ASC').set(auth());
    await request(gw.app).get('/v1/customers?sort=Desc').set(auth());
    const requests = upstreamCalls(gw.customersCalls).map((c) => c.request);
    expect(requests[0]).toEqual({
      clientId: CLIENT_ID,
      page: { page: 3, limit: 100, sort: 'ASC' },
      id: 'x',
      documentType: 'cpf',
      documentNumber: '123',
      email: 'a@b.co',
    });
    expect(requests[1]!.page).toEqual({ page: 1, limit: 10, sort: 'ASC' });
    expect(requests[2]!.page).toEqual({ page: 1, limit: 10, sort: 'DESC' });
  });

  it('GET list refuses limits out of range with details', async () => {
    const gw = buildGateway();
    for (const [query, message] of [
      ['limit=101', 'must be at most 100'],
      ['limit=0', 'must be at least 1'],
      ['page=0', 'must be at least 1'],
      ['page=1.5', 'must be a whole number'],
      ['order=up', 'must be asc or desc'],
    ] as const) {
      const res = await request(gw.app).get(`/v1/customers?${query}`).set(auth());
      expect(res.status).toBe(400);
      expect(res.body.error.details).toEqual([{ field: query.split('=')[0], message }]);
    }
    expect(upstreamCalls(gw.customersCalls)).toHaveLength(0);
  });

  it('GET by id, PATCH and DELETE pass the path id and answer the customer', async () => {
    const gw = buildGateway({
      customers: {
        getCustomer: async () => sampleCustomer(),
        updateCustomer: async () => sampleCustomer({ name: 'Ana Maria', address: undefined, phoneNumber: '' }),
        deleteCustomer: async () => sampleCustomer(),
      },
    });
    const id = sampleCustomer().id;
    expect((await request(gw.app).get(`/v1/customers/${id}`).set(auth())).body.id).toBe(id);
    const patched = await request(gw.app)
      .patch(`/v1/customers/${id}`)
      .set(auth())
      .send({ name: 'Ana Maria', email: 'ignored@example.com', address: { street: 'Av. Paulista', complement: null, district: '' } });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ name: 'Ana Maria', address: null, phoneNumber: null });
    const deleted = await request(gw.app).delete(`/v1/customers/${id}`).set(auth());
    expect(deleted.status).toBe(200);
    expect(deleted.body.id).toBe(id);
    const calls = upstreamCalls(gw.customersCalls);
    expect(calls.map((c) => c.method)).toEqual(['getCustomer', 'updateCustomer', 'deleteCustomer']);
    expect(calls[0]!.request).toEqual({ clientId: CLIENT_ID, id });
    expect(calls[1]!.request).toEqual({ clientId: CLIENT_ID, id, name: 'Ana Maria', address: { street: 'Av. Paulista', complement: '', district: '' } });
    expect(calls[2]!.request).toEqual({ clientId: CLIENT_ID, id });
  });
});
