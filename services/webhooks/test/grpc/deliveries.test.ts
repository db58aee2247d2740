import { randomUUID } from 'node:crypto';
import type { webhooks } from '@platform/contracts';
import type { NatsConnection } from 'nats';
import {
  eventually,
  failureOf,
  outboxOf,
  publishEvent,
  startDeliveryRig,
  verifySignatures,
  webhookRequest,
  type Receiver,
  type RunningWebhooks,
} from '../support/service';

let running: RunningWebhooks;
let receiver: Receiver;
let nc: NatsConnection;
let stop: () => Promise<void>;

beforeAll(async () => {
  ({ running, receiver, nc, stop } = await startDeliveryRig({ env: { WEBHOOKS_ALLOW_PRIVATE_TARGETS: 'true', WEBHOOKS_RETRY_SCHEDULE: '100,100,100' } }));
});

afterAll(async () => {
  await stop();
});

/** Answers each request to `endpoint` with the next status of the list, then 200. */
function answerInTurn(endpoint: string, statuses: number[]): void {
  const path = new URL(endpoint).pathname;
  const previous = receiver.answer;
  let next = 0;
  receiver.answer = (request) => (request.path === path ? (statuses[next++] ?? 200) : previous(request));
}

async function settledDelivery(clientId: string, webhookId: string, status: string): Promise<webhooks.Delivery> {
  return eventually(async () => {
    const [delivery] = (await running.client.listDeliveries({ clientId, webhookId })).items;
    return delivery?.status === status ? delivery : undefined;
  }, `a ${status} delivery`);
}

async function setUp(event = '*') {
  const clientId = randomUUID();
  const endpoint = receiver.endpoint();
  const webhook = await running.client.createWebhook(webhookRequest(clientId, endpoint, { event }));
  return { clientId, endpoint, webhook };
}

describe('delivery attempts and retries', () => {
  it('retries a failing receiver on the schedule with the same event id and body, each attempt signed and recorded', async () => {
    const { clientId, endpoint, webhook } = await setUp();
    answerInTurn(endpoint, [500, 503]);
    const event = await publishEvent(nc, { type: 'payments.charge.pending', clientId, data: { id: randomUUID(), status: 'pending' } });
    const delivery = await settledDelivery(clientId, webhook.id, 'succeeded');
    expect(delivery.attempts.map((a) => a.statusCode)).toEqual([500, 503, 200]);
    expect(delivery.eventId).toBe(event.id);
    const requests = receiver.to(endpoint);
    expect(requests).toHaveLength(3);
    expect(new Set(requests.map((r) => r.headers['webhook-id']))).toEqual(new Set([event.id]));
    expect(new Set(requests.map((r) => r.headers['x-idempotency-key']))).toEqual(new Set([event.id]));
    expect(new Set(requests.map((r) => r.body)).size).toBe(1);
    for (const request of requests) expect(verifySignatures(request, webhook.publicKey)).toEqual({ plug: true, standard: true });
  });

  it('marks the delivery failed when the schedule runs out, and a manual retry sends the same event again', async () => {
    const { clientId, endpoint, webhook } = await setUp();
    answerInTurn(endpoint, [500, 500, 500, 500]);
    const event = await publishEvent(nc, { type: 'payments.charge.failed', clientId, data: { id: randomUUID(), status: 'failed' } });
    const failed = await settledDelivery(clientId, webhook.id, 'failed');
    expect(failed.attempts.map((a) => a.statusCode)).toEqual([500, 500, 500, 500]);
    expect(failed.nextAttemptAt).toBeUndefined();

    const retried = await running.client.retryDelivery({ clientId, webhookId: webhook.id, deliveryId: failed.id });
    expect(retried).toMatchObject({ id: failed.id, status: 'pending', eventId: event.id, nextAttemptAt: expect.any(Date) });
    const succeeded = await settledDelivery(clientId, webhook.id, 'succeeded');
    expect(succeeded.attempts.map((a) => a.statusCode)).toEqual([500, 500, 500, 500, 200]);

    // A delivered event can be sent again too, still with its id.
    await running.client.retryDelivery({ clientId, webhookId: webhook.id, deliveryId: failed.id });
    await eventually(() => (receiver.to(endpoint).length === 6 ? true : undefined), 'the second manual retry');
    expect(new Set(receiver.to(endpoint).map((r) => r.headers['webhook-id']))).toEqual(new Set([event.id]));
    expect((await settledDelivery(clientId, webhook.id, 'succeeded')).attempts).toHaveLength(6);
  });

  it('disables the webhook on 410 Gone, stops, and delivers nothing more to it', async () => {
    const { clientId, endpoint, webhook } = await setUp();
    answerInTurn(endpoint, [410]);
    await publishEvent(nc, { type: 'payments.charge.voided', clientId, data: { id: randomUUID(), status: 'voided' } });
    const failed = await settledDelivery(clientId, webhook.id, 'failed');
    expect(failed.attempts.map((a) => a.statusCode)).toEqual([410]);
    expect((await running.client.getWebhook({ clientId, id: webhook.id })).status).toBe(false);
    const updated = (await outboxOf(running.pool, clientId)).filter((e) => e.subject === 'webhooks.webhook.updated');
    expect(updated.map((e) => e.payload.data.status)).toEqual([false]);

    const error = await failureOf(running.client.retryDelivery({ clientId, webhookId: webhook.id, deliveryId: failed.id }));
    expect(error.kind).toBe('business_rule');
    expect(error.businessCode).toBe('webhook_disabled');

    // Another client's webhook sees its event after this client's next one was handled (the stream is in order).
    const sentinel = await setUp();
    await publishEvent(nc, { type: 'payments.charge.voided', clientId, data: { id: randomUUID(), status: 'voided' } });
    await publishEvent(nc, { type: 'payments.charge.voided', clientId: sentinel.clientId, data: { id: randomUUID() } });
    await eventually(() => (receiver.to(sentinel.endpoint).length > 0 ? true : undefined), 'the sentinel delivery');
    expect(receiver.to(endpoint)).toHaveLength(1);
    expect((await running.client.listDeliveries({ clientId, webhookId: webhook.id })).items).toHaveLength(1);
  });

  it('records a receiver that cannot be reached as an attempt with its error', async () => {
    const clientId = randomUUID();
    // Nothing listens on port 1.
    const endpoint = `http://127.0.0.1:1/hooks/${randomUUID()}`;
    const webhook = await running.client.createWebhook(webhookRequest(clientId, endpoint));
    await publishEvent(nc, { type: 'payments.charge.canceled', clientId, data: { id: randomUUID() } });
    const failed = await settledDelivery(clientId, webhook.id, 'failed');
    expect(failed.attempts).toHaveLength(4);
    for (const attempt of failed.attempts) expect(attempt).toMatchObject({ statusCode: undefined, error: 'connection refused' });
  });
});

