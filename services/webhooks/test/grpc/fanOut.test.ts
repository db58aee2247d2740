import { randomUUID } from 'node:crypto';
import type { NatsConnection } from 'nats';
import {
  eventually,
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

const charge = (clientId: string, status: string) => ({ id: randomUUID(), clientId, status, amount: 10_000, currency: 'BRL' });

describe('fan-out of domain events to webhooks', () => {
  it('delivers an event published to JetStream to a "*" webhook, signed, with the event id as webhook-id', async () => {
    const clientId = randomUUID();
    const endpoint = receiver.endpoint();
    const webhook = await running.client.createWebhook(webhookRequest(clientId, endpoint, { event: '*', version: 1.1 }));
    const data = charge(clientId, 'authorized');
    const event = await publishEvent(nc, { type: 'payments.charge.authorized', clientId, data });

    const [request] = await eventually(() => (receiver.to(endpoint).length > 0 ? receiver.to(endpoint) : undefined), 'the delivery');
    expect(JSON.parse(request!.body)).toEqual({ id: event.id, createdAt: event.occurredAt, object: 'transaction', event: 'authorized', apiVersion: 1.1, data });
    expect(request!.headers).toMatchObject({
      'content-type': 'application/json',
      'x-idempotency-key': event.id,
      'webhook-id': event.id,
      'x-plug-date': expect.stringMatching(/^\d{13}$/),
      'webhook-timestamp': expect.stringMatching(/^\d{10}$/),
    });
    expect(verifySignatures(request!, webhook.publicKey)).toEqual({ plug: true, standard: true });

    const log = await eventually(async () => {
      const page = await running.client.listDeliveries({ clientId, webhookId: webhook.id });
      return page.items[0]?.status === 'succeeded' ? page : undefined;
    }, 'the delivery to be recorded');
    expect(log.items).toEqual([
      {
        id: expect.any(String),
        webhookId: webhook.id,
        eventId: event.id,
        event: 'authorized',
        status: 'succeeded',
        attempts: [{ attemptedAt: expect.any(Date), statusCode: 200, durationMs: expect.any(Number), error: undefined }],
        nextAttemptAt: undefined,
        createdAt: expect.any(Date),
        updatedAt: expect.any(Date),
      },
    ]);
  });

  it('delivers to a webhook only the event it registered for', async () => {
    const clientId = randomUUID();
    const endpoint = receiver.endpoint();
    await running.client.createWebhook(webhookRequest(clientId, endpoint, { event: 'customer.created' }));
    const skipped = await publishEvent(nc, { type: 'payments.charge.pending', clientId, data: charge(clientId, 'pending') });
    const wanted = await publishEvent(nc, { type: 'customers.customer.created', clientId, data: { id: randomUUID(), clientId, name: 'Ana' } });
    const [request] = await eventually(() => (receiver.to(endpoint).length > 0 ? receiver.to(endpoint) : undefined), 'the delivery');
    expect(request!.headers['webhook-id']).toBe(wanted.id);
    expect(JSON.parse(request!.body)).toMatchObject({ object: 'customer', event: 'customer.created', apiVersion: 1.1 });
    // The consumer takes events in stream order: the skipped one was handled before the wanted one arrived.
    expect(receiver.to(endpoint).map((r) => r.headers['webhook-id'])).toEqual([wanted.id]);
    expect(receiver.requests.some((r) => r.headers['webhook-id'] === skipped.id)).toBe(false);
  });

  it("never delivers one client's events to another client's webhook", async () => {
    const alice = randomUUID();
    const bob = randomUUID();
    const aliceEndpoint = receiver.endpoint();
    const bobEndpoint = receiver.endpoint();
    const aliceHook = await running.client.createWebhook(webhookRequest(alice, aliceEndpoint));
    await running.client.createWebhook(webhookRequest(bob, bobEndpoint));
    const bobEvent = await publishEvent(nc, { type: 'payments.charge.authorized', clientId: bob, data: charge(bob, 'authorized') });
    const aliceEvent = await publishEvent(nc, { type: 'payments.charge.authorized', clientId: alice, data: charge(alice, 'authorized') });
    await eventually(() => (receiver.to(aliceEndpoint).length > 0 && receiver.to(bobEndpoint).length > 0 ? true : undefined), 'both deliveries');
    expect(receiver.to(aliceEndpoint).map((r) => r.headers['webhook-id'])).toEqual([aliceEvent.id]);
    expect(receiver.to(bobEndpoint).map((r) => r.headers['webhook-id'])).toEqual([bobEvent.id]);
    expect((await running.client.listDeliveries({ clientId: alice, webhookId: aliceHook.id })).items.map((d) => d.eventId)).toEqual([aliceEvent.id]);
  });

  it("never delivers the webhooks context's own events, nor events from before the webhook existed", async () => {
    const clientId = randomUUID();
    const earlier = await publishEvent(nc, { type: 'payments.charge.pending', clientId, data: charge(clientId, 'pending') });
    const endpoint = receiver.endpoint();
    const webhook = await running.client.createWebhook(webhookRequest(clientId, endpoint));
    await running.client.updateWebhook({ clientId, id: webhook.id, version: 2 });
    await eventually(async () => ((await outboxOf(running.pool, clientId)).every((e) => e.published) ? true : undefined), 'the webhook events to be relayed');
    const event = await publishEvent(nc, { type: 'payments.charge.voided', clientId, data: charge(clientId, 'voided') });
    await eventually(() => (receiver.to(endpoint).length > 0 ? true : undefined), 'the delivery');
    expect(receiver.to(endpoint).map((r) => r.headers['webhook-id'])).toEqual([event.id]);
    expect(JSON.parse(receiver.to(endpoint)[0]!.body).apiVersion).toBe(2);
    expect(receiver.requests.some((r) => r.headers['webhook-id'] === earlier.id)).toBe(false);
  });

  it('delivers an event once even when it is published twice', async () => {
    const clientId = randomUUID();
    const endpoint = receiver.endpoint();
    await running.client.createWebhook(webhookRequest(clientId, endpoint));
    const first = await publishEvent(nc, { type: 'payments.card.created', clientId, data: { id: randomUUID() } });
    // Past JetStream's duplicate window, a second copy would reach the consumer; the processed-event record stops it.
    await nc.jetstream().publish(first.type, Buffer.from(JSON.stringify(first)), { msgID: randomUUID() });
    const marker = await publishEvent(nc, { type: 'payments.card.created', clientId, data: { id: randomUUID() } });
    // Deliveries are independent jobs and may arrive in any order, so wait for both; the consumer applies the stream
    // in order, so once the marker has its delivery row the second copy of the first event has been seen too.
    const received = () => receiver.to(endpoint).map((r) => r.headers['webhook-id']);
    await eventually(() => (received().includes(first.id) && received().includes(marker.id) ? true : undefined), 'both deliveries');
    const rows = await running.pool.query<{ event_id: string }>('SELECT event_id FROM deliveries WHERE client_id = $1', [clientId]);
    expect(rows.rows.map((r) => r.event_id).sort()).toEqual([first.id, marker.id].sort());
    expect(received().sort()).toEqual([first.id, marker.id].sort());
  });
  it('fans out events published together, each to the webhooks of its own client that listen to it, once', async () => {
    const alice = randomUUID();
    const bob = randomUUID();
    const aliceAll = receiver.endpoint();
    const aliceAuthorized = receiver.endpoint();
    const bobAuthorized = receiver.endpoint();
    await running.client.createWebhook(webhookRequest(alice, aliceAll, { event: '*' }));
    await running.client.createWebhook(webhookRequest(alice, aliceAuthorized, { event: 'authorized' }));
    await running.client.createWebhook(webhookRequest(bob, bobAuthorized, { event: 'authorized' }));
    const js = nc.jetstream();
    const events = Array.from({ length: 30 }, (_, n) => {
      const clientId = n % 2 === 0 ? alice : bob;
      const status = n % 3 === 0 ? 'pending' : 'authorized';
      return { id: randomUUID(), type: `payments.charge.${status}`, occurredAt: new Date().toISOString(), clientId, data: charge(clientId, status) };
    });
    // Published without waiting for each acknowledgement, so the consumer takes them in batches.
    await Promise.all(events.map((e) => js.publish(e.type, Buffer.from(JSON.stringify(e)), { msgID: e.id })));
    const expected = {
      aliceAll: events.filter((e) => e.clientId === alice).map((e) => e.id),
      aliceAuthorized: events.filter((e) => e.clientId === alice && e.type.endsWith('authorized')).map((e) => e.id),
      bobAuthorized: events.filter((e) => e.clientId === bob && e.type.endsWith('authorized')).map((e) => e.id),
    };
    const received = (endpoint: string) => receiver.to(endpoint).map((r) => r.headers['webhook-id']);
    await eventually(
      () =>
        received(aliceAll).length >= expected.aliceAll.length &&
        received(aliceAuthorized).length >= expected.aliceAuthorized.length &&
        received(bobAuthorized).length >= expected.bobAuthorized.length
          ? true
          : undefined,
      'every delivery',
    );
    expect(received(aliceAll).sort()).toEqual([...expected.aliceAll].sort());
    expect(received(aliceAuthorized).sort()).toEqual([...expected.aliceAuthorized].sort());
    expect(received(bobAuthorized).sort()).toEqual([...expected.bobAuthorized].sort());
    const rows = await running.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM deliveries WHERE client_id = ANY($1::uuid[])', [[alice, bob]]);
    expect(rows.rows[0]!.n).toBe(expected.aliceAll.length + expected.aliceAuthorized.length + expected.bobAuthorized.length);
  });
});
