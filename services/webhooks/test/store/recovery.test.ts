import { randomBytes, randomUUID } from 'node:crypto';
import path from 'node:path';
import { createLogger, createPool, KIT_MIGRATIONS_DIR, migrate, type Pool } from '@platform/kit';
import { createTestDatabase } from '@platform/testkit';
import type { Webhook } from '../../src/domain/webhook';
import { createDeliveryStore, type RecoveryWindow } from '../../src/store/deliveryStore';
import { createWebhookStore } from '../../src/store/webhookStore';

const log = createLogger({ name: 'webhooks-recovery-store-test', level: 'silent' });
const webhooks = createWebhookStore();
const deliveries = createDeliveryStore();
let pool: Pool;

beforeAll(async () => {
  pool = createPool({ url: await createTestDatabase('webhooks_recovery'), log, size: 10 });
  await migrate(pool, [KIT_MIGRATIONS_DIR, path.join(__dirname, '..', '..', 'migrations')], log);
});

afterAll(async () => {
  await pool.end();
});

const T0 = Date.parse('2026-03-01T00:00:00.000Z');
const at = (minutes: number) => new Date(T0 + minutes * 60_000);

async function newWebhook(clientId: string, event = '*'): Promise<Webhook> {
  const created = at(-60);
  return webhooks.insert(
    pool,
    {
      id: randomUUID(),
      clientId,
      event,
      endpoint: `https://hooks.example.com/${randomUUID()}`,
      version: 1.1,
      active: true,
      publicKey: '-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VwAyEA\n-----END PUBLIC KEY-----\n',
      createdAt: created,
      updatedAt: created,
    },
    { privateKey: randomBytes(48), secret: randomBytes(61) },
  );
}

/** A delivery created at `minute`, left succeeded, failed, pending after failures, or pending for its first attempt. */
async function delivery(webhook: Webhook, minute: number, state: 'succeeded' | 'failed' | 'retrying' | 'queued' | 'waiting') {
  const id = randomUUID();
  await deliveries.insert(pool, { id, clientId: webhook.clientId, webhookId: webhook.id, eventId: randomUUID(), event: 'authorized', body: `{"n":${minute}}`, at: at(minute) });
  const attempt = { attemptedAt: at(minute), statusCode: state === 'succeeded' ? 200 : 500, durationMs: 5, error: null };
  const settle = (status: 'succeeded' | 'failed' | 'pending', failures: number, retryAfterAttempts = 0) =>
    deliveries.recordAndSettle(pool, webhook.clientId, id, 0, attempt, { status, failures, retryAfterAttempts, nextAttemptAt: status === 'pending' ? at(minute + 5) : null, at: at(minute) });
  if (state === 'succeeded') await settle('succeeded', 0);
  if (state === 'failed') await settle('failed', 6);
  if (state === 'retrying') await settle('pending', 2);
  // Waiting out a receiver's Retry-After: pending, no failure counted.
  if (state === 'waiting') await settle('pending', 0, 1);
  return id;
}

async function row(id: string) {
  const { rows } = await pool.query<{ status: string; failures: number; retry_after_attempts: number; round: number; next_attempt_at: Date | null }>(
    'SELECT status, failures, retry_after_attempts, round, next_attempt_at FROM deliveries WHERE id = $1',
    [id],
  );
  return rows[0]!;
}

describe('delivery store: Retry-After counting', () => {
  it('keeps the waits a receiver set apart from the failures, keeps them when a settlement leaves them out, and a restart clears both', async () => {
    const webhook = await newWebhook(randomUUID());
    const id = await delivery(webhook, 0, 'waiting');
    expect(await row(id)).toMatchObject({ status: 'pending', failures: 0, retry_after_attempts: 1 });
    expect((await deliveries.findTarget(pool, webhook.clientId, id))!.retryAfterAttempts).toBe(1);

    expect(await deliveries.settle(pool, webhook.clientId, id, 0, { status: 'pending', failures: 1, nextAttemptAt: at(10), at: at(1) })).toBe(true);
    expect(await row(id)).toMatchObject({ failures: 1, retry_after_attempts: 1 });

    const round = await deliveries.restart(pool, webhook.clientId, id, at(2));
    expect(round).toBe(1);
    expect(await row(id)).toMatchObject({ status: 'pending', failures: 0, retry_after_attempts: 0, round: 1 });
  });
});

