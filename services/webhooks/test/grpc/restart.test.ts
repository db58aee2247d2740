import { randomUUID } from 'node:crypto';
import type { DomainEvent } from '@platform/kit';
import { eventually, publishEvent, startDeliveryRig, startWebhooks, verifySignatures, webhookRequest, type RunningWebhooks } from '../support/service';

let rig: Awaited<ReturnType<typeof startDeliveryRig>>;
let restarted: RunningWebhooks | undefined;

beforeAll(async () => {
  rig = await startDeliveryRig({ env: { WEBHOOKS_ALLOW_PRIVATE_TARGETS: 'true', WEBHOOKS_RETRY_SCHEDULE: '300,300,300,300,300,300,300,300,300,300' } });
});

afterAll(async () => {
  await restarted?.stop();
  await rig.stop();
});

describe('a restart with deliveries pending', () => {
  it('delivers every event after the service is stopped and started again on the same database, never under a new id', async () => {
    const { receiver, nc } = rig;
    const clientId = randomUUID();
    const endpoint = receiver.endpoint();
    const webhook = await rig.running.client.createWebhook(webhookRequest(clientId, endpoint));
    receiver.answer = () => 500;

    const before: DomainEvent[] = [];
    for (const status of ['pending', 'authorized', 'voided']) {
      before.push(await publishEvent(nc, { type: `payments.charge.${status}`, clientId, data: { id: randomUUID(), status } }));
    }
    await eventually(() => (before.every((e) => receiver.requests.some((r) => r.headers['webhook-id'] === e.id)) ? true : undefined), 'a first attempt of each');
    await rig.running.stop();

    // Events that happen while the service is down wait in its durable consumer.
    const during: DomainEvent[] = [];
    for (const type of ['customers.customer.created', 'payments.card.created']) during.push(await publishEvent(nc, { type, clientId, data: { id: randomUUID() } }));
    receiver.answer = () => 200;
    restarted = await startWebhooks(rig.setup);
    const service = restarted;

    const expected = [...before, ...during].map((e) => e.id).sort();
    await eventually(async () => {
      const page = await service.client.listDeliveries({ clientId, webhookId: webhook.id });
      return page.items.length === expected.length && page.items.every((d) => d.status === 'succeeded') ? true : undefined;
    }, 'every delivery to succeed');

    expect([...new Set(receiver.to(endpoint).map((r) => String(r.headers['webhook-id'])))].sort()).toEqual(expected);
    for (const request of receiver.to(endpoint)) {
      const body = JSON.parse(request.body) as { id: string };
      expect(request.headers['webhook-id']).toBe(body.id);
      expect(request.headers['x-idempotency-key']).toBe(body.id);
      expect(verifySignatures(request, webhook.publicKey)).toEqual({ plug: true, standard: true });
    }
    const { rows } = await service.pool.query('SELECT event_id FROM deliveries WHERE client_id = $1', [clientId]);
    expect(rows.map((r: { event_id: string }) => r.event_id).sort()).toEqual(expected);
  });
});
