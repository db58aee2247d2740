import { SERVICES } from '@platform/catalog';
import { connect, nanos, RetentionPolicy, StorageType, type NatsConnection, type StreamConfig } from 'nats';
import type { Logger } from '../log';

/** The envelope of every domain event, on the wire and in the outbox. */
export interface DomainEvent<T = unknown> {
  id: string;
  /** `<context>.<entity>.<event>`, also the NATS subject. */
  type: string;
  occurredAt: string;
  clientId: string;
  data: T;
}

export const EVENTS_STREAM = 'EVENTS';
/**
 * The bounded contexts that publish; the stream captures `<context>.>` for each: every service of the catalog
 * (packages/catalog), so a new service's events are kept without an edit here, and the contexts named before
 * their services exist.
 */
export const EVENT_CONTEXTS: readonly string[] = [
  ...new Set([...SERVICES.map((s) => s.name), 'payments', 'sessions', 'customers', 'sellers', 'payouts', 'settings', 'webhooks', 'subscriptions']),
];
/** JetStream drops a second publish with the same Nats-Msg-Id inside this window. */
const DUPLICATE_WINDOW_MS = 10 * 60_000;

export async function connectNats(url: string, name: string, log: Logger): Promise<NatsConnection> {
  const nc = await connect({ servers: url.split(','), name, maxReconnectAttempts: -1, reconnectTimeWait: 1000 });
  void (async () => {
    for await (const s of nc.status()) {
      if (s.type === 'disconnect' || s.type === 'reconnect' || s.type === 'error') {
        // `data` is the server for a (dis)connection and the error itself for an error.
        log.warn({ nats: s.type, ...(s.data instanceof Error ? { err: s.data } : { server: String(s.data) }) }, 'nats connection status');
      }
    }
  })();
  return nc;
}

/** What an operator decides about the event stream (EVENTS_STREAM_* variables; the chart's `global.nats.stream`). */
export interface EventStreamSettings {
  /** Copies of each event on as many NATS servers (1 to 5; 3 in a production cluster). */
  replicas: number;
  /** How long an event is kept, in milliseconds; 0 keeps it until the storage limits drop it. */
  maxAgeMs: number;
  storage: 'file' | 'memory';
}

export const DEFAULT_EVENT_STREAM: EventStreamSettings = { replicas: 1, maxAgeMs: 7 * 24 * 3600_000, storage: 'file' };

/** The stream's configuration as a service asks for it when it creates the stream. */
export function eventStreamConfig(settings: EventStreamSettings): Partial<StreamConfig> & { name: string; subjects: string[] } {
  return {
    name: EVENTS_STREAM,
    subjects: EVENT_CONTEXTS.map((c) => `${c}.>`),
    retention: RetentionPolicy.Limits,
    storage: settings.storage === 'memory' ? StorageType.Memory : StorageType.File,
    num_replicas: settings.replicas,
    max_age: nanos(settings.maxAgeMs),
    duplicate_window: nanos(Math.min(DUPLICATE_WINDOW_MS, settings.maxAgeMs || DUPLICATE_WINDOW_MS)),
  };
}

/** The fields a service may raise on an existing stream; every other field stays as the stream has it. */
export type StreamChanges = Pick<StreamConfig, 'subjects' | 'num_replicas' | 'max_age' | 'duplicate_window'>;

/** The longer of two ages, where 0 means no limit (the longest). */
function longer(a: number, b: number): number {
  return a === 0 || b === 0 ? 0 : Math.max(a, b);
}

/**
 * What a service changes on a stream that exists: it adds what it needs and the stream lacks (its subjects, more
 * replicas, a longer age or dedupe window) and never takes away what an operator set (fewer replicas, a shorter age,
 * other subjects, limits it does not manage). Undefined when the stream already gives everything.
 */
export function strengthenedStream(existing: StreamConfig, wanted: ReturnType<typeof eventStreamConfig>): StreamChanges | undefined {
  const subjects = [...existing.subjects, ...wanted.subjects.filter((s) => !existing.subjects.includes(s))];
  const next: StreamChanges = {
    subjects,
    num_replicas: Math.max(existing.num_replicas, wanted.num_replicas ?? 1),
    max_age: longer(existing.max_age, wanted.max_age ?? 0),
    duplicate_window: Math.max(existing.duplicate_window, wanted.duplicate_window ?? 0),
  };
  // A dedupe window longer than the age would be refused; an operator's shorter age keeps the window inside it.
  if (next.max_age > 0 && next.duplicate_window > next.max_age) next.duplicate_window = next.max_age;
  const changed =
    subjects.length !== existing.subjects.length ||
    next.num_replicas !== existing.num_replicas ||
    next.max_age !== existing.max_age ||
    next.duplicate_window !== existing.duplicate_window;
  return changed ? next : undefined;
}

/**
 * Creates the event stream with the operator's settings, or brings a stream that exists up to them without ever
 * weakening it: a restart never shortens the age, removes replicas or undoes an operator's edit. Storage cannot change
 * once the stream exists; a difference is logged.
 */
export async function ensureEventStream(nc: NatsConnection, settings: EventStreamSettings = DEFAULT_EVENT_STREAM, log?: Logger): Promise<void> {
  const jsm = await nc.jetstreamManager();
  const wanted = eventStreamConfig(settings);
  let existing: StreamConfig;
  try {
    existing = (await jsm.streams.info(EVENTS_STREAM)).config;
  } catch (error) {
    if ((error as { code?: string }).code !== '404' && !/stream not found/i.test(String((error as Error).message))) throw error;
    try {
      await jsm.streams.add(wanted);
      log?.info({ stream: EVENTS_STREAM, replicas: settings.replicas, maxAgeMs: settings.maxAgeMs, storage: settings.storage }, 'event stream created');
      return;
    } catch (addError) {
      // Another replica created it first.
      if (!/already in use|exists/i.test(String((addError as Error).message))) throw addError;
      existing = (await jsm.streams.info(EVENTS_STREAM)).config;
    }
  }
  if (existing.storage !== wanted.storage) {
    log?.warn({ stream: EVENTS_STREAM, storage: existing.storage, configured: wanted.storage }, 'event stream storage differs from the configuration; a stream keeps the storage it was created with');
  }
  const next = strengthenedStream(existing, wanted);
  if (!next) return;
  await jsm.streams.update(EVENTS_STREAM, next);
  log?.info(
    { stream: EVENTS_STREAM, replicas: next.num_replicas, maxAgeMs: next.max_age / 1e6, subjects: next.subjects.length },
    'event stream brought up to the configuration',
  );
}
