import { randomUUID } from 'node:crypto';
import type { webhooks } from '@platform/contracts';
import { cancelJobs, listJobs, withTransaction, type DomainEvent } from '@platform/kit';
import { RECOVER_JOB, RECOVERY_PAGE_SIZE, RECOVERY_SPACING_MS, scheduleRecovery } from '../../src/app/recoveryJob';
import { PUBLIC_EVENT_NAMES } from '../../src/domain/publicEvents';
import {
  eventually,
  failureOf,
  publishEvent,
  startDeliveryRig,
  verifySignatures,
  webhookRequest,
  type DeliveryRig,
  type ReceivedRequest,
} from '../support/service';

const DAY = 86_400_000;
let rig: DeliveryRig;

beforeAll(async () => {
  // The schedule's first step is an hour: whatever reaches a receiver twice within the test was recovered.
  rig = await startDeliveryRig({ env: { WEBHOOKS_ALLOW_PRIVATE_TARGETS: 'true', WEBHOOKS_RETRY_SCHEDULE: '1h' } });
});

afterAll(async () => {
  await rig.stop();
});

const client = () => rig.running.client;
const idsAt = (endpoint: string) => rig.receiver.to(endpoint).map((r) => String(r.headers['webhook-id']));

async function publishCharges(clientId: string, count: number, ids: string[] = []): Promise<DomainEvent[]> {
  const events: DomainEvent[] = [];
  for (let i = 0; i < count; i++) {
    events.push(await publishEvent(rig.nc, { type: 'payments.charge.authorized', clientId, data: { id: randomUUID(), n: i }, id: ids[i] }));
  }
  return events;
}

async function deliveredOnce(endpoint: string, events: DomainEvent[]): Promise<void> {
  await eventually(() => (events.every((e) => idsAt(endpoint).includes(e.id)) ? true : undefined), `${events.length} deliveries`);
}

async function setUp() {
  const clientId = randomUUID();
  const endpoint = rig.receiver.endpoint();
  const webhook = await client().createWebhook(webhookRequest(clientId, endpoint));
  return { clientId, endpoint, webhook };
}

/** Now on the service's clock (the system's), a little before anything published after the call reaches it. */
async function instant(): Promise<Date> {
  const at = new Date();
  await new Promise((resolve) => setTimeout(resolve, 20));
  return at;
}

