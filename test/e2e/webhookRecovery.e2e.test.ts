import { createPublicKey, randomInt, randomUUID, verify } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import path from 'node:path';
import { eventually } from '@platform/testkit';
import { WebhookReceiver, type Delivered } from './receiver';
import { apiClient, createClient, startTestPlatform, type Credentials, type TestPlatform } from './platform';

interface Received extends Delivered {
  receivedAt: number;
}

interface Answer {
  status: number;
  headers?: Record<string, string>;
}

/** A webhook receiver on 127.0.0.1: each path answers the next answer of its script, then 200. */
class Receiver extends WebhookReceiver<Received> {
  private readonly scripts = new Map<string, Answer[]>();

  endpointAnswering(script: Answer[] = []): string {
    const endpoint = this.endpoint();
    this.scripts.set(new URL(endpoint).pathname, script);
    return endpoint;
  }

  protected receive(request: Delivered, res: ServerResponse): Received {
    const next = this.scripts.get(request.path)?.shift() ?? { status: 200 };
    res.writeHead(next.status, next.headers ?? {}).end();
    return { ...request, receivedAt: Date.now() };
  }
}

/** The Ed25519 signatures, checked as a receiver would with the webhook's public key. */
function signedByWebhook(request: Received, publicKey: string): boolean {
  const key = createPublicKey(publicKey);
  const plug = verify(null, Buffer.from(`${String(request.headers['x-plug-date'])}\n${request.body}`), key, Buffer.from(String(request.headers['x-plug-signature']), 'hex'));
  const v1a = String(request.headers['webhook-signature'])
    .split(' ')
    .map((entry) => entry.split(','))
    .find(([scheme]) => scheme === 'v1a');
  const content = `${String(request.headers['webhook-id'])}.${String(request.headers['webhook-timestamp'])}.${request.body}`;
  return plug && v1a !== undefined && verify(null, Buffer.from(content), key, Buffer.from(v1a[1] ?? '', 'base64'));
}

/** The event names the tables of docs/events.md document. */
function documentedEventNames(): string[] {
  const text = readFileSync(path.join(__dirname, '..', '..', 'docs', 'events.md'), 'utf8');
  return [...text.matchAll(/^\| `[a-z_.]+` \| `([a-z_.]+)` \|/gm)].map((m) => m[1]!);
}

const DAY = 86_400_000;
const idOf = (request: Received) => String(request.headers['webhook-id']);

