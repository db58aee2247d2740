import { randomUUID } from 'node:crypto';
import type { NatsConnection } from 'nats';
import { eventually, failureOf, publishEvent, startDeliveryRig, webhookRequest, type Receiver, type RunningWebhooks } from '../support/service';

let running: RunningWebhooks;
let receiver: Receiver;
let nc: NatsConnection;
let stop: () => Promise<void>;

beforeAll(async () => {
  // Private targets are refused by default; this name resolves to the receiver on loopback.
  ({ running, receiver, nc, stop } = await startDeliveryRig({
    env: { WEBHOOKS_RETRY_SCHEDULE: '' },
    resolve: async (hostname) => (hostname === 'receiver.test' ? [{ address: '127.0.0.1', family: 4 }] : []),
  }));
});

afterAll(async () => {
  await stop();
});

describe('private targets (SSRF)', () => {
  it('refuses a private IP literal at registration', async () => {
    const error = await failureOf(running.client.createWebhook(webhookRequest(randomUUID(), receiver.endpoint())));
    expect(error.kind).toBe('validation');
    expect(error.details).toEqual([{ field: 'endpoint', message: 'must reach a public address (127.0.0.1 is loopback)' }]);
  });

  it('records a name that resolves to a private address as a refused attempt, and never connects', async () => {
    const clientId = randomUUID();
    const endpoint = receiver.endpoint('receiver.test');
    const webhook = await running.client.createWebhook(webhookRequest(clientId, endpoint));
    await publishEvent(nc, { type: 'payments.charge.authorized', clientId, data: { id: randomUUID() } });
    const delivery = await eventually(async () => {
      const [item] = (await running.client.listDeliveries({ clientId, webhookId: webhook.id })).items;
      return item?.status === 'failed' ? item : undefined;
    }, 'the refused delivery');
    expect(delivery.attempts).toEqual([
      {
        attemptedAt: expect.any(Date),
        statusCode: undefined,
        durationMs: expect.any(Number),
        error: 'refused: receiver.test resolves to 127.0.0.1 (loopback); only public addresses receive webhooks',
      },
    ]);
    expect(receiver.requests).toEqual([]);
  });
});
