import { randomUUID } from 'node:crypto';
import { webhooks } from '@platform/contracts';
import { listJobs } from '@platform/kit';
import { ManualClock, startServiceWithClient, testNatsUrl } from '@platform/testkit';
import { connect, type NatsConnection } from 'nats';
import { DELIVER_JOB } from '../../src/app/deliveryJob';
import { defineWebhooksService } from '../../src/service';
import { eventually, Receiver, webhookRequest, webhooksSetup, type RunningWebhooks } from '../support/service';

/**
 * The service on a clock ten years ahead: the jobs it schedules are never due for the job queue (which compares with
 * the database's time), so only the first attempt made after the fan-out can deliver.
 */
const clock = new ManualClock(Date.now() + 3650 * 86_400_000);
let receiver: Receiver;
let nc: NatsConnection;

async function start(env: Record<string, string>): Promise<RunningWebhooks> {
  const setup = await webhooksSetup();
  return startServiceWithClient(
    defineWebhooksService({ clock, clients: setup.clients }),
    { definition: webhooks.WebhooksServiceService, Client: webhooks.WebhooksServiceClient },
    {
      databaseUrl: setup.databaseUrl,
      env: {
        SHUTDOWN_GRACE_MS: '1000',
        WEBHOOKS_SIGNING_KEY: setup.signingKey,
        WEBHOOKS_FANOUT_DURABLE: setup.durable,
        WEBHOOKS_ALLOW_PRIVATE_TARGETS: 'true',
        SETTINGS_GRPC_URL: '127.0.0.1:1',
        ...env,
      },
    },
  );
}

beforeAll(async () => {
  receiver = await new Receiver().start();
  nc = await connect({ servers: testNatsUrl() });
});

afterAll(async () => {
  await nc.drain();
  await receiver.stop();
});

/** A webhook, and an event of its client that happened after it on the service's clock. */
async function publishFor(running: RunningWebhooks) {
  const clientId = randomUUID();
  const endpoint = receiver.endpoint();
  const webhook = await running.client.createWebhook(webhookRequest(clientId, endpoint));
  const event = {
    id: randomUUID(),
    type: 'payments.charge.authorized',
    occurredAt: new Date(clock.now().getTime() + 1000).toISOString(),
    clientId,
    data: { id: randomUUID(), clientId, status: 'authorized' },
  };
  await nc.jetstream().publish(event.type, Buffer.from(JSON.stringify(event)), { msgID: event.id });
  return { clientId, endpoint, webhook, event };
}

async function jobOf(running: RunningWebhooks, deliveryId: string) {
  return (await listJobs(running.pool, DELIVER_JOB)).filter((job) => job.payload.deliveryId === deliveryId);
}

describe('the first delivery attempt, through the service', () => {
  it('is made by the fan-out consumer right after its commit, and its job is completed', async () => {
    const running = await start({});
    try {
      const { clientId, endpoint, webhook, event } = await publishFor(running);
      const [request] = await eventually(() => (receiver.to(endpoint).length > 0 ? receiver.to(endpoint) : undefined), 'the delivery');
      expect(request!.headers['webhook-id']).toBe(event.id);
      const [delivery] = (
        await eventually(async () => {
          const page = await running.client.listDeliveries({ clientId, webhookId: webhook.id });
          return page.items[0]?.status === 'succeeded' ? page : undefined;
        }, 'the attempt to be recorded')
      ).items;
      expect(delivery!.attempts).toHaveLength(1);
      expect(await jobOf(running, delivery!.id)).toEqual([]);
      expect(receiver.to(endpoint)).toHaveLength(1);
    } finally {
      await running.stop();
    }
  });

  it('is left to the job with WEBHOOKS_INLINE_DELIVERY=false: the job is due at once and nothing is sent before it runs', async () => {
    const running = await start({ WEBHOOKS_INLINE_DELIVERY: 'false' });
    try {
      const { clientId, endpoint, webhook } = await publishFor(running);
      const page = await eventually(async () => {
        const found = await running.client.listDeliveries({ clientId, webhookId: webhook.id });
        return found.items.length > 0 ? found : undefined;
      }, 'the delivery row');
      const delivery = page.items[0]!;
      const [job] = await jobOf(running, delivery.id);
      // Due at the fan-out's time on the service's clock, which the job queue has not reached.
      expect(job!.runAt.getTime()).toBe(delivery.createdAt!.getTime());
      expect(delivery.status).toBe('pending');
      expect(delivery.attempts).toEqual([]);
      expect(receiver.to(endpoint)).toEqual([]);
    } finally {
      await running.stop();
    }
  });
});
