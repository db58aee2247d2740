/**
 * Standard Webhooks through the gateway, on the real platform: the receiver verifies every delivery with the
 * standard's own library (`standardwebhooks`, pinned in the root package.json) and nothing else, keyed by the secret
 * the registration answered; after POST /v1/webhooks/{id}/rotate-secret it verifies with the old or the new secret.
 * The same deliveries still verify with the public Node SDK's `webhooks.verify` (X-Plug-Signature).
 *
 * That the old secret stops signing 24 hours after a rotation needs the clock moved: the real platform runs on the
 * system clock, so services/webhooks/test/grpc/standardWebhooks.test.ts proves it with a ManualClock.
 */
import type { ServerResponse } from 'node:http';
import { randomBytes, randomUUID } from 'node:crypto';
import { Malga } from 'malga';
import { Webhook } from 'standardwebhooks';
import { eventually } from '@platform/testkit';
import { WebhookReceiver, type Delivered } from './receiver';
import { apiClient, createClient, startTestPlatform, type Credentials, type TestPlatform } from './platform';

interface Received extends Delivered {
  /** Which of the secrets the test knows verify the delivery, by the standard's library. */
  verifiedBy: string[];
  answered: number;
}

interface CreatedWebhook {
  id: string;
  publicKey: string;
  secret: string;
}

/**
 * A receiver as an integrator writes it with the standard's library: it holds the secrets it was given and answers
 * 401 to a delivery none of them verifies. It also notes which of every secret the test knows verify each delivery.
 */
class StandardReceiver extends WebhookReceiver<Received> {
  /** The secrets the receiver accepts deliveries with. */
  accepts: string[] = [];
  /** Every secret the test knows of, accepted or not. */
  known: string[] = [];

  protected receive(request: Delivered, res: ServerResponse): Received {
    const verifiedBy = this.known.filter((secret) => {
      try {
        new Webhook(secret).verify(request.body, request.headers as Record<string, string>);
        return true;
      } catch {
        return false;
      }
    });
    const answered = this.accepts.some((secret) => verifiedBy.includes(secret)) ? 200 : 401;
    res.statusCode = answered;
    res.end();
    return { ...request, verifiedBy, answered };
  }
}

const eventOf = (request: Received) => JSON.parse(request.body) as { id: string; event: string; data: { id: string } };
const schemesOf = (request: Received) =>
  String(request.headers['webhook-signature'])
    .split(' ')
    .map((entry) => entry.split(',')[0]);

