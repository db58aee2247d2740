import { randomUUID } from 'node:crypto';
import { webhooks } from '@platform/contracts';
import { ManualClock, startServiceWithClient, testNatsUrl } from '@platform/testkit';
import { connect, type NatsConnection } from 'nats';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { secretOfKey } from '../../src/domain/signatures';
import { defineWebhooksService } from '../../src/service';
import { KeySealer } from '../../src/signing/keySealer';
import {
  eventually,
  publishEvent,
  Receiver,
  verifySignatures,
  webhookRequest,
  webhooksSetup,
  type ReceivedRequest,
  type RunningWebhooks,
  type WebhooksSetup,
} from '../support/service';

const HOUR = 3600_000;
const DAY = 24 * HOUR;

/**
 * The service on a ManualClock, so that 24 hours pass at once. The clock starts days in the past: jobs are due at the
 * clock's time and the job queue compares with the database's, so every attempt stays due at once as the clock moves
 * forward (never beyond the real time).
 */
const clock = new ManualClock(Date.now() - 4 * DAY);
let setup: WebhooksSetup;
let running: RunningWebhooks;
let receiver: Receiver;
let nc: NatsConnection;

function start(): Promise<RunningWebhooks> {
  return startServiceWithClient(
    defineWebhooksService({ clock, clients: setup.clients }),
    { definition: webhooks.WebhooksServiceService, Client: webhooks.WebhooksServiceClient },
    {
      databaseUrl: setup.databaseUrl,
      env: { SHUTDOWN_GRACE_MS: '1000', WEBHOOKS_SIGNING_KEY: setup.signingKey, WEBHOOKS_FANOUT_DURABLE: setup.durable, WEBHOOKS_ALLOW_PRIVATE_TARGETS: 'true', SETTINGS_GRPC_URL: '127.0.0.1:1' },
    },
  );
}

beforeAll(async () => {
  setup = await webhooksSetup();
  running = await start();
  receiver = await new Receiver().start();
  nc = await connect({ servers: testNatsUrl() });
});

afterAll(async () => {
  await nc.drain();
  await running.stop();
  await receiver.stop();
});

/** Publishes a charge event for the client and answers the request its webhook received for it. */
async function deliverOne(clientId: string, endpoint: string): Promise<ReceivedRequest> {
  const event = await publishEvent(nc, { type: 'payments.charge.authorized', clientId, data: { id: randomUUID(), clientId, status: 'authorized' } });
  return eventually(() => receiver.to(endpoint).find((r) => r.headers['webhook-id'] === event.id), `the delivery of ${event.id}`);
}

/** The entries of webhook-signature, in order. */
const entriesOf = (request: ReceivedRequest) =>
  String(request.headers['webhook-signature'])
    .split(' ')
    .map((entry) => entry.split(','));

/** The v1 signatures the standard's library makes for this request with each secret, in the order given. */
function expectedV1(request: ReceivedRequest, secrets: string[]): string[] {
  const at = new Date(Number(request.headers['webhook-timestamp']) * 1000);
  return secrets.map((secret) => new StandardWebhook(secret).sign(String(request.headers['webhook-id']), at, request.body).slice('v1,'.length));
}

const v1Of = (request: ReceivedRequest) => entriesOf(request).filter(([scheme]) => scheme === 'v1').map(([, signature]) => signature);

