import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { webhooks } from '@platform/contracts';
import { eventually, publishEvent, startDeliveryRig, webhookRequest, type DeliveryRig, type ReceivedRequest } from '../support/service';

/** A receiver that answers each request to a path with the next answer of its list (status and headers), then 200. */
class ScriptedReceiver {
  readonly requests: Array<ReceivedRequest & { receivedAt: number }> = [];
  private readonly scripts = new Map<string, Array<{ status: number; headers?: Record<string, string> }>>();
  private readonly server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '';
      this.requests.push({ path, headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), receivedAt: Date.now() });
      const next = this.scripts.get(path)?.shift() ?? { status: 200 };
      res.writeHead(next.status, next.headers ?? {}).end();
    });
  });

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return this;
  }

  endpoint(answers: Array<{ status: number; headers?: Record<string, string> }>): string {
    const path = `/hooks/${randomUUID()}`;
    this.scripts.set(path, answers);
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}${path}`;
  }

  to(endpoint: string) {
    const path = new URL(endpoint).pathname;
    return this.requests.filter((r) => r.path === path);
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

const HOUR = 3_600_000;
let rig: DeliveryRig;
let receiver: ScriptedReceiver;

beforeAll(async () => {
  // The schedule's first step is an hour: a retry within the test can only be one the receiver asked for.
  rig = await startDeliveryRig({ env: { WEBHOOKS_ALLOW_PRIVATE_TARGETS: 'true', WEBHOOKS_RETRY_SCHEDULE: '1h,1h' } });
  receiver = await new ScriptedReceiver().start();
});

afterAll(async () => {
  await rig.stop();
  await receiver.stop();
});

async function deliveryAfter(clientId: string, webhookId: string, attempts: number): Promise<webhooks.Delivery> {
  return eventually(async () => {
    const [delivery] = (await rig.running.client.listDeliveries({ clientId, webhookId })).items;
    // An attempt and its outcome are stored in one statement: once the attempt shows, so does what follows it.
    return delivery && delivery.attempts.length >= attempts ? delivery : undefined;
  }, `a delivery with ${attempts} attempts`);
}

async function stored(deliveryId: string) {
  const { rows } = await rig.running.pool.query<{ failures: number; retry_after_attempts: number }>('SELECT failures, retry_after_attempts FROM deliveries WHERE id = $1', [
    deliveryId,
  ]);
  return rows[0]!;
}

async function setUp(answers: Array<{ status: number; headers?: Record<string, string> }>) {
  const clientId = randomUUID();
  const endpoint = receiver.endpoint(answers);
  const webhook = await rig.running.client.createWebhook(webhookRequest(clientId, endpoint));
  const event = await publishEvent(rig.nc, { type: 'payments.charge.authorized', clientId, data: { id: randomUUID(), status: 'authorized' } });
  return { clientId, endpoint, webhook, event };
}

describe('Retry-After', () => {
  it('tries a receiver that answered 429 with Retry-After again after that wait, not the schedule, with the same event and body', async () => {
    const { clientId, endpoint, webhook, event } = await setUp([{ status: 429, headers: { 'retry-after': '1' } }]);
    const delivery = await eventually(async () => {
      const [found] = (await rig.running.client.listDeliveries({ clientId, webhookId: webhook.id })).items;
      return found?.status === 'succeeded' ? found : undefined;
    }, 'the delivery after the wait');
    expect(delivery.attempts.map((a) => a.statusCode)).toEqual([429, 200]);
    const [first, second] = receiver.to(endpoint);
    expect(second!.receivedAt - first!.receivedAt).toBeGreaterThanOrEqual(900);
    expect(second!.receivedAt - first!.receivedAt).toBeLessThan(10_000);
    expect([first!.headers['webhook-id'], second!.headers['webhook-id']]).toEqual([event.id, event.id]);
    expect(second!.body).toBe(first!.body);
  });

  it('counts a wait the receiver asked for apart from the failures, and caps it at an hour', async () => {
    const { clientId, webhook } = await setUp([{ status: 503, headers: { 'retry-after': '7200' } }]);
    const delivery = await deliveryAfter(clientId, webhook.id, 1);
    expect(delivery.status).toBe('pending');
    const waitMs = delivery.nextAttemptAt!.getTime() - delivery.attempts[0]!.attemptedAt!.getTime();
    expect(waitMs).toBeGreaterThan(HOUR - 5_000);
    expect(waitMs).toBeLessThanOrEqual(HOUR + 5_000);
    expect(await stored(delivery.id)).toEqual({ failures: 0, retry_after_attempts: 1 });
  });

  it('takes the schedule for a 429 or 503 without a valid Retry-After, as a failure', async () => {
    for (const answer of [{ status: 429 }, { status: 503, headers: { 'retry-after': 'soon' } }]) {
      const { clientId, webhook } = await setUp([answer]);
      const delivery = await deliveryAfter(clientId, webhook.id, 1);
      expect(delivery.status).toBe('pending');
      const waitMs = delivery.nextAttemptAt!.getTime() - delivery.attempts[0]!.attemptedAt!.getTime();
      expect(waitMs).toBeGreaterThan(HOUR - 5_000);
      expect(await stored(delivery.id)).toEqual({ failures: 1, retry_after_attempts: 0 });
    }
  });
});
