import { randomBytes, randomUUID } from 'node:crypto';
import path from 'node:path';
import { AppError, createLogger, createPool, KIT_MIGRATIONS_DIR, migrate, toPage, withTransaction, type Pool } from '@platform/kit';
import { createTestDatabase } from '@platform/testkit';
import type { Webhook } from '../../src/domain/webhook';
import { createDeliveryStore } from '../../src/store/deliveryStore';
import { createWebhookStore } from '../../src/store/webhookStore';

const log = createLogger({ name: 'webhooks-store-test', level: 'silent' });
const webhooks = createWebhookStore();
const deliveries = createDeliveryStore();
let pool: Pool;

beforeAll(async () => {
  pool = createPool({ url: await createTestDatabase('webhooks_store'), log, size: 30 });
  await migrate(pool, [KIT_MIGRATIONS_DIR, path.join(__dirname, '..', '..', 'migrations')], log);
});

afterAll(async () => {
  await pool.end();
});

let counter = 0;
function newWebhook(clientId: string, overrides: Partial<Webhook> = {}): Webhook {
  counter += 1;
  const at = new Date(Date.UTC(2026, 0, 1, 0, 0, counter));
  return {
    id: randomUUID(),
    clientId,
    event: '*',
    endpoint: `https://hooks.example.com/${randomUUID()}`,
    version: 1.1,
    active: true,
    publicKey: '-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VwAyEA\n-----END PUBLIC KEY-----\n',
    createdAt: at,
    updatedAt: at,
    ...overrides,
  };
}

const sealedPair = () => ({ privateKey: randomBytes(48), secret: randomBytes(61) });
const insert = (webhook: Webhook) => webhooks.insert(pool, webhook, sealedPair());

async function conflictKey(call: Promise<unknown>): Promise<string | undefined> {
  try {
    await call;
  } catch (error) {
    if (error instanceof AppError && error.kind === 'conflict') return error.key;
    throw error;
  }
  throw new Error('expected a conflict');
}

