import { createPublicKey, randomUUID } from 'node:crypto';
import { toWebhookJson } from '@platform/api-model';
import { PUBLIC_EVENT_NAMES } from '../../src/domain/publicEvents';
import { secretKeyOf } from '../../src/domain/signatures';
import { KeySealer } from '../../src/signing/keySealer';
import { failureOf, outboxOf, startWebhooks, webhookRequest, webhooksSetup, type RunningWebhooks, type WebhooksSetup } from '../support/service';

let setup: WebhooksSetup;
let running: RunningWebhooks;

beforeAll(async () => {
  setup = await webhooksSetup();
  running = await startWebhooks(setup);
});

afterAll(async () => {
  await running.stop();
});

const endpoint = () => `https://hooks.example.com/${randomUUID()}`;

describe('CreateWebhook', () => {
  it('registers a webhook with its own Ed25519 public key and secret, and records webhooks.webhook.created with the public key only', async () => {
    const clientId = randomUUID();
    const url = endpoint();
    const webhook = await running.client.createWebhook(webhookRequest(clientId, url, { event: 'authorized' }));
    expect(webhook).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      clientId,
      event: 'authorized',
      endpoint: url,
      version: 1.1,
      status: true,
      publicKey: expect.stringMatching(/^-----BEGIN PUBLIC KEY-----/),
      createdAt: expect.any(Date),
      updatedAt: expect.any(Date),
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
    });
    expect(createPublicKey(webhook.publicKey).asymmetricKeyType).toBe('ed25519');
    // The secret is answered once: never by a read or a list.
    const { secret, ...withoutSecret } = webhook;
    const read = await running.client.getWebhook({ clientId, id: webhook.id });
    expect(read).toEqual(withoutSecret);
    expect(read.secret).toBeUndefined();
    expect((await running.client.listWebhooks({ clientId })).items.map((w) => w.secret)).toEqual([undefined]);
    const events = await outboxOf(running.pool, clientId);
    expect(events.map((e) => e.subject)).toEqual(['webhooks.webhook.created']);
    expect(events[0]!.payload.data).toEqual({
      id: webhook.id,
      clientId,
      event: 'authorized',
      endpoint: url,
      version: 1.1,
      status: true,
      publicKey: webhook.publicKey,
      createdAt: webhook.createdAt!.toISOString(),
      updatedAt: webhook.updatedAt!.toISOString(),
    });
    // The REST answer and the event data are one shape.
    expect(events[0]!.payload.data).toEqual(toWebhookJson(webhook));
    const { rows } = await running.pool.query('SELECT sealed_private_key, sealed_secret FROM webhooks WHERE id = $1', [webhook.id]);
    expect(rows[0].sealed_private_key).toBeInstanceOf(Buffer);
    expect(JSON.stringify(events)).not.toContain('PRIVATE KEY');
    expect(JSON.stringify(events)).not.toContain(rows[0].sealed_private_key.toString('base64'));
    // Sealed at rest: neither the secret nor its key bytes are in the row, nor in any event.
    const key = secretKeyOf(secret!);
    expect(rows[0].sealed_secret).toBeInstanceOf(Buffer);
    expect(rows[0].sealed_secret.includes(key)).toBe(false);
    const { rows: whole } = await running.pool.query('SELECT w::text AS text FROM webhooks w WHERE id = $1', [webhook.id]);
    expect(whole[0].text).not.toContain(key.toString('hex'));
    expect(JSON.stringify(events)).not.toContain(secret!.slice('whsec_'.length));
  });

  it('gives every webhook a different secret', async () => {
    const clientId = randomUUID();
    const a = await running.client.createWebhook(webhookRequest(clientId, endpoint(), { event: 'pending' }));
    const b = await running.client.createWebhook(webhookRequest(clientId, endpoint(), { event: 'voided' }));
    expect(a.secret).not.toBe(b.secret);
  });

  it('gives every webhook a different key pair', async () => {
    const clientId = randomUUID();
    const a = await running.client.createWebhook(webhookRequest(clientId, endpoint(), { event: 'pending' }));
    const b = await running.client.createWebhook(webhookRequest(clientId, endpoint(), { event: 'voided' }));
    expect(a.publicKey).not.toBe(b.publicKey);
  });

  it('defaults version to 1 and status to active', async () => {
    const webhook = await running.client.createWebhook({ clientId: randomUUID(), event: '*', endpoint: endpoint() });
    expect(webhook).toMatchObject({ version: 1, status: true });
  });

  it('refuses an unknown event, a bad endpoint and a private IP endpoint with a detail per field', async () => {
    const error = await failureOf(running.client.createWebhook({ clientId: randomUUID(), event: 'charge.paid', endpoint: 'http://10.1.2.3/hook', version: 0 }));
    expect(error.kind).toBe('validation');
    expect(error.details).toEqual([
      { field: 'event', message: 'must be "*" or an event of the catalogue (docs/events.md)' },
      { field: 'endpoint', message: 'must reach a public address (10.1.2.3 is private)' },
      { field: 'version', message: 'must be a positive number such as 1.1' },
    ]);
    const loopback = await failureOf(running.client.createWebhook(webhookRequest(randomUUID(), 'http://127.0.0.1:9999/hook')));
    expect(loopback.details).toEqual([{ field: 'endpoint', message: 'must reach a public address (127.0.0.1 is loopback)' }]);
  });

  it('answers conflict webhook_event_exists for a second webhook of the same event', async () => {
    const clientId = randomUUID();
    await running.client.createWebhook(webhookRequest(clientId, endpoint(), { event: '*' }));
    const error = await failureOf(running.client.createWebhook(webhookRequest(clientId, endpoint(), { event: '*' })));
    expect(error.kind).toBe('conflict');
    expect(error.key).toBe('webhook_event_exists');
  });

  it('answers conflict webhook_endpoint_exists for an endpoint the client already has, and exactly one of 10 racing registrations wins', async () => {
    const clientId = randomUUID();
    const url = endpoint();
    await running.client.createWebhook(webhookRequest(clientId, url, { event: 'authorized' }));
    const error = await failureOf(running.client.createWebhook(webhookRequest(clientId, url, { event: 'voided' })));
    expect(error.kind).toBe('conflict');
    expect(error.key).toBe('webhook_endpoint_exists');

    const racer = randomUUID();
    const raced = endpoint();
    const events = PUBLIC_EVENT_NAMES.slice(0, 10);
    expect(events).toHaveLength(10);
    const results = await Promise.allSettled(events.map((event) => running.client.createWebhook(webhookRequest(racer, raced, { event }))));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(results.filter((r): r is PromiseRejectedResult => r.status === 'rejected').map((r) => (r.reason as { key?: string }).key)).toEqual(
      Array(9).fill('webhook_endpoint_exists'),
    );
  });

  it("registers an endpoint another client already has: no conflict, and nothing learned of the other's webhook", async () => {
    const url = endpoint();
    const first = await running.client.createWebhook(webhookRequest(randomUUID(), url));
    const otherClient = randomUUID();
    const second = await running.client.createWebhook(webhookRequest(otherClient, url));
    expect(second).toMatchObject({ clientId: otherClient, endpoint: url });
    expect(second.id).not.toBe(first.id);
    expect((await running.client.listWebhooks({ clientId: otherClient })).items.map((w) => w.id)).toEqual([second.id]);
  });

  it('replays the same webhook, secret included, for the same idempotency key, and keeps the secret sealed in the record', async () => {
    const clientId = randomUUID();
    const request = webhookRequest(clientId, endpoint());
    const idempotencyKey = randomUUID();
    const first = await running.client.createWebhook(request, { idempotencyKey });
    expect(first.secret).toMatch(/^whsec_/);
    expect(await running.client.createWebhook(request, { idempotencyKey })).toEqual(first);
    expect((await running.client.listWebhooks({ clientId })).items).toHaveLength(1);
    const { rows } = await running.pool.query('SELECT response FROM idempotency_keys WHERE client_id = $1 AND key = $2', [clientId, idempotencyKey]);
    expect(rows[0].response).toBeInstanceOf(Buffer);
    expect(rows[0].response.includes(Buffer.from(first.secret!))).toBe(false);
    expect(rows[0].response.includes(secretKeyOf(first.secret!))).toBe(false);
  });
});