describe('ListDeliveries, RetryDelivery', () => {
  it('lists newest first with paging, and answers not found for another client or an unknown id', async () => {
    const { clientId, endpoint, webhook } = await setUp();
    const events = [];
    for (const status of ['pending', 'authorized', 'voided']) {
      events.push(await publishEvent(nc, { type: `payments.charge.${status}`, clientId, data: { id: randomUUID(), status } }));
    }
    await eventually(() => (receiver.to(endpoint).length === 3 ? true : undefined), 'three deliveries');
    const page = await running.client.listDeliveries({ clientId, webhookId: webhook.id, page: { page: 1, limit: 2, sort: 'DESC' } });
    expect(page.items.map((d) => d.eventId)).toEqual([events[2]!.id, events[1]!.id]);
    expect(page.items.map((d) => d.event)).toEqual(['voided', 'authorized']);
    expect(page.meta).toEqual({ itemCount: 2, totalItems: 3, itemsPerPage: 2, totalPages: 2, currentPage: 1 });

    const stranger = randomUUID();
    expect((await failureOf(running.client.listDeliveries({ clientId: stranger, webhookId: webhook.id }))).kind).toBe('not_found');
    const deliveryId = page.items[0]!.id;
    expect((await failureOf(running.client.retryDelivery({ clientId: stranger, webhookId: webhook.id, deliveryId }))).kind).toBe('not_found');
    expect((await failureOf(running.client.retryDelivery({ clientId, webhookId: webhook.id, deliveryId: randomUUID() }))).kind).toBe('not_found');
    const other = await setUp('authorized');
    expect((await failureOf(running.client.retryDelivery({ clientId: other.clientId, webhookId: other.webhook.id, deliveryId }))).kind).toBe('not_found');
  });

  it('replays a retry for the same idempotency key instead of sending again', async () => {
    const { clientId, endpoint, webhook } = await setUp();
    await publishEvent(nc, { type: 'payments.charge.authorized', clientId, data: { id: randomUUID() } });
    const delivered = await settledDelivery(clientId, webhook.id, 'succeeded');
    const idempotencyKey = randomUUID();
    const first = await running.client.retryDelivery({ clientId, webhookId: webhook.id, deliveryId: delivered.id }, { idempotencyKey });
    const replay = await running.client.retryDelivery({ clientId, webhookId: webhook.id, deliveryId: delivered.id }, { idempotencyKey });
    expect(replay).toEqual(first);
    await eventually(async () => ((await settledDelivery(clientId, webhook.id, 'succeeded')).attempts.length === 2 ? true : undefined), 'the retry');
    const marker = await publishEvent(nc, { type: 'payments.charge.voided', clientId, data: { id: randomUUID() } });
    await eventually(() => (receiver.to(endpoint).some((r) => r.headers['webhook-id'] === marker.id) ? true : undefined), 'the marker');
    expect(receiver.to(endpoint)).toHaveLength(3);
  });
});
