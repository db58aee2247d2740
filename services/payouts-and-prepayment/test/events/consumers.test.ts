import { randomUUID } from 'node:crypto';
import { EVENTS_STREAM } from '@platform/kit';
import { testNatsUrl } from '@platform/testkit';
import { connect, type NatsConnection } from 'nats';
import { type RunningPayouts, startPayouts } from '../support';

/** The consumers of charge and seller events parse each on arrival: one that does not parse is refused, not cast. */
let running: RunningPayouts;
let nc: NatsConnection;

beforeAll(async () => {
  running = await startPayouts();
  nc = await connect({ servers: testNatsUrl() });
});

afterAll(async () => {
  await nc.drain();
  await running.stop();
});

/** The durables the service was started with (support.ts gives each run its own). */
function durables(): { charges: string; sellers: string } {
  const config = running.service.runtime.config as { PAYOUTS_CHARGES_DURABLE: string; PAYOUTS_SELLERS_DURABLE: string };
  return { charges: config.PAYOUTS_CHARGES_DURABLE, sellers: config.PAYOUTS_SELLERS_DURABLE };
}

function event(type: string, data: Record<string, unknown>) {
  return { id: randomUUID(), type, occurredAt: new Date().toISOString(), clientId: randomUUID(), data };
}

async function processed(durable: string): Promise<string[]> {
  const { rows } = await running.pool.query<{ event_id: string }>('SELECT event_id FROM processed_events WHERE consumer = $1', [durable]);
  return rows.map((r) => r.event_id);
}

/** Publishes a malformed event, then a good one; waits until the good one is applied and nothing waits for an ack. */
async function refusedThenApplied(durable: string, bad: ReturnType<typeof event>, good: ReturnType<typeof event>): Promise<void> {
  const js = nc.jetstream();
  for (const e of [bad, good]) await js.publish(e.type, Buffer.from(JSON.stringify(e)), { msgID: e.id });
  const jsm = await nc.jetstreamManager();
  let ackPending = -1;
  for (let i = 0; i < 100; i++) {
    ackPending = (await jsm.consumers.info(EVENTS_STREAM, durable)).num_ack_pending;
    if ((await processed(durable)).includes(good.id) && ackPending === 0) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  expect(await processed(durable)).toContain(good.id);
  expect(await processed(durable)).not.toContain(bad.id);
  expect(ackPending).toBe(0);
}

it('refuses a charge event whose data does not parse: never applied, never redelivered, and the next one is applied', async () => {
  const durable = durables().charges;
  const charge = { status: 'paid', amount: 10_000, refundedAmount: 0, providerType: null, paymentMethod: { paymentType: 'pix' } };
  // A captured amount that is not a number: cast, the ledger would read it as nothing captured and record the event.
  const bad = event('payments.charge.paid', { ...charge, id: randomUUID(), capturedAmount: 'all of it' });
  const good = event('payments.charge.paid', { ...charge, id: randomUUID(), capturedAmount: 10_000 });
  await refusedThenApplied(durable, bad, good);
});

it('refuses a seller event whose data does not parse: no seller kept, never redelivered, and the next one is applied', async () => {
  const durable = durables().sellers;
  const bad = event('sellers.seller.updated', { id: 42, status: 'active', planId: null });
  const good = event('sellers.seller.updated', { id: randomUUID(), status: 'active', planId: null });
  await refusedThenApplied(durable, bad, good);
  const { rows } = await running.pool.query('SELECT count(*)::int AS n FROM sellers WHERE client_id = $1', [bad.clientId]);
  expect(rows[0].n).toBe(0);
});
