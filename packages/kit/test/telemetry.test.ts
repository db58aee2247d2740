import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { context, propagation, SpanKind, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { connect, type NatsConnection } from 'nats';
import { eventually, metricValue, parseMetrics, testNatsUrl } from '@platform/testkit';
import {
  addCollector,
  collectJobMetrics,
  collectOutboxMetrics,
  counter,
  createLogger,
  enqueueEvent,
  ensureEventStream,
  inSpan,
  JobRunner,
  migrateJobs,
  OutboxRelay,
  scheduleJob,
  scheduleJobs,
  scrape,
  startConsumer,
  startMetricsServer,
  traceCarrier,
  traceOfEvent,
  withTransaction,
  type DomainEvent,
  type Pool,
} from '../src';
import { kitDatabase, silentLog } from './helpers';

const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });

beforeAll(() => {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(provider);
});

describe('metrics', () => {
  it('serves the registry on its own port with the service label and the process metrics', async () => {
    counter({ name: 'telemetry_test_total', help: 'a test counter', labelNames: ['outcome'] }).inc({ outcome: 'ok' });
    // Asking again for the same name answers the same counter.
    counter({ name: 'telemetry_test_total', help: 'a test counter', labelNames: ['outcome'] }).inc({ outcome: 'ok' });
    const server = await startMetricsServer({ service: 'kit-test', host: '127.0.0.1', port: 0, log: silentLog });
    try {
      const res = await fetch(`http://127.0.0.1:${server.port}/metrics`);
      expect(res.status).toBe(200);
      const text = await res.text();
      expect(metricValue(parseMetrics(text), 'telemetry_test_total', { outcome: 'ok', service: 'kit-test' })).toBe(2);
      expect(text).toMatch(/process_cpu_seconds_total\{service="kit-test"\}/);
      expect((await fetch(`http://127.0.0.1:${server.port}/`)).status).toBe(404);
    } finally {
      await server.stop();
    }
  });

  it('answers a scrape when a collector hangs or fails, with what the others set', async () => {
    const removeHung = addCollector(() => new Promise<void>(() => undefined));
    const removeFailing = addCollector(async () => {
      throw new Error('database down');
    });
    try {
      const started = Date.now();
      const text = await scrape(200);
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(text).toContain('telemetry_test_total');
    } finally {
      removeHung();
      removeFailing();
    }
  });

  it('times queries by statement kind and reports the pool and the outbox backlog', async () => {
    const pool = await kitDatabase('metrics');
    const stop = collectOutboxMetrics(pool);
    try {
      await pool.query('SELECT 1');
      await withTransaction(pool, (tx) => enqueueEvent(tx, { type: 'customers.metric.created', clientId: randomUUID(), data: {} }));
      const text = await scrape();
      const samples = parseMetrics(text);
      expect(metricValue(samples, 'db_query_duration_seconds_count', { operation: 'SELECT', service: 'kit-test' })).toBeGreaterThan(0);
      expect(metricValue(samples, 'db_query_duration_seconds_count', { operation: 'COMMIT' })).toBeGreaterThan(0);
      expect(metricValue(samples, 'db_pool_clients', { state: 'total' })).toBeGreaterThan(0);
      expect(metricValue(samples, 'db_pool_max_clients')).toBe(30);
      expect(metricValue(samples, 'outbox_backlog_events')).toBe(1);
      expect(metricValue(samples, 'outbox_oldest_unpublished_age_seconds')).toBeGreaterThanOrEqual(0);
    } finally {
      stop();
      await pool.end();
    }
  });
});

