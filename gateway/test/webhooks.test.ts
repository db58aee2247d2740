import type { webhooks } from '@platform/contracts';
import { AppError } from '@platform/kit';
import request from 'supertest';
import { auth, buildGateway, CLIENT_ID, CREATED_AT, UPDATED_AT, upstreamCalls } from './helpers';

const WEBHOOK_ID = '6f1d3c2a-8b4e-4f6a-9c1d-2e3f4a5b6c7d';
const DELIVERY_ID = '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d';
const EVENT_ID = '1f6e1a52-9f55-4c4e-8a53-4d2c43a4f0c1';
const PUBLIC_KEY = '-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VwAyEAGb9ECWmEzf6FQbrBZ9w7lshQhqowtrbLDFw4rXAxZuE=\n-----END PUBLIC KEY-----\n';
const meta = { itemCount: 1, totalItems: 1, itemsPerPage: 10, totalPages: 1, currentPage: 1 };

function sampleWebhook(overrides: Partial<webhooks.Webhook> = {}): webhooks.Webhook {
  return {
    id: WEBHOOK_ID,
    clientId: CLIENT_ID,
    event: '*',
    endpoint: 'https://store.example.com/webhooks',
    version: 1.1,
    status: true,
    publicKey: PUBLIC_KEY,
    createdAt: CREATED_AT,
    updatedAt: UPDATED_AT,
    ...overrides,
  };
}

function sampleDelivery(overrides: Partial<webhooks.Delivery> = {}): webhooks.Delivery {
  return {
    id: DELIVERY_ID,
    webhookId: WEBHOOK_ID,
    eventId: EVENT_ID,
    event: 'authorized',
    status: 'pending',
    attempts: [
      { attemptedAt: CREATED_AT, statusCode: 500, durationMs: 42, error: undefined },
      { attemptedAt: UPDATED_AT, statusCode: undefined, durationMs: 15000, error: 'no answer within 15000 ms' },
    ],
    nextAttemptAt: new Date('2026-03-05T05:11:07.001Z'),
    createdAt: CREATED_AT,
    updatedAt: UPDATED_AT,
    ...overrides,
  };
}

const webhookJson = {
  id: WEBHOOK_ID,
  clientId: CLIENT_ID,
  event: '*',
  endpoint: 'https://store.example.com/webhooks',
  version: 1.1,
  status: true,
  publicKey: PUBLIC_KEY,
  createdAt: '2026-03-04T05:06:07.089Z',
  updatedAt: '2026-03-05T05:06:07.001Z',
};