describe('Standard Webhooks v1 signatures and secret rotation, on a manual clock', () => {
  it('signs with the secret, with the old and the new one for 24 hours after a rotation, then with the new one only', async () => {
    const clientId = randomUUID();
    const endpoint = receiver.endpoint();
    const webhook = await running.client.createWebhook(webhookRequest(clientId, endpoint));
    const original = webhook.secret!;

    const first = await deliverOne(clientId, endpoint);
    expect(entriesOf(first).map(([scheme]) => scheme)).toEqual(['v1', 'v1a']);
    expect(v1Of(first)).toEqual(expectedV1(first, [original]));
    expect(Number(first.headers['webhook-timestamp'])).toBe(Math.floor(clock.now().getTime() / 1000));
    expect(verifySignatures(first, webhook.publicKey)).toEqual({ plug: true, standard: true });

    clock.advance(HOUR);
    const { secret: rotated } = await running.client.rotateWebhookSecret({ clientId, id: webhook.id });
    const rotatedAt = clock.now().getTime();
    expect(rotated).not.toBe(original);

    const during = await deliverOne(clientId, endpoint);
    expect(entriesOf(during).map(([scheme]) => scheme)).toEqual(['v1', 'v1', 'v1a']);
    expect(v1Of(during)).toEqual(expectedV1(during, [rotated, original]));
    expect(verifySignatures(during, webhook.publicKey)).toEqual({ plug: true, standard: true });

    // A second before the 24 hours end: still both.
    clock.set(rotatedAt + DAY - 1000);
    const lastOfOverlap = await deliverOne(clientId, endpoint);
    expect(v1Of(lastOfOverlap)).toEqual(expectedV1(lastOfOverlap, [rotated, original]));

    clock.set(rotatedAt + DAY + 1000);
    const after = await deliverOne(clientId, endpoint);
    expect(entriesOf(after).map(([scheme]) => scheme)).toEqual(['v1', 'v1a']);
    expect(v1Of(after)).toEqual(expectedV1(after, [rotated]));
    expect(verifySignatures(after, webhook.publicKey)).toEqual({ plug: true, standard: true });
  });

  it('signs a retry of an old delivery with the secrets in force at the retry, not at the first attempt', async () => {
    const clientId = randomUUID();
    const endpoint = receiver.endpoint();
    const webhook = await running.client.createWebhook(webhookRequest(clientId, endpoint));
    const first = await deliverOne(clientId, endpoint);
    const { secret: rotated } = await running.client.rotateWebhookSecret({ clientId, id: webhook.id });
    const [delivery] = (await running.client.listDeliveries({ clientId, webhookId: webhook.id })).items;
    await running.client.retryDelivery({ clientId, webhookId: webhook.id, deliveryId: delivery!.id });
    const resent = await eventually(() => receiver.to(endpoint).filter((r) => r.headers['webhook-id'] === first.headers['webhook-id'])[1], 'the retry');
    expect(resent.body).toBe(first.body);
    expect(v1Of(resent)).toEqual(expectedV1(resent, [rotated, webhook.secret!]));
  });

  it('during a rotation: the newest secret replaces the current one, which signs for 24 hours more; the first stops at once', async () => {
    const clientId = randomUUID();
    const endpoint = receiver.endpoint();
    const webhook = await running.client.createWebhook(webhookRequest(clientId, endpoint));
    const { secret: second } = await running.client.rotateWebhookSecret({ clientId, id: webhook.id });
    clock.advance(HOUR);
    const { secret: third } = await running.client.rotateWebhookSecret({ clientId, id: webhook.id });
    const thirdAt = clock.now().getTime();

    const during = await deliverOne(clientId, endpoint);
    expect(v1Of(during)).toEqual(expectedV1(during, [third, second]));
    expect(v1Of(during)).not.toContain(expectedV1(during, [webhook.secret!])[0]);

    // The second rotation's 24 hours count from it, not from the first one.
    clock.set(thirdAt + DAY - HOUR);
    const stillBoth = await deliverOne(clientId, endpoint);
    expect(v1Of(stillBoth)).toEqual(expectedV1(stillBoth, [third, second]));
    clock.set(thirdAt + DAY);
    const after = await deliverOne(clientId, endpoint);
    expect(v1Of(after)).toEqual(expectedV1(after, [third]));
  });

  it('gives a webhook registered before secrets existed one when the service starts; a rotation then overlaps with it', async () => {
    const clientId = randomUUID();
    const endpoint = receiver.endpoint();
    const webhook = await running.client.createWebhook(webhookRequest(clientId, endpoint));
    // As the migration leaves the rows it finds.
    await running.pool.query('UPDATE webhooks SET sealed_secret = NULL WHERE id = $1', [webhook.id]);
    const unsigned = await deliverOne(clientId, endpoint);
    expect(entriesOf(unsigned).map(([scheme]) => scheme)).toEqual(['v1a']);
    expect(verifySignatures(unsigned, webhook.publicKey)).toEqual({ plug: true, standard: true });

    await running.stop();
    running = await start();
    const { rows } = await running.pool.query('SELECT sealed_secret FROM webhooks WHERE id = $1', [webhook.id]);
    const given = secretOfKey(new KeySealer(Buffer.from(setup.signingKey, 'hex')).openSecret(webhook.id, rows[0].sealed_secret));
    const backfilled = await deliverOne(clientId, endpoint);
    expect(entriesOf(backfilled).map(([scheme]) => scheme)).toEqual(['v1', 'v1a']);
    expect(v1Of(backfilled)).toEqual(expectedV1(backfilled, [given]));
    // Its owner never saw that secret: a rotation gives one, and the backfilled one overlaps with it.
    const { secret } = await running.client.rotateWebhookSecret({ clientId, id: webhook.id });
    const rotated = await deliverOne(clientId, endpoint);
    expect(v1Of(rotated)).toEqual(expectedV1(rotated, [secret, given]));
  });
});