describe('trace context across the outbox, NATS, consumers and jobs', () => {
  let pool: Pool;
  let nc: NatsConnection;

  beforeAll(async () => {
    pool = await kitDatabase('tracing');
    await migrateJobs(pool, silentLog);
    nc = await connect({ servers: testNatsUrl() });
    await ensureEventStream(nc);
  });
  afterAll(async () => {
    await nc.drain();
    await pool.end();
  });
  beforeEach(() => exporter.reset());

  const spans = () => exporter.getFinishedSpans();
  const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;

  it('carries one trace from a call through its event and the job a consumer scheduled', async () => {
    const subject = `customers.t${randomUUID().replace(/-/g, '')}.created`;
    const jobKind = `traced-${randomUUID()}`;
    const requestTrace = await inSpan('POST /v1/customers', { kind: SpanKind.SERVER }, async () => {
      await withTransaction(pool, (tx) => enqueueEvent(tx, { type: subject, clientId: randomUUID(), data: {} }));
      return trace.getActiveSpan()!.spanContext();
    });
    const relay = new OutboxRelay({ pool, js: nc.jetstream(), log: silentLog });
    await relay.relayOnce();

    const consumer = await startConsumer({
      nc,
      pool,
      log: silentLog,
      durable: `traced-${randomUUID()}`,
      filterSubject: subject,
      handle: async (_event, tx) => {
        await scheduleJob(tx, { kind: jobKind, runAt: new Date(Date.now() - 1000) });
      },
    });
    await eventually(() => (spans().some((s) => s.name === `${subject} process`) ? true : undefined), 'the consumer span');
    await consumer.stop();

    const ran: string[] = [];
    const runner = new JobRunner({
      pool,
      log: silentLog,
      handlers: {
        [jobKind]: async (job) => {
          // The trace travels beside the payload, not in it.
          expect(job.payload).toEqual({});
          ran.push(trace.getActiveSpan()!.spanContext().traceId);
        },
      },
    });
    await runner.runDue();

    const byName = new Map(spans().map((s) => [s.name, s]));
    const publish = byName.get(`${subject} publish`)!;
    const process = byName.get(`${subject} process`)!;
    const job = byName.get(`job ${jobKind}`)!;
    for (const span of [publish, process, job]) expect(span.spanContext().traceId).toBe(requestTrace.traceId);
    expect(parentOf(publish)).toBe(requestTrace.spanId);
    expect(parentOf(process)).toBe(publish.spanContext().spanId);
    expect(parentOf(job)).toBe(process.spanContext().spanId);
    expect(ran).toEqual([requestTrace.traceId]);
    expect(metricValue(parseMetrics(await scrape()), 'jobs_completed_total', { task: jobKind, outcome: 'succeeded' })).toBe(1);
  });

  it('gives each event of a batch its own trace, for the jobs a batch handler schedules per event', async () => {
    const subject = `customers.b${randomUUID().replace(/-/g, '')}.created`;
    const traces: string[] = [];
    for (let i = 0; i < 3; i++) {
      traces.push(
        await inSpan(`call ${i}`, { kind: SpanKind.SERVER }, async () => {
          await withTransaction(pool, (tx) => enqueueEvent(tx, { type: subject, clientId: randomUUID(), data: { i } }));
          return trace.getActiveSpan()!.spanContext().traceId;
        }),
      );
    }
    await new OutboxRelay({ pool, js: nc.jetstream(), log: silentLog }).relayOnce();
    const seen: Array<{ i: number; traceparent?: string }> = [];
    const consumer = await startConsumer({
      nc,
      pool,
      log: silentLog,
      durable: `batch-${randomUUID()}`,
      filterSubject: subject,
      handleBatch: async (events: DomainEvent[], tx) => {
        for (const event of events) seen.push({ i: (event.data as { i: number }).i, traceparent: traceOfEvent(event)?.traceparent });
        await scheduleJobs(
          tx,
          events.map((event) => ({ kind: 'never-run', runAt: new Date(Date.now() + 3600_000), trace: traceOfEvent(event) })),
        );
      },
    });
    await eventually(() => (seen.length >= 3 ? true : undefined), 'three events');
    await consumer.stop();
    for (const { i, traceparent } of seen) expect(traceparent?.split('-')[1]).toBe(traces[i]);
    const { rows } = await pool.query<{ trace: string }>(`SELECT j.payload->'_trace'->>'traceparent' AS trace
       FROM graphile_worker._private_jobs j JOIN graphile_worker._private_tasks t ON t.id = j.task_id WHERE t.identifier = 'never-run'`);
    expect(rows.map((r) => r.trace.split('-')[1]).sort()).toEqual([...traces].sort());

    // The queue as a scrape sees it: three jobs waiting for their time, none due yet.
    const stop = collectJobMetrics(pool);
    const samples = parseMetrics(await scrape());
    stop();
    expect(metricValue(samples, 'jobs_due', { task: 'never-run' })).toBe(0);
    expect(metricValue(samples, 'jobs_running', { task: 'never-run' })).toBe(0);
    expect(samples.some((s) => s.name === 'jobs_oldest_due_age_seconds')).toBe(true);
  });

  it('injects nothing outside a traced call, and log lines inside one carry its ids', async () => {
    expect(traceCarrier()).toBeUndefined();
    const lines: string[] = [];
    const log = createLogger({
      name: 'trace-test',
      destination: new Writable({
        write(chunk: Buffer, _encoding, done) {
          lines.push(chunk.toString());
          done();
        },
      }),
    });
    log.info('outside');
    const ids = await inSpan('inside', {}, async () => {
      log.info('inside');
      return trace.getActiveSpan()!.spanContext();
    });
    const [outside, inside] = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(outside).not.toHaveProperty('trace_id');
    expect(inside).toMatchObject({ trace_id: ids.traceId, span_id: ids.spanId });
  });
});