describe('/v1/webhooks', () => {
  it('POST maps the body to CreateWebhookRequest, forwards the idempotency key, and answers 201 with the public key', async () => {
    const gw = buildGateway({ webhooks: { createWebhook: async () => sampleWebhook() } });
    const res = await request(gw.app)
      .post('/v1/webhooks')
      .set(auth())
      .set('X-Idempotency-Key', 'hook-1')
      .send({ event: '*', endpoint: 'https://store.example.com/webhooks', version: 1.1, status: true, clientId: 'someone-else', secret: 'x' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual(webhookJson);
    const [call] = upstreamCalls(gw.webhooksCalls);
    expect(call!.method).toBe('createWebhook');
    const expected: webhooks.CreateWebhookRequest = {
      clientId: CLIENT_ID,
      event: '*',
      endpoint: 'https://store.example.com/webhooks',
      version: 1.1,
      status: true,
    };
    expect(call!.request).toEqual(expected);
    expect(call!.meta).toMatchObject({ idempotencyKey: 'hook-1' });
  });

  it('POST leaves version and status to the service when absent, and reads a version sent as text', async () => {
    const gw = buildGateway({ webhooks: { createWebhook: async () => sampleWebhook() } });
    await request(gw.app).post('/v1/webhooks').set(auth()).send({ event: 'authorized', endpoint: 'https://a.example.com/' });
    await request(gw.app).post('/v1/webhooks').set(auth()).send({ event: 'authorized', endpoint: 'https://a.example.com/', version: '1.1' });
    const [first, second] = upstreamCalls(gw.webhooksCalls).map((c) => c.request);
    expect(first).toEqual({ clientId: CLIENT_ID, event: 'authorized', endpoint: 'https://a.example.com/', version: undefined, status: undefined });
    expect(second!.version).toBe(1.1);
  });

  it('POST refuses a body of the wrong shape with a detail per field, without calling the service', async () => {
    const gw = buildGateway();
    const res = await request(gw.app).post('/v1/webhooks').set(auth()).send({ endpoint: 42, version: 'one', status: 'yes' });
    expect(res.status).toBe(400);
    expect(res.body.error.details).toEqual([
      { field: 'event', message: 'is required' },
      { field: 'endpoint', message: 'must be a string' },
      { field: 'version', message: 'must be a number' },
      { field: 'status', message: 'must be true or false' },
    ]);
    expect(upstreamCalls(gw.webhooksCalls)).toHaveLength(0);
  });

  it('passes the service errors through: validation details, 409 webhook_endpoint_exists and webhook_event_exists', async () => {
    const gw = buildGateway({
      webhooks: {
        createWebhook: async (req: webhooks.CreateWebhookRequest) => {
          if (req.event === 'bogus') throw new AppError('validation', 'Invalid webhook', { details: [{ field: 'event', message: 'must be "*" or an event of the catalogue (docs/events.md)' }] });
          if (req.event === 'authorized') throw new AppError('conflict', 'A webhook for this event already exists', { key: 'webhook_event_exists' });
          throw new AppError('conflict', 'A webhook with this endpoint already exists', { key: 'webhook_endpoint_exists' });
        },
      },
    });
    const send = (event: string) => request(gw.app).post('/v1/webhooks').set(auth()).send({ event, endpoint: 'https://a.example.com/' });
    const invalid = await send('bogus');
    expect(invalid.status).toBe(400);
    expect(invalid.body.error.details).toEqual([{ field: 'event', message: 'must be "*" or an event of the catalogue (docs/events.md)' }]);
    const event = await send('authorized');
    expect(event.status).toBe(409);
    expect(event.body.error).toMatchObject({ code: 409, key: 'webhook_event_exists' });
    const endpoint = await send('*');
    expect(endpoint.status).toBe(409);
    expect(endpoint.body.error).toMatchObject({ code: 409, key: 'webhook_endpoint_exists', message: 'A webhook with this endpoint already exists' });
  });

  it('GET list pages with the defaults and answers the list envelope', async () => {
    const gw = buildGateway({ webhooks: { listWebhooks: async () => ({ items: [sampleWebhook()], meta }) } });
    const res = await request(gw.app).get('/v1/webhooks?page=2&limit=5&sort=asc').set(auth());
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ items: [webhookJson], meta });
    expect(upstreamCalls(gw.webhooksCalls)[0]!.request).toEqual({ clientId: CLIENT_ID, page: { page: 2, limit: 5, sort: 'ASC' } });
  });

  it('GET, PATCH and DELETE by id pass the path id; PATCH answers 200 and DELETE 204', async () => {
    const gw = buildGateway({
      webhooks: {
        getWebhook: async () => sampleWebhook(),
        updateWebhook: async () => sampleWebhook({ status: false, version: 2 }),
        deleteWebhook: async () => ({}),
      },
    });
    expect((await request(gw.app).get(`/v1/webhooks/${WEBHOOK_ID}`).set(auth())).body).toEqual(webhookJson);
    const patched = await request(gw.app).patch(`/v1/webhooks/${WEBHOOK_ID}`).set(auth()).send({ status: false, version: 2, publicKey: 'mine' });
    expect(patched.status).toBe(200);
    expect(patched.body).toEqual({ ...webhookJson, status: false, version: 2 });
    const deleted = await request(gw.app).delete(`/v1/webhooks/${WEBHOOK_ID}`).set(auth());
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');
    const calls = upstreamCalls(gw.webhooksCalls);
    expect(calls.map((c) => c.method)).toEqual(['getWebhook', 'updateWebhook', 'deleteWebhook']);
    expect(calls[0]!.request).toEqual({ clientId: CLIENT_ID, id: WEBHOOK_ID });
    expect(calls[1]!.request).toEqual({ clientId: CLIENT_ID, id: WEBHOOK_ID, event: undefined, endpoint: undefined, version: 2, status: false });
    expect(calls[2]!.request).toEqual({ clientId: CLIENT_ID, id: WEBHOOK_ID });
  });

  it('answers 404 for a webhook of another client, as the service says', async () => {
    const gw = buildGateway({ webhooks: { getWebhook: async () => { throw new AppError('not_found', `Webhook ${WEBHOOK_ID} not found`, { key: 'not_found' }); } } });
    const res = await request(gw.app).get(`/v1/webhooks/${WEBHOOK_ID}`).set(auth());
    expect(res.status).toBe(404);
    expect(res.body.error).toMatchObject({ code: 404, key: 'not_found' });
  });

  it('GET deliveries answers the log with every attempt, nulls for what is absent', async () => {
    const gw = buildGateway({
      webhooks: { listDeliveries: async () => ({ items: [sampleDelivery(), sampleDelivery({ status: 'succeeded', nextAttemptAt: undefined, attempts: [] })], meta }) },
    });
    const res = await request(gw.app).get(`/v1/webhooks/${WEBHOOK_ID}/deliveries`).set(auth());
    expect(res.status).toBe(200);
    expect(res.body.items).toEqual([
      {
        id: DELIVERY_ID,
        webhookId: WEBHOOK_ID,
        eventId: EVENT_ID,
        event: 'authorized',
        status: 'pending',
        attempts: [
          { attemptedAt: '2026-03-04T05:06:07.089Z', statusCode: 500, durationMs: 42, error: null },
          { attemptedAt: '2026-03-05T05:06:07.001Z', statusCode: null, durationMs: 15000, error: 'no answer within 15000 ms' },
        ],
        nextAttemptAt: '2026-03-05T05:11:07.001Z',
        createdAt: '2026-03-04T05:06:07.089Z',
        updatedAt: '2026-03-05T05:06:07.001Z',
      },
      expect.objectContaining({ status: 'succeeded', attempts: [], nextAttemptAt: null }),
    ]);
    expect(upstreamCalls(gw.webhooksCalls)[0]!.request).toEqual({ clientId: CLIENT_ID, webhookId: WEBHOOK_ID, page: { page: 1, limit: 10, sort: 'DESC' } });
  });

  it('POST retry answers 201 with the delivery, and 422 webhook_disabled from the service', async () => {
    let disabled = false;
    const gw = buildGateway({
      webhooks: {
        retryDelivery: async () => {
          if (disabled) throw new AppError('business_rule', 'The webhook is disabled', { businessCode: 'webhook_disabled' });
          return sampleDelivery();
        },
      },
    });
    const res = await request(gw.app).post(`/v1/webhooks/${WEBHOOK_ID}/deliveries/${DELIVERY_ID}/retry`).set(auth()).set('X-Idempotency-Key', 'retry-1');
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ id: DELIVERY_ID, eventId: EVENT_ID, status: 'pending' });
    const [call] = upstreamCalls(gw.webhooksCalls);
    expect(call!.request).toEqual({ clientId: CLIENT_ID, webhookId: WEBHOOK_ID, deliveryId: DELIVERY_ID });
    expect(call!.meta).toMatchObject({ idempotencyKey: 'retry-1' });
    disabled = true;
    const refused = await request(gw.app).post(`/v1/webhooks/${WEBHOOK_ID}/deliveries/${DELIVERY_ID}/retry`).set(auth());
    expect(refused.status).toBe(422);
    expect(refused.body.error).toMatchObject({ code: 422, businessCode: 'webhook_disabled' });
  });

  it('lets a public key scoped to webhooks in, and refuses one scoped elsewhere', async () => {
    const gw = buildGateway({ webhooks: { listWebhooks: async () => ({ items: [], meta: { ...meta, itemCount: 0, totalItems: 0, totalPages: 0 } }) } });
    expect((await request(gw.app).get('/v1/webhooks').set(auth('pk_webhooks'))).status).toBe(200);
    const refused = await request(gw.app).get('/v1/webhooks').set(auth('pk_customers'));
    expect(refused.status).toBe(403);
    expect(refused.body.error.key).toBe('scope_not_allowed');
    expect((await request(gw.app).get('/v1/webhooks')).status).toBe(401);
  });
});
