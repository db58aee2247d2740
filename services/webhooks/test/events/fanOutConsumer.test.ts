import { randomUUID } from 'node:crypto';
import { EVENTS_STREAM } from '@platform/kit';
import type { NatsConnection } from 'nats';
import { startDeliveryRig, type RunningWebhooks, type WebhooksSetup } from '../support/service';

/** The fan-out parses each event's envelope on arrival: one that does not parse is refused, never fanned out. */
let running: RunningWebhooks;
let nc: NatsConnection;
let setup: WebhooksSetup;
let stop: () => Promise<void>;

beforeAll(async () => {
  ({ running, nc, setup, stop } = await startDeliveryRig());
});

afterAll(async () => {
  await stop();
});

async function processed(): Promise<string[]> {
  const { rows } = await running.pool.query<{ event_id: string }>('SELECT event_id FROM processed_events WHERE consumer = $1', [setup.durable]);
  return rows.map((r) => r.event_id);
}

it('refuses an event whose envelope does not parse: no delivery, never redelivered, and the next one is taken', async () => {
  const occurredAt = new Date().toISOString();
  // A client id that is not a UUID: the event belongs to no client.
  const bad = { id: randomUUID(), type: 'payments.charge.paid', occurredAt, clientId: 'nobody', data: { id: randomUUID(), status: 'paid' } };
  const good = { id: randomUUID(), type: 'payments.charge.paid', occurredAt, clientId: randomUUID(), data: { id: randomUUID(), status: 'paid' } };
  const js = nc.jetstream();
  for (const event of [bad, good]) await js.publish(event.type, Buffer.from(JSON.stringify(event)), { msgID: event.id });
  const jsm = await nc.jetstreamManager();
  let ackPending = -1;
  for (let i = 0; i < 200; i++) {
    ackPending = (await jsm.consumers.info(EVENTS_STREAM, setup.durable)).num_ack_pending;
    if ((await processed()).includes(good.id) && ackPending === 0) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  expect(await processed()).toContain(good.id);
  expect(await processed()).not.toContain(bad.id);
  expect(ackPending).toBe(0);
  const { rows } = await running.pool.query('SELECT count(*)::int AS n FROM deliveries WHERE event_id = $1', [bad.id]);
  expect(rows[0].n).toBe(0);
});