describe('webhooks through the gateway: Retry-After, recovery of past events, the event catalogue', () => {
  let platform: TestPlatform;
  let api: ReturnType<typeof apiClient>;
  const receiver = new Receiver();

  beforeAll(async () => {
    await receiver.start();
    // The product's retry schedule (5 min first): a retry within seconds can only be one a receiver asked for.
    platform = await startTestPlatform('e2ewhrec');
    api = apiClient(platform.gatewayUrl);
  }, 120_000);
  afterAll(async () => {
    await platform?.stop();
    await receiver.stop();
  });

  async function storeWithWebhook(name: string, script: Answer[] = []): Promise<{ client: Credentials; webhook: { id: string; publicKey: string }; endpoint: string }> {
    const client = await createClient(platform.adminUrl, platform.adminToken, name);
    const endpoint = receiver.endpointAnswering(script);
    const created = await api<{ id: string; publicKey: string }>('POST', '/v1/webhooks', { auth: client, body: { event: '*', endpoint, version: 1.1, status: true } });
    expect(created.status).toBe(201);
    return { client, webhook: created.body, endpoint };
  }

  /** A change that publishes an event (customer.created); answers the customer id. */
  async function createCustomer(client: Credentials): Promise<string> {
    const n = String(randomInt(10_000_000_000, 99_999_999_999));
    const response = await api<{ id: string }>('POST', '/v1/customers', {
      auth: client,
      body: { name: `Ana ${n}`, email: `ana.${n}@example.com`, phoneNumber: '11999990000', document: { type: 'cpf', number: n, country: 'BR' } },
    });
    expect(response.status).toBe(201);
    return response.body.id;
  }

  /** The event ids delivered for these customers, once each has arrived. */
  async function deliveredFor(endpoint: string, customerIds: string[]): Promise<string[]> {
    return eventually(() => {
      const byCustomer = new Map(receiver.at(endpoint).map((r) => [(JSON.parse(r.body) as { data: { id: string } }).data.id, idOf(r)]));
      return customerIds.every((id) => byCustomer.has(id)) ? customerIds.map((id) => byCustomer.get(id)!) : undefined;
    }, `deliveries for ${customerIds.length} customers`);
  }

  it('tries a receiver that answered 429 with Retry-After: 2 again about 2 seconds later, not on the schedule', async () => {
    const { client, webhook, endpoint } = await storeWithWebhook('Busy Store', [{ status: 429, headers: { 'retry-after': '2' } }]);
    await createCustomer(client);
    const [first, second] = await eventually(() => (receiver.at(endpoint).length >= 2 ? receiver.at(endpoint) : undefined), 'the attempt after the wait');
    const gap = second!.receivedAt - first!.receivedAt;
    expect(gap).toBeGreaterThanOrEqual(1_500);
    expect(gap).toBeLessThan(10_000);
    expect(idOf(second!)).toBe(idOf(first!));
    expect(second!.body).toBe(first!.body);

    const log = await eventually(async () => {
      const page = await api<{ items: Array<{ status: string; attempts: Array<{ statusCode: number }> }> }>('GET', `/v1/webhooks/${webhook.id}/deliveries`, { auth: client });
      return page.body.items[0]?.status === 'succeeded' ? page.body.items[0] : undefined;
    }, 'the delivery succeeded');
    expect(log.attempts.map((a) => a.statusCode)).toEqual([429, 200]);
  });

  it('recovers exactly the events since the given time, with their original ids and bodies, and refuses what it must', async () => {
    const { client, webhook, endpoint } = await storeWithWebhook('Recovering Store');
    const earlier = await deliveredFor(endpoint, [await createCustomer(client), await createCustomer(client)]);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const since = new Date().toISOString();
    await new Promise((resolve) => setTimeout(resolve, 50));
    const later = await deliveredFor(endpoint, [await createCustomer(client), await createCustomer(client)]);
    const firstBodies = new Map(receiver.at(endpoint).map((r) => [idOf(r), r.body]));
    expect(receiver.at(endpoint)).toHaveLength(4);

    const recovered = await api<{ webhookId: string; since: string; until: string; events: number }>('POST', `/v1/webhooks/${webhook.id}/recover`, {
      auth: client,
      body: { since },
    });
    expect(recovered.status).toBe(202);
    expect(recovered.body).toEqual({ webhookId: webhook.id, since, until: expect.any(String), events: 2 });

    await eventually(() => (receiver.at(endpoint).length >= 6 ? true : undefined), 'the recovered events');
    const resent = receiver.at(endpoint).slice(4);
    expect(resent.map(idOf).sort()).toEqual([...later].sort());
    for (const request of resent) {
      expect(request.body).toBe(firstBodies.get(idOf(request)));
      expect((JSON.parse(request.body) as { id: string }).id).toBe(idOf(request));
      expect(signedByWebhook(request, webhook.publicKey)).toBe(true);
    }
    const log = await eventually(async () => {
      const page = await api<{ items: Array<{ eventId: string; status: string; attempts: unknown[] }> }>('GET', `/v1/webhooks/${webhook.id}/deliveries`, { auth: client });
      return page.body.items.every((d) => d.status === 'succeeded') ? page.body.items : undefined;
    }, 'the delivery log settled');
    expect(Object.fromEntries(log.map((d) => [d.eventId, d.attempts.length]))).toEqual(Object.fromEntries([...earlier.map((id) => [id, 1]), ...later.map((id) => [id, 2])]));
    // The earlier events never come again.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(receiver.at(endpoint)).toHaveLength(6);

    const refused = async (body: unknown) => {
      const response = await api<{ error: { details?: Array<{ field: string }> } }>('POST', `/v1/webhooks/${webhook.id}/recover`, { auth: client, body });
      return { status: response.status, fields: response.body.error?.details?.map((d) => d.field) };
    };
    expect(await refused({ since: new Date(Date.now() + 60_000).toISOString() })).toEqual({ status: 400, fields: ['since'] });
    expect(await refused({ since: new Date(Date.now() - 15 * DAY).toISOString() })).toEqual({ status: 400, fields: ['since'] });
    expect(await refused({ since: 'yesterday' })).toEqual({ status: 400, fields: ['since'] });
    expect(await refused({})).toEqual({ status: 400, fields: ['since'] });

    const stranger = await createClient(platform.adminUrl, platform.adminToken, 'Stranger');
    const foreign = await api('POST', `/v1/webhooks/${webhook.id}/recover`, { auth: stranger, body: { since } });
    expect(foreign.status).toBe(404);

    expect((await api('PATCH', `/v1/webhooks/${webhook.id}`, { auth: client, body: { status: false } })).status).toBe(200);
    const disabled = await api<{ error: { businessCode: string } }>('POST', `/v1/webhooks/${webhook.id}/recover`, { auth: client, body: { since } });
    expect(disabled.status).toBe(422);
    expect(disabled.body.error.businessCode).toBe('webhook_disabled');
  });

  it('answers the event catalogue, with exactly the names docs/events.md documents, at a path no webhook id takes', async () => {
    const client = await createClient(platform.adminUrl, platform.adminToken, 'Catalogue Reader');
    const response = await api<{ items: Array<{ name: string; object: string; description: string; example: Record<string, unknown> }> }>(
      'GET',
      '/v1/webhooks/event-types',
      { auth: client },
    );
    expect(response.status).toBe(200);
    const names = response.body.items.map((t) => t.name);
    expect([...names].sort()).toEqual(documentedEventNames().sort());
    expect(new Set(names).size).toBe(names.length);
    for (const type of response.body.items) {
      expect(type.description.length).toBeGreaterThan(10);
      expect(type.example).toEqual({ id: expect.any(String), createdAt: expect.any(String), object: type.object, event: type.name, apiVersion: 1.1, data: expect.any(Object) });
    }
    expect(response.body.items.find((t) => t.name === 'authorized')?.example).toMatchObject({ object: 'transaction', data: { status: 'authorized', currency: 'BRL' } });
    // A webhook id is still read as one beside it.
    expect((await api('GET', `/v1/webhooks/${randomUUID()}`, { auth: client })).status).toBe(404);
  });
});