describe('Standard Webhooks (HMAC) secrets, signatures and rotation through the gateway', () => {
  let platform: TestPlatform;
  let api: ReturnType<typeof apiClient>;
  let client: Credentials;
  let stranger: Credentials;
  let malga: Malga;
  let merchantId: string;
  const receiver = new StandardReceiver();
  /** A well-formed secret no webhook has: it must verify nothing. */
  const foreign = `whsec_${randomBytes(32).toString('base64')}`;

  beforeAll(async () => {
    await receiver.start();
    platform = await startTestPlatform('e2esw');
    api = apiClient(platform.gatewayUrl);
    client = await createClient(platform.adminUrl, platform.adminToken, 'Standard Store');
    stranger = await createClient(platform.adminUrl, platform.adminToken, 'Stranger');
    // Only verify is used: it needs no API call.
    malga = new Malga({ clientId: client.clientId, apiKey: client.apiKey, options: { sandbox: true } });
    const merchant = await api<{ id: string }>('POST', '/v1/merchants', {
      auth: client,
      body: { mcc: '5999', name: 'Standard Store', providers: [{ name: 'sandbox', priority: 1, credentials: { type: 'SANDBOX' } }] },
    });
    expect(merchant.status).toBe(201);
    merchantId = merchant.body.id;
  }, 180_000);

  afterAll(async () => {
    await platform?.stop();
    await receiver.stop();
  });

  async function charge(): Promise<string> {
    const response = await api<{ id: string }>('POST', '/v1/charges', {
      auth: client,
      body: {
        merchantId,
        amount: 4_200,
        paymentMethod: { paymentType: 'credit', installments: 1 },
        paymentSource: {
          sourceType: 'card',
          card: { cardHolderName: 'Ana Souza', cardNumber: '4111111111111111', cardCvv: '870', cardExpirationDate: `12/${new Date().getUTCFullYear() + 5}` },
        },
      },
    });
    expect(response.status).toBe(201);
    return response.body.id;
  }

  const deliveriesOf = (endpoint: string, chargeId: string) => receiver.at(endpoint).filter((r) => eventOf(r).data.id === chargeId);

  /** The SDK's check of X-Plug-Signature with the webhook's public key. */
  const sdkVerifies = (request: Received, publicKey: string, payload = request.body) =>
    malga.webhooks.verify({ payload, publicKey, signature: String(request.headers['x-plug-signature']), signatureTime: Number(request.headers['x-plug-date']) });

  it('answers the secret once, at registration; every delivery verifies with it by standardwebhooks and with the SDK', async () => {
    const endpoint = receiver.endpoint();
    const created = await api<CreatedWebhook>('POST', '/v1/webhooks', { auth: client, body: { event: 'authorized', endpoint, version: 1.1 } });
    expect(created.status).toBe(201);
    const webhook = created.body;
    expect(webhook.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(webhook.secret.slice('whsec_'.length), 'base64')).toHaveLength(32);
    receiver.accepts = [webhook.secret];
    receiver.known = [webhook.secret, foreign];

    const read = await api<Record<string, unknown>>('GET', `/v1/webhooks/${webhook.id}`, { auth: client });
    expect(read.status).toBe(200);
    expect(read.body).not.toHaveProperty('secret');
    const listed = await api<{ items: Array<Record<string, unknown>> }>('GET', '/v1/webhooks', { auth: client });
    expect(listed.body.items.find((w) => w.id === webhook.id)).not.toHaveProperty('secret');
    expect(JSON.stringify(listed.body)).not.toContain(webhook.secret);

    const chargeIds = [await charge(), await charge()];
    const requests = await eventually(
      async () => (chargeIds.every((id) => deliveriesOf(endpoint, id).length > 0) ? chargeIds.flatMap((id) => deliveriesOf(endpoint, id)) : undefined),
      'a delivery of each charge',
      { timeoutMs: 30_000 },
    );
    for (const request of requests) {
      expect(request.answered).toBe(200);
      expect(request.verifiedBy).toEqual([webhook.secret]);
      expect(schemesOf(request)).toEqual(['v1', 'v1a']);
      expect(new Webhook(webhook.secret).verify(request.body, request.headers as Record<string, string>)).toEqual(JSON.parse(request.body));
      expect(() => new Webhook(webhook.secret).verify(request.body.replace(eventOf(request).data.id, randomUUID()), request.headers as Record<string, string>)).toThrow(
        'No matching signature found',
      );
      expect(sdkVerifies(request, webhook.publicKey)).toBe(true);
      expect(sdkVerifies(request, webhook.publicKey, request.body.replace(eventOf(request).data.id, randomUUID()))).toBe(false);
    }
  });

  it("rotates the secret: 404 for another client's or an unknown id; afterwards deliveries verify with the old or the new secret", async () => {
    const endpoint = receiver.endpoint();
    const webhook = (await api<CreatedWebhook>('POST', '/v1/webhooks', { auth: client, body: { event: '*', endpoint } })).body;
    const original = webhook.secret;
    receiver.accepts = [original];
    receiver.known = [original, foreign];
    const before = await charge();
    await eventually(async () => (deliveriesOf(endpoint, before).some((r) => r.answered === 200) ? true : undefined), 'a delivery before the rotation', {
      timeoutMs: 30_000,
    });

    const foreignRotation = await api<{ error: { code: number } }>('POST', `/v1/webhooks/${webhook.id}/rotate-secret`, { auth: stranger });
    expect(foreignRotation.status).toBe(404);
    expect((await api('POST', `/v1/webhooks/${randomUUID()}/rotate-secret`, { auth: client })).status).toBe(404);
    expect((await api('POST', '/v1/webhooks/not-an-id/rotate-secret', { auth: client })).status).toBe(404);

    const idempotencyKey = randomUUID();
    const rotation = await api<{ secret: string }>('POST', `/v1/webhooks/${webhook.id}/rotate-secret`, { auth: client, headers: { 'x-idempotency-key': idempotencyKey } });
    expect(rotation.status).toBe(200);
    expect(rotation.body).toEqual({ secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/) });
    const rotated = rotation.body.secret;
    expect(rotated).not.toBe(original);
    // A retried rotation with the same key answers the same secret and rotates nothing more.
    const replay = await api<{ secret: string }>('POST', `/v1/webhooks/${webhook.id}/rotate-secret`, { auth: client, headers: { 'x-idempotency-key': idempotencyKey } });
    expect(replay.body).toEqual({ secret: rotated });
    const read = await api<Record<string, unknown>>('GET', `/v1/webhooks/${webhook.id}`, { auth: client });
    expect(read.body).not.toHaveProperty('secret');
    receiver.known = [original, rotated, foreign];

    // The receiver has not switched yet: it still verifies with the old secret...
    const during = await charge();
    await eventually(async () => (deliveriesOf(endpoint, during).length > 0 ? true : undefined), 'a delivery after the rotation', { timeoutMs: 30_000 });
    // ...and once it has switched, with the new one.
    receiver.accepts = [rotated];
    const switched = await charge();
    await eventually(async () => (deliveriesOf(endpoint, switched).length > 0 ? true : undefined), 'a delivery after the switch', { timeoutMs: 30_000 });
    const requests = [...deliveriesOf(endpoint, during), ...deliveriesOf(endpoint, switched)];
    for (const request of requests) {
      expect(request.answered).toBe(200);
      expect(request.verifiedBy).toEqual([original, rotated]);
      // The new secret's signature first, then the old one's, then the Ed25519 one.
      expect(schemesOf(request)).toEqual(['v1', 'v1', 'v1a']);
      expect(sdkVerifies(request, webhook.publicKey)).toBe(true);
    }
    // Before the rotation, the new secret verified nothing.
    for (const request of deliveriesOf(endpoint, before)) expect(request.verifiedBy).toEqual([original]);

    // Every attempt of every delivery was accepted by the receiver: none had to be retried.
    const log = await eventually(async () => {
      const page = await api<{ items: Array<{ status: string; attempts: Array<{ statusCode: number | null }> }> }>(
        'GET',
        `/v1/webhooks/${webhook.id}/deliveries?limit=100`,
        { auth: client },
      );
      return page.body.items.length > 0 && page.body.items.every((d) => d.status === 'succeeded') ? page.body.items : undefined;
    }, 'every delivery to succeed');
    expect(log.flatMap((d) => d.attempts.map((a) => a.statusCode)).every((code) => code === 200)).toBe(true);
    expect(receiver.at(endpoint).every((r) => r.answered === 200)).toBe(true);
  });
});
