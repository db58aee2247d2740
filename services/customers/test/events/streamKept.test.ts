import { connect, nanos, type NatsConnection } from 'nats';
import { EVENTS_STREAM } from '@platform/kit';
import { testNatsUrl } from '@platform/testkit';
import { startCustomers } from '../support/service';

const DAY_MS = 24 * 3600_000;

/** The operator owns the event stream's durability: a service that starts again never weakens it. */
describe('the event stream an operator configured survives a service restart', () => {
  let nc: NatsConnection;
  beforeAll(async () => {
    nc = await connect({ servers: testNatsUrl() });
  });
  afterAll(async () => {
    await nc.drain();
  });

  it('keeps the age, dedupe window and subjects set by hand after customers stops and starts again', async () => {
    const first = await startCustomers();
    const jsm = await nc.jetstreamManager();
    const before = (await jsm.streams.info(EVENTS_STREAM)).config;
    // Longer than any configured age (the run's other suites start services on this server too), and a subject of the operator's.
    const subjects = before.subjects.includes('operations.audit.>') ? before.subjects : [...before.subjects, 'operations.audit.>'];
    await jsm.streams.update(EVENTS_STREAM, { max_age: nanos(3650 * DAY_MS), duplicate_window: nanos(25 * 60_000), subjects });
    await first.stop();

    // The restart, on the same database, with the configuration a deployment would give it.
    const again = await startCustomers({ env: { EVENTS_STREAM_MAX_AGE_HOURS: '24', EVENTS_STREAM_REPLICAS: '1' }, databaseUrl: first.databaseUrl });
    try {
      const after = (await jsm.streams.info(EVENTS_STREAM)).config;
      expect(after.max_age).toBe(nanos(3650 * DAY_MS));
      expect(after.duplicate_window).toBe(nanos(25 * 60_000));
      expect(after.num_replicas).toBe(before.num_replicas);
      expect(after.subjects).toContain('operations.audit.>');
      expect(after.subjects).toContain('customers.>');
    } finally {
      await again.stop();
    }
  });
});
