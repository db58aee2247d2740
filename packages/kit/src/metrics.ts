import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { status as GrpcStatus } from '@grpc/grpc-js';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Logger } from './log';

/**
 * The process's Prometheus metrics (deploy/prometheus/metrics.md lists them). One registry per process: a service or
 * the gateway owns its process. Labels hold names and outcomes only, never an id, a client, card data or a key.
 */
export const metricsRegistry = new Registry();

/** Latency buckets in seconds for calls inside the platform (queries, gRPC, HTTP): 1 ms to 10 s. */
export const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** Buckets for work that may wait in a queue (deliveries, provider calls): 5 ms to 5 minutes. */
export const SLOW_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300];

interface MetricConfig<L extends string> {
  name: string;
  help: string;
  labelNames?: readonly L[];
}

/** A counter of the process's registry; asking twice for one name answers the same counter. */
export function counter<L extends string = string>(config: MetricConfig<L>): Counter<L> {
  const existing = metricsRegistry.getSingleMetric(config.name);
  if (existing) return existing as Counter<L>;
  return new Counter<L>({ ...config, labelNames: config.labelNames ?? [], registers: [metricsRegistry] });
}

export function gauge<L extends string = string>(config: MetricConfig<L>): Gauge<L> {
  const existing = metricsRegistry.getSingleMetric(config.name);
  if (existing) return existing as Gauge<L>;
  return new Gauge<L>({ ...config, labelNames: config.labelNames ?? [], registers: [metricsRegistry] });
}

export function histogram<L extends string = string>(config: MetricConfig<L> & { buckets?: number[] }): Histogram<L> {
  const existing = metricsRegistry.getSingleMetric(config.name);
  if (existing) return existing as Histogram<L>;
  return new Histogram<L>({ ...config, labelNames: config.labelNames ?? [], buckets: config.buckets ?? LATENCY_BUCKETS, registers: [metricsRegistry] });
}

/**
 * Gauges that are read at scrape time (a backlog counted in the database, a consumer's lag asked of NATS). Each
 * collector sets its gauges; one that fails leaves them as they were and the scrape still answers.
 */
type Collector = () => Promise<void>;
const collectors = new Set<Collector>();

/** Adds a collector run before each scrape; the function returned removes it (a service that stops). */
export function addCollector(collector: Collector): () => void {
  collectors.add(collector);
  return () => collectors.delete(collector);
}

/** Every collector, each bounded in time, then the registry's text. */
export async function scrape(timeoutMs = 5_000): Promise<string> {
  await Promise.allSettled(
    [...collectors].map((collect) => {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, timeoutMs);
      });
      return Promise.race([collect(), timeout]).finally(() => clearTimeout(timer));
    }),
  );
  return metricsRegistry.metrics();
}

/** gRPC status names as Prometheus labels (OK, NOT_FOUND, ...), the grpc-prometheus convention. */
export function grpcCodeName(code: number): string {
  return (GrpcStatus as unknown as Record<number, string>)[code] ?? String(code);
}

/** `/payments.v1.PaymentsService/CreateCharge` → service and method labels. */
export function grpcLabels(path: string): { grpc_service: string; grpc_method: string } {
  const [, service = 'unknown', method = 'unknown'] = path.split('/');
  return { grpc_service: service, grpc_method: method };
}

const grpcServerHandled = () =>
  counter({ name: 'grpc_server_handled_total', help: 'gRPC calls completed by this server, by method and status code', labelNames: ['grpc_service', 'grpc_method', 'grpc_code'] });
const grpcServerSeconds = () =>
  histogram({ name: 'grpc_server_handling_seconds', help: 'Time this server took to answer a gRPC call', labelNames: ['grpc_service', 'grpc_method'] });
const grpcClientHandled = () =>
  counter({ name: 'grpc_client_handled_total', help: 'gRPC calls this process made, by method and status code', labelNames: ['grpc_service', 'grpc_method', 'grpc_code'] });
const grpcClientSeconds = () =>
  histogram({ name: 'grpc_client_handling_seconds', help: 'Time a gRPC call this process made took to be answered', labelNames: ['grpc_service', 'grpc_method'] });

/** The series of one method and code, made once each: a call then costs no label hashing. */
const grpcSeries = new Map<string, { handled: ReturnType<Counter['labels']>; seconds: ReturnType<Histogram['labels']> }>();

/** Records one gRPC call; `side` says whether this process answered it or made it. */
export function observeGrpcCall(side: 'server' | 'client', path: string, code: number, seconds: number): void {
  const key = `${side} ${path} ${code}`;
  let series = grpcSeries.get(key);
  if (!series) {
    const labels = grpcLabels(path);
    series = {
      handled: (side === 'server' ? grpcServerHandled() : grpcClientHandled()).labels({ ...labels, grpc_code: grpcCodeName(code) }),
      seconds: (side === 'server' ? grpcServerSeconds() : grpcClientSeconds()).labels(labels),
    };
    grpcSeries.set(key, series);
  }
  series.handled.inc();
  series.seconds.observe(seconds);
}

export interface MetricsServer {
  port: number;
  stop(): Promise<void>;
}

/**
 * Serves `GET /metrics` on its own port, apart from the API, so it is never exposed with it. Node's default
 * process metrics are collected from the first start; every series is labelled with the process's `service`.
 */
export async function startMetricsServer(options: { service: string; host?: string; port: number; log: Logger }): Promise<MetricsServer> {
  metricsRegistry.setDefaultLabels({ service: options.service });
  if (!metricsRegistry.getSingleMetric('process_cpu_seconds_total')) collectDefaultMetrics({ register: metricsRegistry });
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (req.method !== 'GET' || path !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('metrics are at GET /metrics\n');
      return;
    }
    scrape().then(
      (text) => res.writeHead(200, { 'content-type': metricsRegistry.contentType }).end(text),
      (error: unknown) => {
        options.log.warn({ err: error }, 'metrics scrape failed');
        res.writeHead(500, { 'content-type': 'text/plain' }).end('scrape failed\n');
      },
    );
  });
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host ?? '0.0.0.0', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  options.log.info({ port, path: '/metrics' }, 'metrics listening');
  return {
    port,
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
