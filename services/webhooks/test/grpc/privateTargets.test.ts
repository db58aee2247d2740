import { randomUUID } from 'node:crypto';
import type { NatsConnection } from 'nats';
import type { Resolver } from '../../src/delivery/httpSender';
import { eventually, failureOf, publishEvent, startDeliveryRig, TestClients, webhookRequest, type Receiver, type RunningWebhooks } from '../support/service';

/** This name resolves to the receiver on loopback. */
const resolve: Resolver = async (hostname) => (hostname === 'receiver.test' ? [{ address: '127.0.0.1', family: 4 }] : []);
const REFUSED = 'refused: receiver.test is not a public address; only public addresses receive webhooks';

/** Publishes an event of the client and answers its webhook's delivery once settled. */
async function settledDelivery(running: RunningWebhooks, nc: NatsConnection, clientId: string, webhookId: string) {
  await publishEvent(nc, { type: 'payments.charge.authorized', clientId, data: { id: randomUUID() } });
  return eventually(async () => {
    const [item] = (await running.client.listDeliveries({ clientId, webhookId })).items;
    return item && item.status !== 'pending' ? item : undefined;
  }, 'the settled delivery');
}

describe('private targets (SSRF) with the switch off: nobody reaches them', () => {
  let running: RunningWebhooks;
  let receiver: Receiver;
  let nc: NatsConnection;
  let stop: () => Promise<void>;
  const clients = new TestClients();

  beforeAll(async () => {
    ({ running, receiver, nc, stop } = await startDeliveryRig({ env: { WEBHOOKS_RETRY_SCHEDULE: '' }, resolve, clients }));
  });
  afterAll(async () => {
    await stop();
  });

  it('refuses a private IP literal at registration, a sandbox client too, without asking settings', async () => {
    const error = await failureOf(running.client.createWebhook(webhookRequest(randomUUID(), receiver.endpoint())));
    expect(error.kind).toBe('validation');
    expect(error.details).toEqual([{ field: 'endpoint', message: 'must reach a public address (127.0.0.1 is loopback)' }]);
    expect(clients.asked).toBe(0);
  });

  it('records a name that resolves to a private address as a refused attempt naming no address, and never connects', async () => {
    const clientId = randomUUID();
    const endpoint = receiver.endpoint('receiver.test');
    const webhook = await running.client.createWebhook(webhookRequest(clientId, endpoint));
    const delivery = await settledDelivery(running, nc, clientId, webhook.id);
    expect(delivery.status).toBe('failed');
    expect(delivery.attempts).toEqual([{ attemptedAt: expect.any(Date), statusCode: undefined, durationMs: expect.any(Number), error: REFUSED }]);
    expect(receiver.requests).toEqual([]);
    expect(clients.asked).toBe(0);
  });
});

describe('private targets with the switch on: sandbox clients only', () => {
  let running: RunningWebhooks;
  let receiver: Receiver;
  let nc: NatsConnection;
  let stop: () => Promise<void>;
  const clients = new TestClients();

  beforeAll(async () => {
    ({ running, receiver, nc, stop } = await startDeliveryRig({ env: { WEBHOOKS_RETRY_SCHEDULE: '', WEBHOOKS_ALLOW_PRIVATE_TARGETS: 'true' }, resolve, clients }));
  });
  afterAll(async () => {
    await stop();
  });

  it.each([
    ['a live client', (id: string) => clients.live(id)],
    ['a client settings does not know', (id: string) => clients.unknown(id)],
  ])('refuses a private endpoint of %s at registration and on update', async (_who, mark) => {
    const clientId = mark(randomUUID());
    for (const endpoint of [receiver.endpoint(), `http://localhost:${receiver.port}/x`, `http://[::1]:${receiver.port}/y`]) {
      const error = await failureOf(running.client.createWebhook(webhookRequest(clientId, endpoint)));
      expect({ endpoint, kind: error.kind, fields: error.details?.map((d) => d.field) }).toEqual({ endpoint, kind: 'validation', fields: ['endpoint'] });
    }
    const webhook = await running.client.createWebhook(webhookRequest(clientId, 'https://hooks.example.com/live'));
    const error = await failureOf(running.client.updateWebhook({ clientId, id: webhook.id, endpoint: receiver.endpoint() }));
    expect(error.details).toEqual([{ field: 'endpoint', message: 'must reach a public address (127.0.0.1 is loopback)' }]);
    expect((await running.client.getWebhook({ clientId, id: webhook.id })).endpoint).toBe('https://hooks.example.com/live');
  });

  it('lets a sandbox client register a private endpoint and delivers to it', async () => {
    const clientId = randomUUID();
    const endpoint = receiver.endpoint();
    const webhook = await running.client.createWebhook(webhookRequest(clientId, endpoint));
    const delivery = await settledDelivery(running, nc, clientId, webhook.id);
    expect(delivery.status).toBe('succeeded');
    expect(receiver.to(endpoint)).toHaveLength(1);
  });

  it("never delivers to a live client's private target, checked at the attempt (a name, or a row from before the check)", async () => {
    const clientId = clients.live(randomUUID());
    const endpoint = receiver.endpoint('receiver.test');
    // Registration cannot tell where a name goes; the attempt resolves it and asks who the client is.
    const webhook = await running.client.createWebhook(webhookRequest(clientId, endpoint));
    const delivery = await settledDelivery(running, nc, clientId, webhook.id);
    expect(delivery.status).toBe('failed');
    expect(delivery.attempts).toEqual([{ attemptedAt: expect.any(Date), statusCode: undefined, durationMs: expect.any(Number), error: REFUSED }]);
    expect(receiver.to(endpoint)).toEqual([]);

    // A live client's loopback literal that the switch let through before: refused at the attempt too.
    const literal = receiver.endpoint();
    const legacy = await running.client.createWebhook(webhookRequest(clientId, 'https://hooks.example.com/legacy', { event: 'authorized' }));
    await running.pool.query('UPDATE webhooks SET endpoint = $1 WHERE id = $2', [literal, legacy.id]);
    const refused = await settledDelivery(running, nc, clientId, legacy.id);
    expect(refused.attempts.map((a) => a.error)).toEqual(['refused: 127.0.0.1 is not a public address; only public addresses receive webhooks']);
    expect(receiver.to(literal)).toEqual([]);
  });

  it("reports a sandbox client's failed private connection by its kind only, without address or port", async () => {
    const clientId = randomUUID();
    const closed = `http://127.0.0.1:1/hooks/${randomUUID()}`;
    const webhook = await running.client.createWebhook(webhookRequest(clientId, closed));
    const delivery = await settledDelivery(running, nc, clientId, webhook.id);
    expect(delivery.attempts.map((a) => a.error)).toEqual(['connection refused']);
  });
});
