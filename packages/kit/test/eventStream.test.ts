import { connect, nanos, StorageType, type NatsConnection, type StreamConfig } from 'nats';
import { testNatsUrl } from '@platform/testkit';
import { DEFAULT_EVENT_STREAM, ensureEventStream, eventStreamConfig, EVENTS_STREAM, strengthenedStream } from '../src';

const DAY_MS = 24 * 3600_000;

/** A stream as the server reports it, from what a service creates, with an operator's edits on top. */
function existing(edits: Partial<StreamConfig> = {}): StreamConfig {
  return { ...(eventStreamConfig(DEFAULT_EVENT_STREAM) as StreamConfig), ...edits };
}

describe('strengthenedStream: what a start changes on a stream that exists', () => {
  const wanted = eventStreamConfig(DEFAULT_EVENT_STREAM);

  it('changes nothing on a stream that already gives what the configuration asks', () => {
    expect(strengthenedStream(existing(), wanted)).toBeUndefined();
  });

  it("keeps an operator's longer age, extra replicas, longer dedupe window and own subjects", () => {
    const operated = existing({ max_age: nanos(30 * DAY_MS), num_replicas: 3, duplicate_window: nanos(30 * 60_000), subjects: [...wanted.subjects, 'ops.>'] });
    expect(strengthenedStream(operated, wanted)).toBeUndefined();
  });

  it('keeps an age without limit (0) against a configured age', () => {
    expect(strengthenedStream(existing({ max_age: 0 }), wanted)).toBeUndefined();
  });

  it('raises replicas and age when the configuration asks for more, and adds the subjects a new service needs', () => {
    const old = existing({ subjects: wanted.subjects.filter((s) => s !== 'payments.>'), num_replicas: 1, max_age: nanos(DAY_MS) });
    const changes = strengthenedStream(old, eventStreamConfig({ replicas: 3, maxAgeMs: 14 * DAY_MS, storage: 'file' }));
    expect(changes).toEqual({
      subjects: [...old.subjects, 'payments.>'],
      num_replicas: 3,
      max_age: nanos(14 * DAY_MS),
      duplicate_window: old.duplicate_window,
    });
  });

  it('never lowers replicas or age when the configuration asks for less', () => {
    const operated = existing({ num_replicas: 3, max_age: nanos(30 * DAY_MS) });
    expect(strengthenedStream(operated, eventStreamConfig({ replicas: 1, maxAgeMs: DAY_MS, storage: 'memory' }))).toBeUndefined();
  });
});

describe('ensureEventStream on the run’s nats-server', () => {
  let nc: NatsConnection;
  beforeAll(async () => {
    nc = await connect({ servers: testNatsUrl() });
    await ensureEventStream(nc);
  });
  afterAll(async () => {
    await nc.drain();
  });

  it("leaves an operator's edits in place when a service starts with the default configuration", async () => {
    const jsm = await nc.jetstreamManager();
    // Longer than anything a service configures by default: other suites starting services on this server keep it too.
    await jsm.streams.update(EVENTS_STREAM, { max_age: nanos(3650 * DAY_MS), duplicate_window: nanos(20 * 60_000) });
    await ensureEventStream(nc, DEFAULT_EVENT_STREAM);
    const config = (await jsm.streams.info(EVENTS_STREAM)).config;
    expect(config.max_age).toBe(nanos(3650 * DAY_MS));
    expect(config.duplicate_window).toBe(nanos(20 * 60_000));
    expect(config.storage).toBe(StorageType.File);
    expect(config.subjects).toEqual(expect.arrayContaining(eventStreamConfig(DEFAULT_EVENT_STREAM).subjects));
  });
});
