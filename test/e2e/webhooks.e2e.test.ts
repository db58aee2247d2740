import { createPublicKey, verify } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { eventually } from '@platform/testkit';
import { Client } from 'pg';
import { WebhookReceiver, type Delivered } from './receiver';
import { apiClient, createClient, startTestPlatform, type Credentials, type TestPlatform } from './platform';

interface Received extends Delivered {
  answered: number;
}

interface PublicEvent {
  id: string;
  createdAt: string;
  object: string;
  event: string;
  apiVersion: number;
  data: { id: string; status?: string; clientId?: string };
}

/** A webhook receiver on 127.0.0.1 that answers what `answer` says for each path. */
class Receiver extends WebhookReceiver<Received> {
  answer: (path: string) => number = () => 200;

  protected receive(request: Delivered, res: ServerResponse): Received {
    const answered = this.answer(request.path);
    res.statusCode = answered;
    res.end();
    return { ...request, answered };
  }
}

/** Both signatures, checked as a receiver would with the webhook's public key. */
function signaturesValid(request: Received, publicKey: string): { plug: boolean; standard: boolean } {
  const key = createPublicKey(publicKey);
  const plugContent = `${String(request.headers['x-plug-date'])}\n${request.body}`;
  const plug = verify(null, Buffer.from(plugContent), key, Buffer.from(String(request.headers['x-plug-signature']), 'hex'));
  // webhook-signature is a space-separated list (v1 HMACs, then v1a): the Ed25519 one is the v1a entry.
  const asymmetric = String(request.headers['webhook-signature'])
    .split(' ')
    .map((entry) => entry.split(','))
    .find(([scheme]) => scheme === 'v1a');
  const standardContent = `${String(request.headers['webhook-id'])}.${String(request.headers['webhook-timestamp'])}.${request.body}`;
  const standard = asymmetric !== undefined && verify(null, Buffer.from(standardContent), key, Buffer.from(asymmetric[1] ?? '', 'base64'));
  return { plug, standard };
}

/** Luhn-valid and ending 1: the SANDBOX authorizes it. */
const CARD_NUMBER = '4111111111111111';

const parse = (request: Received) => JSON.parse(request.body) as PublicEvent;