describe('ListWebhooks, GetWebhook', () => {
  it("pages a client's webhooks newest first and never shows another client's", async () => {
    const clientId = randomUUID();
    const created = [];
    for (const event of ['pending', 'authorized', 'voided']) created.push(await running.client.createWebhook(webhookRequest(clientId, endpoint(), { event })));
    const page = await running.client.listWebhooks({ clientId, page: { page: 1, limit: 2, sort: 'DESC' } });
    expect(page.items.map((w) => w.id)).toEqual([created[2]!.id, created[1]!.id]);
    expect(page.meta).toEqual({ itemCount: 2, totalItems: 3, itemsPerPage: 2, totalPages: 2, currentPage: 1 });
    const stranger = randomUUID();
    expect((await running.client.listWebhooks({ clientId: stranger })).items).toEqual([]);
    expect((await failureOf(running.client.getWebhook({ clientId: stranger, id: created[0]!.id }))).kind).toBe('not_found');
    expect((await failureOf(running.client.getWebhook({ clientId, id: 'not-a-uuid' }))).kind).toBe('not_found');
  });
});

describe('UpdateWebhook', () => {
  it('changes event, endpoint, version and status and records webhooks.webhook.updated', async () => {
    const clientId = randomUUID();
    const webhook = await running.client.createWebhook(webhookRequest(clientId, endpoint(), { event: 'authorized' }));
    const url = endpoint();
    const updated = await running.client.updateWebhook({ clientId, id: webhook.id, event: 'voided', endpoint: url, version: 2, status: false });
    expect(updated).toEqual({ ...webhook, secret: undefined, event: 'voided', endpoint: url, version: 2, status: false, updatedAt: expect.any(Date) });
    const partial = await running.client.updateWebhook({ clientId, id: webhook.id, status: true });
    expect(partial).toMatchObject({ event: 'voided', endpoint: url, version: 2, status: true, publicKey: webhook.publicKey });
    expect((await outboxOf(running.pool, clientId)).map((e) => e.subject)).toEqual([
      'webhooks.webhook.created',
      'webhooks.webhook.updated',
      'webhooks.webhook.updated',
    ]);
  });

  it('refuses nothing to change, bad values, conflicts and foreign ids', async () => {
    const clientId = randomUUID();
    const a = await running.client.createWebhook(webhookRequest(clientId, endpoint(), { event: 'pending' }));
    const b = await running.client.createWebhook(webhookRequest(clientId, endpoint(), { event: 'failed' }));
    expect((await failureOf(running.client.updateWebhook({ clientId, id: a.id }))).kind).toBe('validation');
    expect((await failureOf(running.client.updateWebhook({ clientId, id: a.id, endpoint: 'http://192.168.0.10/' }))).details).toEqual([
      { field: 'endpoint', message: 'must reach a public address (192.168.0.10 is private)' },
    ]);
    expect((await failureOf(running.client.updateWebhook({ clientId, id: a.id, event: 'failed' }))).key).toBe('webhook_event_exists');
    expect((await failureOf(running.client.updateWebhook({ clientId, id: a.id, endpoint: b.endpoint }))).key).toBe('webhook_endpoint_exists');
    expect((await failureOf(running.client.updateWebhook({ clientId: randomUUID(), id: a.id, status: false }))).kind).toBe('not_found');
    expect(await running.client.getWebhook({ clientId, id: a.id })).toEqual({ ...a, secret: undefined });
  });
});