describe('RecoverWebhook', () => {
  it('delivers again every event of the webhook since the given time, with its original id and body, signed, in the delivery log', async () => {
    const { clientId, endpoint, webhook } = await setUp();
    const earlier = await publishCharges(clientId, 2);
    await deliveredOnce(endpoint, earlier);
    const since = await instant();
    const path = new URL(endpoint).pathname;
    // The last one fails: it waits for the schedule's hour, and the recovery sends it now.
    const laterIds = [randomUUID(), randomUUID()];
    rig.receiver.answer = (request) => (request.path === path && request.headers['webhook-id'] === laterIds[1] ? 500 : 200);
    const later = await publishCharges(clientId, 2, laterIds);
    await deliveredOnce(endpoint, later);
    const firstBodies = new Map(rig.receiver.to(endpoint).map((r) => [String(r.headers['webhook-id']), r.body]));
    rig.receiver.answer = () => 200;

    const recovery = await client().recoverWebhook({ clientId, id: webhook.id, since });
    expect(recovery).toEqual({ webhookId: webhook.id, since, until: expect.any(Date), events: 2 });
    expect(recovery.until!.getTime()).toBeGreaterThanOrEqual(since.getTime());

    await eventually(() => (idsAt(endpoint).length === 6 ? true : undefined), 'the two recovered events');
    const resent = rig.receiver.to(endpoint).slice(4);
    expect(resent.map((r) => r.headers['webhook-id']).sort()).toEqual(later.map((e) => e.id).sort());
    for (const request of resent) {
      const id = String(request.headers['webhook-id']);
      expect(request.body).toBe(firstBodies.get(id));
      expect(JSON.parse(request.body)).toMatchObject({ id, event: 'authorized' });
      expect(request.headers['x-idempotency-key']).toBe(id);
      expect(verifySignatures(request, webhook.publicKey)).toEqual({ plug: true, standard: true });
    }
    const log = await eventually(async () => {
      const { items } = await client().listDeliveries({ clientId, webhookId: webhook.id });
      return items.every((d) => d.status === 'succeeded') ? items : undefined;
    }, 'the delivery log settled');
    const attempts = new Map(log.map((d) => [d.eventId, d.attempts.map((a) => a.statusCode)]));
    expect(attempts.get(earlier[0]!.id)).toEqual([200]);
    expect(attempts.get(later[0]!.id)).toEqual([200, 200]);
    expect(attempts.get(later[1]!.id)).toEqual([500, 200]);
    // Nothing from before `since` came again.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(idsAt(endpoint)).toHaveLength(6);
  });

  it('walks more than a page of events at a pace, each sent again once', async () => {
    const { clientId, endpoint, webhook } = await setUp();
    const since = await instant();
    const events = await publishCharges(clientId, RECOVERY_PAGE_SIZE + 5);
    await deliveredOnce(endpoint, events);

    const recovery = await client().recoverWebhook({ clientId, id: webhook.id, since });
    expect(recovery.events).toBe(events.length);
    await eventually(() => (idsAt(endpoint).length === 2 * events.length ? true : undefined), 'every event again', { timeoutMs: 60_000 });
    const resent = rig.receiver.to(endpoint).slice(events.length) as Array<ReceivedRequest>;
    expect(resent.map((r) => r.headers['webhook-id']).sort()).toEqual(events.map((e) => e.id).sort());
    // Spread out, not sent at once: the attempt times of the re-sent deliveries span most of what the pace gives.
    const times = resent.map((r) => Number(r.headers['x-plug-date']));
    expect(Math.max(...times) - Math.min(...times)).toBeGreaterThan((events.length - 1) * RECOVERY_SPACING_MS * 0.8);
    await eventually(async () => ((await listJobs(rig.running.pool, RECOVER_JOB)).length === 0 ? true : undefined), 'the walk to end');
  }, 90_000);

  it('refuses a since in the future, more than 14 days back, or missing, with a detail naming since', async () => {
    const { clientId, webhook } = await setUp();
    const now = Date.now();
    for (const since of [new Date(now + 60_000), new Date(now - 14 * DAY - 60_000), undefined]) {
      const error = await failureOf(client().recoverWebhook({ clientId, id: webhook.id, since }));
      expect(error.kind).toBe('validation');
      expect(error.details?.map((d) => d.field)).toEqual(['since']);
    }
    expect((await client().recoverWebhook({ clientId, id: webhook.id, since: new Date(now - 14 * DAY + 60_000) })).events).toBe(0);
  });

  it("answers not found for another client's webhook, an unknown or a malformed id, and refuses a disabled webhook", async () => {
    const { clientId, webhook } = await setUp();
    const since = new Date(Date.now() - DAY);
    for (const [who, id] of [
      [randomUUID(), webhook.id],
      [clientId, randomUUID()],
      [clientId, 'not-a-uuid'],
    ] as const) {
      expect((await failureOf(client().recoverWebhook({ clientId: who, id, since }))).kind).toBe('not_found');
    }
    expect((await failureOf(client().recoverWebhook({ clientId: 'nope', id: webhook.id, since }))).kind).toBe('validation');
    await client().updateWebhook({ clientId, id: webhook.id, status: false });
    const disabled = await failureOf(client().recoverWebhook({ clientId, id: webhook.id, since }));
    expect(disabled.kind).toBe('business_rule');
    expect(disabled.businessCode).toBe('webhook_disabled');
  });

  it('replays the answer for the same idempotency key, and keeps one walk per webhook and since', async () => {
    const { clientId, webhook } = await setUp();
    const since = new Date(Date.now() - DAY);
    const idempotencyKey = randomUUID();
    const first = await client().recoverWebhook({ clientId, id: webhook.id, since }, { idempotencyKey });
    const replay = await client().recoverWebhook({ clientId, id: webhook.id, since }, { idempotencyKey });
    expect(replay).toEqual(first);

    // Two schedules of the same recovery make one job (a far runAt keeps the runner off it here). Its own `since`:
    // the job of the calls above is due now, and the runner may finish it before the jobs are listed.
    const scheduledSince = new Date(since.getTime() - 60_000);
    const window = { clientId, webhookId: webhook.id, since: scheduledSince, until: new Date() };
    const later = new Date(Date.now() + DAY);
    await withTransaction(rig.running.pool, async (tx) => {
      await scheduleRecovery(tx, window, later);
      await scheduleRecovery(tx, { ...window, until: new Date() }, later);
    });
    const key = `${webhook.id}:${scheduledSince.toISOString()}`;
    expect((await listJobs(rig.running.pool, RECOVER_JOB)).filter((j) => j.dedupeKey === key)).toHaveLength(1);
    await withTransaction(rig.running.pool, (tx) => cancelJobs(tx, { kind: RECOVER_JOB, dedupeKey: key }));
  });
});

describe('ListEventTypes', () => {
  it('answers the catalogue: every public event name with its object, a description and an example body', async () => {
    const { items } = await client().listEventTypes({ clientId: randomUUID() });
    expect(items.map((t: webhooks.EventType) => t.name)).toEqual(PUBLIC_EVENT_NAMES);
    for (const type of items) {
      expect(type.description).not.toBe('');
      expect(type.example).toMatchObject({ event: type.name, object: type.object, apiVersion: 1.1, data: expect.any(Object) });
    }
    expect((await failureOf(client().listEventTypes({ clientId: 'nope' }))).kind).toBe('validation');
  });
});