describe('webhooks through the gateway: registration, signed deliveries of every charge status, a SIGKILL with deliveries pending', () => {
  let platform: TestPlatform;
  let api: ReturnType<typeof apiClient>;
  const receiver = new Receiver();

  beforeAll(async () => {
    await receiver.start();
    // A short schedule and timeout, so that retries and the lease of an attempt cut by the kill come round in seconds.
    platform = await startTestPlatform('e2ewh', { WEBHOOKS_RETRY_SCHEDULE: Array(30).fill('500ms').join(','), WEBHOOKS_DELIVERY_TIMEOUT_MS: '2000' });
    api = apiClient(platform.gatewayUrl);
  });
  afterAll(async () => {
    await platform?.stop();
    await receiver.stop();
  });

  async function storeWithWebhook(name: string): Promise<{ client: Credentials; webhook: { id: string; publicKey: string }; endpoint: string; merchantId: string }> {
    const client = await createClient(platform.adminUrl, platform.adminToken, name);
    const endpoint = receiver.endpoint();
    const created = await api<{ id: string; publicKey: string; event: string }>('POST', '/v1/webhooks', {
      auth: client,
      body: { event: '*', endpoint, version: 1.1, status: true },
    });
    expect(created.status).toBe(201);
    const merchant = await api<{ id: string }>('POST', '/v1/merchants', {
      auth: client,
      body: { mcc: '5999', name: name, providers: [{ name: 'sandbox', priority: 1, credentials: { type: 'SANDBOX' } }] },
    });
    expect(merchant.status).toBe(201);
    return { client, webhook: created.body, endpoint, merchantId: merchant.body.id };
  }

  async function charge(client: Credentials, merchantId: string, capture: boolean): Promise<{ id: string; status: string }> {
    const response = await api<{ id: string; status: string }>('POST', '/v1/charges', {
      auth: client,
      body: {
        merchantId,
        amount: 10_000,
        capture,
        paymentMethod: { paymentType: 'credit', installments: 1 },
        paymentSource: { sourceType: 'card', card: { cardHolderName: 'Ana Souza', cardNumber: CARD_NUMBER, cardCvv: '870', cardExpirationDate: `12/${new Date().getUTCFullYear() + 5}` } },
      },
    });
    expect(response.status).toBe(201);
    return response.body;
  }

  /** The events payments published for a client, from its outbox. */
  async function paymentEventsOf(clientId: string): Promise<Array<{ id: string; subject: string }>> {
    const db = new Client({ connectionString: platform.databaseUrl('payments') });
    await db.connect();
    try {
      const { rows } = await db.query<{ id: string; subject: string }>(`SELECT id, subject FROM outbox WHERE payload->>'clientId' = $1 ORDER BY seq`, [clientId]);
      return rows;
    } finally {
      await db.end();
    }
  }

  it('registers a "*" webhook and delivers a signed transaction event for each status of a charge captured and refunded', async () => {
    const { client, webhook, endpoint, merchantId } = await storeWithWebhook('Webhook Store');
    expect(webhook.publicKey).toMatch(/^-----BEGIN PUBLIC KEY-----/);
    const listed = await api<{ items: Array<{ id: string }> }>('GET', '/v1/webhooks', { auth: client });
    expect(listed.body.items.map((w) => w.id)).toEqual([webhook.id]);

    const created = await charge(client, merchantId, false);
    expect(created.status).toBe('pre_authorized');
    const captured = await api<{ status: string }>('POST', `/v1/charges/${created.id}/capture`, { auth: client, body: { amount: 10_000 } });
    expect(captured.body.status).toBe('authorized');
    const refunded = await api<{ status: string }>('POST', `/v1/charges/${created.id}/void`, { auth: client, body: {} });
    expect(refunded.body.status).toBe('voided');

    const forCharge = () => receiver.at(endpoint).filter((r) => parse(r).object === 'transaction' && parse(r).data.id === created.id);
    await eventually(async () => (forCharge().length >= 3 ? true : undefined), 'a delivery for each status', { timeoutMs: 30_000 });
    const deliveries = forCharge();
    // Each event has a job of its own, so they may arrive in any order.
    expect(deliveries.map((r) => parse(r).event).sort()).toEqual(['authorized', 'pre_authorized', 'voided']);
    for (const request of deliveries) {
      const event = parse(request);
      expect(event).toMatchObject({ object: 'transaction', apiVersion: 1.1, data: { id: created.id, status: event.event, clientId: client.clientId } });
      expect(request.headers).toMatchObject({ 'content-type': 'application/json', 'webhook-id': event.id, 'x-idempotency-key': event.id });
      expect(signaturesValid(request, webhook.publicKey)).toEqual({ plug: true, standard: true });
    }

    const paymentEvents = await paymentEventsOf(client.clientId);
    const chargeEvents = paymentEvents.filter((e) => e.subject.startsWith('payments.charge.'));
    expect(deliveries.map((r) => parse(r).id).sort()).toEqual(chargeEvents.map((e) => e.id).sort());
    expect(receiver.at(endpoint).some((r) => parse(r).event === 'merchant.created')).toBe(true);

    const log = await eventually(async () => {
      const page = await api<{ items: Array<{ eventId: string; status: string; attempts: Array<{ statusCode: number }> }> }>(
        'GET',
        `/v1/webhooks/${webhook.id}/deliveries?limit=100`,
        { auth: client },
      );
      return page.body.items.length === paymentEvents.length && page.body.items.every((d) => d.status === 'succeeded') ? page.body : undefined;
    }, 'the delivery log');
    expect(log.items.map((d) => d.eventId).sort()).toEqual(paymentEvents.map((e) => e.id).sort());
    expect(log.items.every((d) => d.attempts.length === 1 && d.attempts[0]!.statusCode === 200)).toBe(true);

    const other = await createClient(platform.adminUrl, platform.adminToken, 'Stranger');
    expect((await api('GET', `/v1/webhooks/${webhook.id}`, { auth: other })).status).toBe(404);
    expect((await api('GET', `/v1/webhooks/${webhook.id}/deliveries`, { auth: other })).status).toBe(404);
  });

  it('answers 409 for an endpoint or an event already registered and 400 for an event outside the catalogue', async () => {
    const client = await createClient(platform.adminUrl, platform.adminToken, 'Second Store');
    const endpoint = receiver.endpoint();
    expect((await api('POST', '/v1/webhooks', { auth: client, body: { event: 'authorized', endpoint } })).status).toBe(201);
    const duplicate = await api<{ error: { key: string } }>('POST', '/v1/webhooks', { auth: client, body: { event: 'voided', endpoint } });
    expect(duplicate.status).toBe(409);
    expect(duplicate.body.error.key).toBe('webhook_endpoint_exists');
    const sameEvent = await api<{ error: { key: string } }>('POST', '/v1/webhooks', { auth: client, body: { event: 'authorized', endpoint: receiver.endpoint() } });
    expect(sameEvent.status).toBe(409);
    expect(sameEvent.body.error.key).toBe('webhook_event_exists');
    const unknown = await api<{ error: { details: Array<{ field: string }> } }>('POST', '/v1/webhooks', { auth: client, body: { event: 'charge.paid', endpoint: receiver.endpoint() } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.details.map((d) => d.field)).toEqual(['event']);
  });

  it('delivers every event at least once, never under a new id, across a SIGKILL of the webhooks service with deliveries pending', async () => {
    const { client, webhook, endpoint, merchantId } = await storeWithWebhook('Crash Store');
    const path = new URL(endpoint).pathname;
    let healthy = false;
    receiver.answer = (p) => (p === path && !healthy ? 500 : 200);

    const before = [await charge(client, merchantId, true), await charge(client, merchantId, false)];
    await api('POST', `/v1/charges/${before[1]!.id}/capture`, { auth: client, body: {} });
    const expectedBefore = await paymentEventsOf(client.clientId);
    // Every event has failed at least once: its delivery is pending when the process dies.
    await eventually(
      async () => (expectedBefore.every((e) => receiver.at(endpoint).some((r) => parse(r).id === e.id)) ? true : undefined),
      'a failed first attempt of every event',
    );
    await platform.processes.webhooks.kill('SIGKILL');

    // Events that happen while the service is down wait in its durable consumer.
    await charge(client, merchantId, true);
    healthy = true;
    await platform.restart('webhooks');

    const expected = await paymentEventsOf(client.clientId);
    expect(expected.length).toBeGreaterThan(expectedBefore.length);
    await eventually(
      async () => (expected.every((e) => receiver.at(endpoint).some((r) => r.answered === 200 && parse(r).id === e.id)) ? true : undefined),
      'every event delivered after the restart',
      { timeoutMs: 60_000 },
    );

    const requests = receiver.at(endpoint);
    const ids = new Set(expected.map((e) => e.id));
    const bodies = new Map<string, string>();
    for (const request of requests) {
      const event = parse(request);
      // Never a new id: every request carries the id of an event payments published, always with the same body.
      expect(ids.has(event.id)).toBe(true);
      expect(request.headers['webhook-id']).toBe(event.id);
      expect(request.headers['x-idempotency-key']).toBe(event.id);
      expect(bodies.get(event.id) ?? request.body).toBe(request.body);
      bodies.set(event.id, request.body);
      expect(signaturesValid(request, webhook.publicKey)).toEqual({ plug: true, standard: true });
    }
    expect([...bodies.keys()].sort()).toEqual([...ids].sort());

    const db = new Client({ connectionString: platform.databaseUrl('webhooks') });
    await db.connect();
    try {
      const { rows } = await db.query<{ event_id: string; n: number }>(
        'SELECT event_id, count(*)::int AS n FROM deliveries WHERE webhook_id = $1 GROUP BY event_id',
        [webhook.id],
      );
      expect(rows.map((r) => r.event_id).sort()).toEqual([...ids].sort());
      expect(rows.every((r) => r.n === 1)).toBe(true);
    } finally {
      await db.end();
    }
  }, 120_000);

  it('never sends a card number to a receiver', () => {
    expect(receiver.requests.length).toBeGreaterThan(0);
    for (const request of receiver.requests) expect(request.body.includes(CARD_NUMBER)).toBe(false);
  });
});
