import path from 'node:path';
import type { NatsConnection } from 'nats';
import type { Pool } from 'pg';
import { z } from 'zod';
import { loadConfig, serviceEnv } from './config';
import { createPool, KIT_MIGRATIONS_DIR, migrate } from './db';
import { collectOutboxMetrics, connectNats, ensureEventStream, OutboxRelay } from './events';
import { startGrpcServer, type RegisteredService, type RunningGrpcServer } from './grpc';
import { collectJobMetrics, migrateJobs } from './jobs';
import { registerInstance, startInstance } from './instance';
import { sleep } from './time';
import { createLogger, type Logger } from './log';
import { startMetricsServer, type MetricsServer } from './metrics';
import { shutdownTelemetry } from './trace';

export const baseServiceConfig = z.object(serviceEnv);
export type BaseServiceConfig = z.infer<typeof baseServiceConfig>;

/** What a service's wiring gets to build its handlers from. */
export interface ServiceRuntime<C> {
  config: C;
  log: Logger;
  pool: Pool;
  nc: NatsConnection;
  outbox: OutboxRelay;
}

/** A background worker the service owns (a consumer, a job runner); stopped on shutdown after gRPC drains. */
export interface Worker {
  stop(): Promise<void>;
}

export interface ServiceDefinitionOptions<S extends z.ZodObject> {
  name: string;
  /** Extra environment on top of the base service variables. */
  configSchema?: S;
  /** The service's own migrations folder (absolute). */
  migrationsDir: string;
  /**
   * The fewest database connections the service needs, whatever DATABASE_POOL_SIZE says: a job runner that runs N jobs
   * at once wants N connections besides those of its consumers and relay (fewer makes the jobs queue for the pool).
   */
  minPoolSize?(config: BaseServiceConfig & z.infer<S>): number;
  wire(runtime: ServiceRuntime<BaseServiceConfig & z.infer<S>>): Promise<{ services: RegisteredService[]; workers?: Worker[] }>;
}

export interface RunningService {
  port: number;
  /** Where GET /metrics answers; undefined when METRICS_ENABLED is false. */
  metricsPort?: number;
  runtime: ServiceRuntime<unknown>;
  stop(): Promise<void>;
}

/**
 * Boots a service the same way everywhere: config, logger, database and migrations, NATS and the event
 * stream, the outbox relay, the job tables, the gRPC server with health, and a drain on SIGTERM/SIGINT.
 */
export async function startService<S extends z.ZodObject>(
  options: ServiceDefinitionOptions<S>,
  env: NodeJS.ProcessEnv = process.env,
): Promise<RunningService> {
  const schema = options.configSchema ? baseServiceConfig.extend(options.configSchema.shape) : baseServiceConfig;
  const config = loadConfig(schema, env) as BaseServiceConfig & z.infer<S>;
  const log = createLogger({ name: options.name, level: config.LOG_LEVEL });
  const pool = createPool({ url: config.DATABASE_URL, size: Math.max(config.DATABASE_POOL_SIZE, options.minPoolSize?.(config) ?? 0), log, name: options.name });
  // graphile-worker's schema first: the kit migration that retires the old jobs table moves its work there.
  await migrateJobs(pool, log);
  await migrate(pool, [KIT_MIGRATIONS_DIR, options.migrationsDir], log);
  const nc = await connectNats(config.NATS_URL, options.name, log);
  await ensureEventStream(
    nc,
    { replicas: config.EVENTS_STREAM_REPLICAS, maxAgeMs: config.EVENTS_STREAM_MAX_AGE_HOURS * 3600_000, storage: config.EVENTS_STREAM_STORAGE },
    log,
  );
  const outbox = new OutboxRelay({ pool, js: nc.jetstream(), log });
  // Held until the process stops or dies: tells other replicas whether this one's in-flight requests are alive.
  const instance = await startInstance({ databaseUrl: config.DATABASE_URL, log, name: options.name });
  registerInstance(pool, instance);
  const runtime: ServiceRuntime<BaseServiceConfig & z.infer<S>> = { config, log, pool, nc, outbox };
  const { services, workers = [] } = await options.wire(runtime);
  outbox.start();
  const stopCollecting = [collectOutboxMetrics(pool), collectJobMetrics(pool)];
  const metrics: MetricsServer | undefined = config.METRICS_ENABLED
    ? await startMetricsServer({ service: options.name, host: config.METRICS_HOST, port: config.METRICS_PORT, log })
    : undefined;
  const server: RunningGrpcServer = await startGrpcServer({ host: config.GRPC_HOST, port: config.GRPC_PORT, services, log, maxConnectionAgeMs: config.GRPC_MAX_CONNECTION_AGE_MS });

  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= (async () => {
      // Not ready from now on, still serving for SHUTDOWN_DELAY_MS while the probes and balancers notice; then the drain.
      server.notServing();
      if (config.SHUTDOWN_DELAY_MS > 0) {
        log.info({ delayMs: config.SHUTDOWN_DELAY_MS }, 'not ready; serving until the drain');
        await sleep(config.SHUTDOWN_DELAY_MS);
      }
      log.info('draining');
      await server.shutdown(config.SHUTDOWN_GRACE_MS);
      await Promise.all(workers.map((w) => w.stop().catch((err: unknown) => log.warn({ err }, 'worker stop failed'))));
      await outbox.stop();
      await nc.drain().catch(() => undefined);
      for (const stopOne of stopCollecting) stopOne();
      await metrics?.stop();
      await pool.end();
      await instance.stop();
      log.info('stopped');
      await shutdownTelemetry();
    })();
    return stopping;
  };
  return { port: server.port, metricsPort: metrics?.port, runtime: runtime as ServiceRuntime<unknown>, stop };
}

/** Entry point helper for `main.ts`: starts the service and exits cleanly on SIGTERM or SIGINT. */
export function runService<S extends z.ZodObject>(options: ServiceDefinitionOptions<S>): void {
  startService(options).then(
    (service) => {
      const onSignal = (signal: string) => {
        service.runtime.log.info({ signal }, 'signal received');
        service.stop().then(
          () => process.exit(0),
          () => process.exit(1),
        );
      };
      process.once('SIGTERM', onSignal);
      process.once('SIGINT', onSignal);
    },
    (error: unknown) => {
      // The logger may not exist yet (bad config); stderr always does.
      process.stderr.write(`${options.name} failed to start: ${(error as Error)?.stack ?? String(error)}\n`);
      process.exit(1);
    },
  );
}

export function migrationsDirOf(serviceDistDir: string): string {
  return path.join(serviceDistDir, '..', 'migrations');
}