describe('delivery store: the walk of a recovery', () => {
  it("starts again, oldest first, each delivery of the window that is not already on its way, paced; and counts the window's deliveries", async () => {
    const webhook = await newWebhook(randomUUID());
    const before = await delivery(webhook, 0, 'succeeded');
    const succeeded = await delivery(webhook, 10, 'succeeded');
    const failed = await delivery(webhook, 11, 'failed');
    const retrying = await delivery(webhook, 12, 'retrying');
    const queued = await delivery(webhook, 13, 'queued');
    const waiting = await delivery(webhook, 14, 'waiting');
    const after = await delivery(webhook, 30, 'succeeded');
    const window: RecoveryWindow = { clientId: webhook.clientId, webhookId: webhook.id, since: at(10), until: at(20) };

    expect(await deliveries.countInWindow(pool, window)).toBe(5);
    const start = at(40);
    const page = await deliveries.restartPage(pool, window, { after: null, limit: 100, start, spacingMs: 50, at: start });
    expect(page.map((p) => p.id)).toEqual([succeeded, failed, retrying, queued, waiting]);
    expect(page.map((p) => p.resent)).toEqual([
      { round: 1, runAt: new Date(start.getTime()) },
      { round: 1, runAt: new Date(start.getTime() + 50) },
      { round: 1, runAt: new Date(start.getTime() + 100) },
      null,
      null,
    ]);
    for (const id of [succeeded, failed, retrying]) expect(await row(id)).toMatchObject({ status: 'pending', failures: 0, retry_after_attempts: 0, round: 1 });
    expect(await row(queued)).toMatchObject({ status: 'pending', round: 0 });
    expect(await row(waiting)).toMatchObject({ status: 'pending', round: 0, retry_after_attempts: 1 });
    for (const id of [before, after]) expect(await row(id)).toMatchObject({ status: 'succeeded', round: 0 });

    // A second walk over the same window while the first one's attempts wait sends nothing twice.
    const again = await deliveries.restartPage(pool, window, { after: null, limit: 100, start, spacingMs: 50, at: start });
    expect(again.map((p) => p.resent)).toEqual([null, null, null, null, null]);
    expect((await row(succeeded)).round).toBe(1);
  });

  it('pages by its cursor, also among deliveries created in the same instant, and reaches the end', async () => {
    const webhook = await newWebhook(randomUUID());
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push(await delivery(webhook, 10, 'succeeded'));
    ids.push(await delivery(webhook, 11, 'succeeded'));
    const window: RecoveryWindow = { clientId: webhook.clientId, webhookId: webhook.id, since: at(10), until: at(11) };
    const seen: string[] = [];
    let after = null;
    for (let step = 0; step < 10; step++) {
      const page = await deliveries.restartPage(pool, window, { after, limit: 2, start: at(40), spacingMs: 0, at: at(40) });
      seen.push(...page.map((p) => p.id));
      if (page.length < 2) break;
      after = page.at(-1)!.cursor;
    }
    expect(seen.sort()).toEqual([...ids].sort());
    expect(new Set(seen).size).toBe(6);
  });

  it('touches nothing of another client or another webhook, and answers nothing for a malformed id', async () => {
    const webhook = await newWebhook(randomUUID());
    const other = await newWebhook(webhook.clientId, 'authorized');
    const id = await delivery(webhook, 10, 'failed');
    const otherId = await delivery(other, 10, 'failed');
    const stranger: RecoveryWindow = { clientId: randomUUID(), webhookId: webhook.id, since: at(0), until: at(20) };
    expect(await deliveries.countInWindow(pool, stranger)).toBe(0);
    expect(await deliveries.restartPage(pool, stranger, { after: null, limit: 100, start: at(40), spacingMs: 0, at: at(40) })).toEqual([]);
    const malformed: RecoveryWindow = { ...stranger, clientId: webhook.clientId, webhookId: 'nope' };
    expect(await deliveries.countInWindow(pool, malformed)).toBe(0);
    expect(await deliveries.restartPage(pool, malformed, { after: null, limit: 100, start: at(40), spacingMs: 0, at: at(40) })).toEqual([]);
    expect(await row(id)).toMatchObject({ status: 'failed', round: 0 });

    const own: RecoveryWindow = { clientId: webhook.clientId, webhookId: webhook.id, since: at(0), until: at(20) };
    expect((await deliveries.restartPage(pool, own, { after: null, limit: 100, start: at(40), spacingMs: 0, at: at(40) })).map((p) => p.id)).toEqual([id]);
    expect(await row(otherId)).toMatchObject({ status: 'failed', round: 0 });
  });
});