describe('webhook store', () => {
  it('stores and reads back a webhook, version as a number', async () => {
    const clientId = randomUUID();
    const webhook = newWebhook(clientId);
    expect(await insert(webhook)).toEqual(webhook);
    expect(await webhooks.findById(pool, clientId, webhook.id)).toEqual(webhook);
  });

  it('never finds, lists, changes or deletes a webhook for another client', async () => {
    const owner = randomUUID();
    const stranger = randomUUID();
    const webhook = await insert(newWebhook(owner));
    expect(await webhooks.findById(pool, stranger, webhook.id)).toBeNull();
    expect((await webhooks.list(pool, stranger, toPage({}))).totalItems).toBe(0);
    expect(await webhooks.update(pool, { ...webhook, clientId: stranger, endpoint: 'https://evil.example.com/' })).toBeNull();
    expect(await webhooks.disable(pool, stranger, webhook.id, new Date())).toBeNull();
    expect(await webhooks.delete(pool, stranger, webhook.id)).toBeNull();
    expect(await webhooks.listeners(pool, stranger, 'authorized', new Date())).toEqual([]);
    expect(await webhooks.findById(pool, owner, webhook.id)).toEqual(webhook);
  });

  it('answers null for a malformed id instead of a database error', async () => {
    await expect(webhooks.findById(pool, randomUUID(), 'nope')).resolves.toBeNull();
    await expect(webhooks.delete(pool, randomUUID(), "x' OR '1'='1")).resolves.toBeNull();
    await expect(deliveries.findById(pool, randomUUID(), 'nope', randomUUID())).resolves.toBeNull();
    await expect(deliveries.list(pool, randomUUID(), 'nope', toPage({}))).resolves.toEqual({ items: [], totalItems: 0 });
  });

  it('refuses a second webhook for the same event of a client, but not of another client', async () => {
    const clientId = randomUUID();
    await insert(newWebhook(clientId, { event: 'authorized' }));
    expect(await conflictKey(insert(newWebhook(clientId, { event: 'authorized' })))).toBe('webhook_event_exists');
    await insert(newWebhook(clientId, { event: 'voided' }));
    await insert(newWebhook(randomUUID(), { event: 'authorized' }));
  });

  it("refuses an endpoint the client already has, but not another client's identical endpoint", async () => {
    const endpoint = `https://hooks.example.com/${randomUUID()}`;
    const clientId = randomUUID();
    await insert(newWebhook(clientId, { endpoint, event: 'authorized' }));
    expect(await conflictKey(insert(newWebhook(clientId, { endpoint, event: 'voided' })))).toBe('webhook_endpoint_exists');
    const other = await insert(newWebhook(clientId, { event: 'pending' }));
    expect(await conflictKey(webhooks.update(pool, { ...other, endpoint }))).toBe('webhook_endpoint_exists');

    const elsewhere = await insert(newWebhook(randomUUID(), { endpoint }));
    expect(elsewhere.endpoint).toBe(endpoint);
    const moved = await insert(newWebhook(randomUUID()));
    expect(await webhooks.update(pool, { ...moved, endpoint })).toMatchObject({ id: moved.id, endpoint });
    const { rows } = await pool.query('SELECT count(*)::int AS n FROM webhooks WHERE endpoint = $1', [endpoint]);
    expect(rows[0].n).toBe(3);
  });

  it('lets exactly one of 20 concurrent registrations of the same endpoint by one client succeed', async () => {
    const endpoint = `https://hooks.example.com/${randomUUID()}`;
    const clientId = randomUUID();
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, (_, i) => withTransaction(pool, (tx) => webhooks.insert(tx, newWebhook(clientId, { endpoint, event: `event-${i}` }), sealedPair()))),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected').map((r) => (r.reason as AppError).key);
    expect(refused).toEqual(Array(19).fill('webhook_endpoint_exists'));
    const { rows } = await pool.query('SELECT count(*)::int AS n FROM webhooks WHERE endpoint = $1', [endpoint]);
    expect(rows[0].n).toBe(1);
  });

  it('pages newest first, or oldest first when asked', async () => {
    const clientId = randomUUID();
    const created: Webhook[] = [];
    for (const event of ['pending', 'authorized', 'voided']) created.push(await insert(newWebhook(clientId, { event })));
    const newest = await webhooks.list(pool, clientId, toPage({ limit: 2 }));
    expect(newest.totalItems).toBe(3);
    expect(newest.items.map((w) => w.id)).toEqual([created[2]!.id, created[1]!.id]);
    const oldest = await webhooks.list(pool, clientId, toPage({ page: 2, limit: 2, sort: 'asc' }));
    expect(oldest.items.map((w) => w.id)).toEqual([created[2]!.id]);
  });

  it('finds the listeners of an event: active, by name or "*", registered before it happened', async () => {
    const clientId = randomUUID();
    const at = new Date('2026-02-01T00:00:00Z');
    const all = await insert(newWebhook(clientId, { event: '*', createdAt: at, updatedAt: at }));
    const authorized = await insert(newWebhook(clientId, { event: 'authorized', createdAt: at, updatedAt: at }));
    await insert(newWebhook(clientId, { event: 'voided', createdAt: at, updatedAt: at }));
    await insert(newWebhook(clientId, { event: 'pending', active: false, createdAt: at, updatedAt: at }));
    const later = new Date('2026-02-02T00:00:00Z');
    expect((await webhooks.listeners(pool, clientId, 'authorized', later)).map((w) => w.id)).toEqual([all.id, authorized.id]);
    expect((await webhooks.listeners(pool, clientId, 'pending', later)).map((w) => w.id)).toEqual([all.id]);
    expect(await webhooks.listeners(pool, clientId, 'authorized', new Date('2026-01-31T00:00:00Z'))).toEqual([]);
  });

  it('keeps the sealed secret given at registration and replaces the secrets of a rotation, scoped by client', async () => {
    const clientId = randomUUID();
    const webhook = newWebhook(clientId);
    const sealed = sealedPair();
    await webhooks.insert(pool, webhook, sealed);
    expect(await webhooks.secrets(pool, clientId, webhook.id)).toEqual({ current: sealed.secret, previous: null, previousExpiresAt: null });

    const rotated = { current: randomBytes(61), previous: sealed.secret, previousExpiresAt: new Date('2026-03-02T00:00:00Z') };
    expect(await webhooks.setSecrets(pool, randomUUID(), webhook.id, { current: randomBytes(61), previous: null, previousExpiresAt: null })).toBe(false);
    expect(await webhooks.secrets(pool, randomUUID(), webhook.id)).toBeNull();
    expect(await webhooks.setSecrets(pool, clientId, webhook.id, rotated)).toBe(true);
    expect(await webhooks.secrets(pool, clientId, webhook.id)).toEqual(rotated);
    // Secrets are no part of the webhook as it is read, listed or delivered to.
    expect(await webhooks.findById(pool, clientId, webhook.id)).toEqual(webhook);
    expect(await webhooks.secrets(pool, clientId, 'not-a-uuid')).toBeNull();
    expect(await webhooks.setSecrets(pool, clientId, 'not-a-uuid', rotated)).toBe(false);
  });

  it('refuses a previous secret without the end of its overlap, or the reverse', async () => {
    const clientId = randomUUID();
    const webhook = await insert(newWebhook(clientId));
    await expect(webhooks.setSecrets(pool, clientId, webhook.id, { current: randomBytes(61), previous: randomBytes(61), previousExpiresAt: null })).rejects.toThrow(
      /webhooks_previous_secret_expiry/,
    );
    await expect(webhooks.setSecrets(pool, clientId, webhook.id, { current: randomBytes(61), previous: null, previousExpiresAt: new Date() })).rejects.toThrow(
      /webhooks_previous_secret_expiry/,
    );
  });

  it('finds the webhooks without a secret (from before secrets) and gives each one only where none is set', async () => {
    const clientId = randomUUID();
    const a = await insert(newWebhook(clientId, { event: 'pending' }));
    const b = await insert(newWebhook(clientId, { event: 'authorized' }));
    const withSecret = await insert(newWebhook(clientId, { event: 'voided' }));
    await pool.query('UPDATE webhooks SET sealed_secret = NULL WHERE id = ANY($1::uuid[])', [[a.id, b.id]]);
    const missing = await webhooks.withoutSecret(pool, 1_000);
    expect(missing).toEqual(expect.arrayContaining([{ clientId, id: a.id }, { clientId, id: b.id }]));
    expect(missing.map((w) => w.id)).not.toContain(withSecret.id);
    expect(await webhooks.withoutSecret(pool, 1)).toHaveLength(1);

    const forA = randomBytes(61);
    const given = await webhooks.giveSecrets(pool, [
      { clientId, id: a.id, sealed: forA },
      // Another client's id names nothing; a webhook with a secret keeps it.
      { clientId: randomUUID(), id: b.id, sealed: randomBytes(61) },
      { clientId, id: withSecret.id, sealed: randomBytes(61) },
    ]);
    expect(given).toBe(1);
    expect((await webhooks.secrets(pool, clientId, a.id))!.current).toEqual(forA);
    expect((await webhooks.secrets(pool, clientId, b.id))!.current).toBeNull();
    expect(await webhooks.giveSecrets(pool, [{ clientId, id: a.id, sealed: randomBytes(61) }])).toBe(0);
    expect((await webhooks.secrets(pool, clientId, a.id))!.current).toEqual(forA);
    expect(await webhooks.giveSecrets(pool, [])).toBe(0);
  });
});

