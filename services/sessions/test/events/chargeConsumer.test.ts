import { randomUUID } from 'node:crypto';
import { EVENTS_STREAM } from '@platform/kit';
import { testNatsUrl } from '@platform/testkit';
import { connect, type NatsConnection } from 'nats';
import { type RunningSessions, startSessions } from '../support';

/** The consumer of `payments.charge.*` events parses each on arrival: one that does not parse is refused, not cast. */
const durable = `sessions_test_${randomUUID().slice(0, 8)}`;
let running: RunningSessions;
let nc: NatsConnection;

beforeAll(async () => {
  running = await startSessions({ env: { SESSIONS_CHARGES_DURABLE: durable } });
  nc = await connect({ servers: testNatsUrl() });
});

afterAll(async () => {
  await nc.drain();
  await running.stop();
});

function charge(data: Record<string, unknown>) {
  return { id: randomUUID(), type: 'payments.charge.paid', occurredAt: new Date().toISOString(), clientId: randomUUID(), data };
}

async function processed(): Promise<string[]> {
  const { rows } = await running.pool.query<{ event_id: string }>('SELECT event_id FROM processed_events WHERE consumer = $1', [durable]);
  return rows.map((r) => r.event_id);
}

it('refuses a charge event whose data does not parse: never applied, never redelivered, and the next one is applied', async () => {
  const sessionId = randomUUID();
  // An amount that is not a number, for a session's charge: cast, it would reach the session's accounting.
  const bad = charge({ id: randomUUID(), sessionId, status: 'paid', amount: 'a lot', capturedAmount: 0, refundedAmount: 0, providerType: null, paymentMethod: null });
  const good = charge({ id: randomUUID(), sessionId: null, status: 'paid', amount: 5000, capturedAmount: 5000, refundedAmount: 0, providerType: null, paymentMethod: null });
  const js = nc.jetstream();
  for (const event of [bad, good]) await js.publish(event.type, Buffer.from(JSON.stringify(event)), { msgID: event.id });
  const jsm = await nc.jetstreamManager();
  let ackPending = -1;
  for (let i = 0; i < 100; i++) {
    ackPending = (await jsm.consumers.info(EVENTS_STREAM, durable)).num_ack_pending;
    if ((await processed()).includes(good.id) && ackPending === 0) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  expect(await processed()).toContain(good.id);
  expect(await processed()).not.toContain(bad.id);
  expect(ackPending).toBe(0);
  const { rows } = await running.pool.query('SELECT count(*)::int AS n FROM session_charges WHERE charge_id = $1', [bad.data.id]);
  expect(rows[0].n).toBe(0);
});
