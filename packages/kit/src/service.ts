import path from 'node:path';
import type { NatsConnection } from 'nats';
import type { Pool } from 'pg';
import { z } from 'zod';
import { loadConfig, migrationCommandEnv, serviceEnv } from './config';
import { createPool, KIT_MIGRATIONS_DIR, migrate, pendingMigrations, type MigrateOptions } from './db';
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

/** How a start is run, besides its environment (tests). */
export interface StartOptions {
  /** The logger to use instead of one on stdout at LOG_LEVEL. */
  log?: Logger;
  /** Abandons a start still waiting for its migrations (MIGRATE_ON_START=false): it rejects, having closed what it opened. */
  signal?: AbortSignal;
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
  start: StartOptions = {},
): Promise<RunningService> {
  const schema = options.configSchema ? baseServiceConfig.extend(options.configSchema.shape) : baseServiceConfig;
  const config = loadConfig(schema, env) as BaseServiceConfig & z.infer<S>;
  const log = start.log ?? createLogger({ name: options.name, level: config.LOG_LEVEL });
  const pool = createPool({ url: config.DATABASE_URL, size: Math.max(config.DATABASE_POOL_SIZE, options.minPoolSize?.(config) ?? 0), log, name: options.name });
  const grpcOptions = { host: config.GRPC_HOST, port: config.GRPC_PORT, log, maxConnectionAgeMs: config.GRPC_MAX_CONNECTION_AGE_MS };
  // Listening, NOT_SERVING, while the start waits for the migrate command; it serves once the schema is there.
  let waiting: RunningGrpcServer | undefined;
  if (config.MIGRATE_ON_START) {
    await migrateSchema(pool, options.migrationsDir, log, migrateOptionsOf(config));
  } else {
    waiting = await waitForSchema(pool, options.migrationsDir, {
      log,
      pollMs: config.MIGRATION_WAIT_POLL_MS,
      signal: start.signal,
      listen: () => startGrpcServer({ ...grpcOptions, services: [], waiting: true }),
    }).catch(async (error: unknown) => {
      await pool.end().catch(() => undefined);
      throw error;
    });
  }
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
  let server: RunningGrpcServer;
  if (waiting) {
    waiting.serve(services);
    server = waiting;
    log.info({ port: server.port }, 'schema up to date: serving');
  } else {
    server = await startGrpcServer({ ...grpcOptions, services });
  }

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

function migrateOptionsOf(config: { MIGRATION_LOCK_TIMEOUT_MS: number; MIGRATION_STATEMENT_TIMEOUT_MS: number }): MigrateOptions {
  return { lockTimeoutMs: config.MIGRATION_LOCK_TIMEOUT_MS, statementTimeoutMs: config.MIGRATION_STATEMENT_TIMEOUT_MS };
}

function migrationDirsOf(serviceMigrationsDir: string): string[] {
  return [KIT_MIGRATIONS_DIR, serviceMigrationsDir];
}

/** graphile-worker's schema, then the kit's migrations and the service's. */
async function migrateSchema(pool: Pool, serviceMigrationsDir: string, log: Logger, options: MigrateOptions): Promise<string[]> {
  // graphile-worker's schema first: the kit migration that retires the old jobs table moves its work there.
  await migrateJobs(pool, log);
  return migrate(pool, migrationDirsOf(serviceMigrationsDir), log, options);
}

/** A pause that ends early when `signal` aborts. */
function pause(ms: number, signal?: AbortSignal): Promise<void> {
  if (!signal) return sleep(ms);
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}

/**
 * For a start that does not migrate: returns at once when every committed migration of the kit and the service is
 * applied. Otherwise it starts listening (`listen`, a server answering NOT_SERVING, so readiness stays false and the
 * probes see a process waiting, not a dead one), says which migrations it waits for, and looks again every pollMs
 * until none is pending; it returns that server, which the start then makes serve.
 */
async function waitForSchema(
  pool: Pool,
  serviceMigrationsDir: string,
  options: { log: Logger; pollMs: number; signal?: AbortSignal; listen: () => Promise<RunningGrpcServer> },
): Promise<RunningGrpcServer | undefined> {
  const { log, signal } = options;
  const dirs = migrationDirsOf(serviceMigrationsDir);
  let pending = await pendingMigrations(pool, dirs);
  if (pending.length === 0) return undefined;
  const server = await options.listen();
  try {
    let said = '';
    for (;;) {
      if (signal?.aborted) throw new Error('the start was abandoned while it waited for its migrations');
      // Said again whenever the list changes (a migration Job is under way), not at every look.
      const now = pending.join(' ');
      if (now !== said) {
        const shown = pending.slice(0, 10).join(' ') + (pending.length > 10 ? ' ...' : '');
        log.warn(
          { pending, pollMs: options.pollMs },
          `waiting for migrations: ${pending.length} pending: ${shown} (MIGRATE_ON_START is false: run the migrate command, the chart's migration Job)`,
        );
        said = now;
      }
      await pause(options.pollMs, signal);
      if (signal?.aborted) continue;
      pending = await pendingMigrations(pool, dirs).catch((error: unknown) => {
        log.warn({ err: error }, 'could not read the schema version; looking again');
        return pending;
      });
      if (pending.length === 0) {
        log.info('migrations applied: the schema is up to date');
        return server;
      }
    }
  } catch (error) {
    await server.shutdown(0);
    throw error;
  }
}

export const migrationCommandConfig = z.object(migrationCommandEnv);

/**
 * The `migrate` command of a service (`node services/<name>/dist/main.js migrate`, the chart's migration Job):
 * applies graphile-worker's schema, the kit's migrations and the service's, and returns the ones it applied. It
 * reads DATABASE_URL, the MIGRATION_* timeouts, NODE_ENV and LOG_LEVEL, nothing else.
 */
export async function migrateService<S extends z.ZodObject>(
  options: ServiceDefinitionOptions<S>,
  env: NodeJS.ProcessEnv = process.env,
  start: Pick<StartOptions, 'log'> = {},
): Promise<string[]> {
  const config = loadConfig(migrationCommandConfig, env);
  const log = start.log ?? createLogger({ name: options.name, level: config.LOG_LEVEL });
  // graphile-worker migrates through the pool while another client holds its lock: two connections.
  const pool = createPool({ url: config.DATABASE_URL, size: 2, log, name: `${options.name} migrate` });
  try {
    const applied = await migrateSchema(pool, options.migrationsDir, log, migrateOptionsOf(config));
    log.info({ applied }, applied.length > 0 ? `${applied.length} migrations applied` : 'no migration pending');
    return applied;
  } finally {
    await pool.end();
  }
}

/**
 * Entry point helper for `main.ts`. With no argument: starts the service and exits cleanly on SIGTERM or SIGINT.
 * With `migrate`: applies the service's migrations and exits 0, or 1 when they fail.
 */
export function runService<S extends z.ZodObject>(options: ServiceDefinitionOptions<S>, args: string[] = process.argv.slice(2)): void {
  const [command, ...rest] = args;
  if (command === 'migrate' && rest.length === 0) {
    migrateService(options).then(
      () => process.exit(0),
      (error: unknown) => {
        process.stderr.write(`${options.name} migrations failed: ${(error as Error)?.stack ?? String(error)}\n`);
        process.exit(1);
      },
    );
    return;
  }
  if (command !== undefined) {
    process.stderr.write(`usage: node main.js          start the ${options.name} service\n       node main.js migrate  apply its migrations and exit\n`);
    process.exit(2);
  }
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