describe('delivery store', () => {
  it('keeps one delivery per webhook and event, with its attempts in order, scoped by client', async () => {
    const clientId = randomUUID();
    const webhook = await insert(newWebhook(clientId));
    const eventId = randomUUID();
    const id = randomUUID();
    const at = new Date('2026-03-01T00:00:00Z');
    const base = { clientId, webhookId: webhook.id, eventId, event: 'authorized', body: '{"id":"x"}', at };
    expect(await deliveries.insert(pool, { id, ...base })).toBe(true);
    expect(await deliveries.insert(pool, { id: randomUUID(), ...base })).toBe(false);

    await deliveries.recordAttempt(pool, id, { attemptedAt: at, statusCode: 500, durationMs: 12, error: null });
    await deliveries.recordAttempt(pool, id, { attemptedAt: at, statusCode: null, durationMs: 15000, error: 'no answer within 15000 ms' });
    const delivery = await deliveries.findById(pool, clientId, webhook.id, id);
    expect(delivery).toEqual({
      id,
      webhookId: webhook.id,
      eventId,
      event: 'authorized',
      status: 'pending',
      attempts: [
        { attemptedAt: at, statusCode: 500, durationMs: 12, error: null },
        { attemptedAt: at, statusCode: null, durationMs: 15000, error: 'no answer within 15000 ms' },
      ],
      nextAttemptAt: at,
      createdAt: at,
      updatedAt: at,
    });
    expect(await deliveries.findById(pool, randomUUID(), webhook.id, id)).toBeNull();
    expect(await deliveries.findTarget(pool, randomUUID(), id)).toBeNull();
    expect((await deliveries.list(pool, randomUUID(), webhook.id, toPage({}))).totalItems).toBe(0);
    expect((await deliveries.findTarget(pool, clientId, id))?.body).toBe('{"id":"x"}');
  });

  it('settles only the round it was attempted in, and a restart opens a new one', async () => {
    const clientId = randomUUID();
    const webhook = await insert(newWebhook(clientId));
    const id = randomUUID();
    const at = new Date();
    await deliveries.insert(pool, { id, clientId, webhookId: webhook.id, eventId: randomUUID(), event: 'pending', body: '{}', at });
    expect(await deliveries.settle(pool, clientId, id, 0, { status: 'failed', failures: 7, nextAttemptAt: null, at })).toBe(true);
    expect(await deliveries.settle(pool, clientId, id, 0, { status: 'succeeded', failures: 7, nextAttemptAt: null, at })).toBe(false);
    expect(await deliveries.restart(pool, clientId, id, at)).toBe(1);
    expect(await deliveries.settle(pool, clientId, id, 0, { status: 'succeeded', failures: 0, nextAttemptAt: null, at })).toBe(false);
    expect(await deliveries.findTarget(pool, clientId, id)).toMatchObject({ status: 'pending', failures: 0, round: 1 });
    expect(await deliveries.settle(pool, clientId, id, 1, { status: 'succeeded', failures: 0, nextAttemptAt: null, at })).toBe(true);
  });

  it('records an attempt and settles it in one statement; another round keeps the attempt but is not settled; another client writes nothing', async () => {
    const clientId = randomUUID();
    const webhook = await insert(newWebhook(clientId));
    const id = randomUUID();
    const at = new Date('2026-03-02T00:00:00Z');
    await deliveries.insert(pool, { id, clientId, webhookId: webhook.id, eventId: randomUUID(), event: 'pending', body: '{}', at });
    const attempt = { attemptedAt: at, statusCode: 500, durationMs: 3, error: null };
    expect(await deliveries.recordAndSettle(pool, clientId, id, 0, attempt, { status: 'pending', failures: 1, nextAttemptAt: at, at })).toBe(true);
    expect(await deliveries.findTarget(pool, clientId, id)).toMatchObject({ status: 'pending', failures: 1, round: 0 });
    expect(await deliveries.recordAndSettle(pool, clientId, id, 1, { ...attempt, statusCode: 200 }, { status: 'succeeded', failures: 1, nextAttemptAt: null, at })).toBe(false);
    expect(await deliveries.recordAndSettle(pool, randomUUID(), id, 0, attempt, { status: 'failed', failures: 9, nextAttemptAt: null, at })).toBe(false);
    const delivery = await deliveries.findById(pool, clientId, webhook.id, id);
    expect(delivery?.status).toBe('pending');
    // Another client's call wrote nothing.
    expect(delivery?.attempts.map((a) => a.statusCode)).toEqual([500, 200]);
  });

  it('goes with its webhook when the webhook is deleted', async () => {
    const clientId = randomUUID();
    const webhook = await insert(newWebhook(clientId));
    const id = randomUUID();
    await deliveries.insert(pool, { id, clientId, webhookId: webhook.id, eventId: randomUUID(), event: 'pending', body: '{}', at: new Date() });
    await deliveries.recordAttempt(pool, id, { attemptedAt: new Date(), statusCode: 500, durationMs: 1, error: null });
    await webhooks.delete(pool, clientId, webhook.id);
    expect(await deliveries.findTarget(pool, clientId, id)).toBeNull();
  });
});