describe('RotateWebhookSecret', () => {
  it('answers a new secret, and not_found for another client, a malformed or an unknown id without changing anything', async () => {
    const clientId = randomUUID();
    const webhook = await running.client.createWebhook(webhookRequest(clientId, endpoint()));
    const sealed = async () => (await running.pool.query('SELECT sealed_secret, sealed_previous_secret FROM webhooks WHERE id = $1', [webhook.id])).rows[0];
    const before = await sealed();
    for (const [who, id] of [
      [randomUUID(), webhook.id],
      [clientId, 'not-a-uuid'],
      [clientId, randomUUID()],
    ] as const) {
      expect((await failureOf(running.client.rotateWebhookSecret({ clientId: who, id }))).kind).toBe('not_found');
    }
    expect((await failureOf(running.client.rotateWebhookSecret({ clientId: 'nope', id: webhook.id }))).kind).toBe('validation');
    expect(await sealed()).toEqual(before);

    const rotated = await running.client.rotateWebhookSecret({ clientId, id: webhook.id });
    expect(rotated).toEqual({ secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/) });
    expect(rotated.secret).not.toBe(webhook.secret);
    const after = await sealed();
    expect(after.sealed_previous_secret).toEqual(before.sealed_secret);
    expect(after.sealed_secret.includes(secretKeyOf(rotated.secret))).toBe(false);
    // Nothing public changed: no event, the webhook reads as before.
    expect((await outboxOf(running.pool, clientId)).map((e) => e.subject)).toEqual(['webhooks.webhook.created']);
    expect(await running.client.getWebhook({ clientId, id: webhook.id })).toEqual({ ...webhook, secret: undefined });
  });

  it('replays the same secret for the same idempotency key without rotating again, and keeps it sealed in the record', async () => {
    const clientId = randomUUID();
    const webhook = await running.client.createWebhook(webhookRequest(clientId, endpoint()));
    const idempotencyKey = randomUUID();
    const first = await running.client.rotateWebhookSecret({ clientId, id: webhook.id }, { idempotencyKey });
    const sealedAfterFirst = (await running.pool.query('SELECT sealed_secret FROM webhooks WHERE id = $1', [webhook.id])).rows[0].sealed_secret as Buffer;
    expect(await running.client.rotateWebhookSecret({ clientId, id: webhook.id }, { idempotencyKey })).toEqual(first);
    expect((await running.pool.query('SELECT sealed_secret FROM webhooks WHERE id = $1', [webhook.id])).rows[0].sealed_secret).toEqual(sealedAfterFirst);
    const { rows } = await running.pool.query('SELECT response FROM idempotency_keys WHERE client_id = $1 AND key = $2', [clientId, idempotencyKey]);
    expect(rows[0].response.includes(Buffer.from(first.secret))).toBe(false);
    expect(rows[0].response.includes(secretKeyOf(first.secret))).toBe(false);
    // Another key rotates again.
    const second = await running.client.rotateWebhookSecret({ clientId, id: webhook.id }, { idempotencyKey: randomUUID() });
    expect(second.secret).not.toBe(first.secret);
  });

  it('takes the id in capitals as the same webhook (its secret is sealed under the stored id)', async () => {
    const clientId = randomUUID();
    const webhook = await running.client.createWebhook(webhookRequest(clientId, endpoint()));
    const rotated = await running.client.rotateWebhookSecret({ clientId, id: webhook.id.toUpperCase() });
    const { rows } = await running.pool.query('SELECT id, sealed_secret FROM webhooks WHERE id = $1', [webhook.id]);
    expect(new KeySealer(Buffer.from(setup.signingKey, 'hex')).openSecret(rows[0].id, rows[0].sealed_secret)).toEqual(secretKeyOf(rotated.secret));
  });
});

describe('DeleteWebhook', () => {
  it('deletes, frees the event and the endpoint, and records webhooks.webhook.deleted', async () => {
    const clientId = randomUUID();
    const webhook = await running.client.createWebhook(webhookRequest(clientId, endpoint(), { event: 'authorized' }));
    expect((await failureOf(running.client.deleteWebhook({ clientId: randomUUID(), id: webhook.id }))).kind).toBe('not_found');
    await running.client.deleteWebhook({ clientId, id: webhook.id });
    expect((await failureOf(running.client.getWebhook({ clientId, id: webhook.id }))).kind).toBe('not_found');
    expect((await failureOf(running.client.deleteWebhook({ clientId, id: webhook.id }))).kind).toBe('not_found');
    const again = await running.client.createWebhook(webhookRequest(clientId, webhook.endpoint, { event: 'authorized' }));
    expect(again.id).not.toBe(webhook.id);
    expect((await outboxOf(running.pool, clientId)).map((e) => e.subject)).toEqual([
      'webhooks.webhook.created',
      'webhooks.webhook.deleted',
      'webhooks.webhook.created',
    ]);
  });
});
