import { z } from 'zod';

/**
 * Parses the environment once into a typed object. Boot fails with a message naming every missing or
 * malformed variable, instead of a service that starts and breaks on first use.
 */
export function loadConfig<S extends z.ZodObject>(schema: S, env: NodeJS.ProcessEnv = process.env): z.infer<S> {
  const result = schema.safeParse(env);
  if (!result.success) {
    const problems = result.error.issues.map((i) => `${i.path.join('.') || '(env)'}: ${i.message}`).join('; ');
    throw new Error(`Invalid configuration: ${problems}`);
  }
  return result.data;
}

const booleanString = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

/** Variables every service reads. */
export const serviceEnv = {
  NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  GRPC_HOST: z.string().default('0.0.0.0'),
  GRPC_PORT: z.coerce.number().int().min(0).max(65535).default(50051),
  DATABASE_URL: z.string().url(),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(100).default(10),
  NATS_URL: z.string().min(1),
  /**
   * The event stream as a service creates it, and the least it brings an existing stream up to: a start never
   * lowers what the stream has (deploy/README.md, The event stream). Replicas need a NATS cluster of at least as many servers.
   */
  EVENTS_STREAM_REPLICAS: z.coerce.number().int().min(1).max(5).default(1),
  /** How long the stream keeps an event, in hours; 0 keeps events until a storage limit drops them. */
  EVENTS_STREAM_MAX_AGE_HOURS: z.coerce.number().int().min(0).max(24 * 3650).default(168),
  EVENTS_STREAM_STORAGE: z.enum(['file', 'memory']).default('file'),
  /** Prometheus metrics on their own port (GET /metrics), apart from the API; 0 takes any free port. */
  METRICS_ENABLED: booleanString.default(true),
  METRICS_HOST: z.string().default('0.0.0.0'),
  METRICS_PORT: z.coerce.number().int().min(0).max(65535).default(9464),
  /** How long a SIGTERM waits for in-flight calls before forcing the server down. */
  SHUTDOWN_GRACE_MS: z.coerce.number().int().min(0).default(10_000),
  /**
   * How long a SIGTERM keeps serving while the health check already answers NOT_SERVING, before the drain: readiness
   * probes and load balancers take the replica out first, so no new call finds it closing (the chart sets it).
   */
  SHUTDOWN_DELAY_MS: z.coerce.number().int().min(0).default(0),
  /**
   * A connection older than this is asked to close (GOAWAY) once its calls are done, so clients resolve the service's
   * name again and find replicas added since (a headless Service's DNS answers every ready pod). 0: never.
   */
  GRPC_MAX_CONNECTION_AGE_MS: z.coerce.number().int().min(0).default(300_000),
  ...migrationEnv(),
  /**
   * true: a start applies the pending migrations itself (local runs, tests). false (the chart): the `migrate` command
   * applies them (a Job before each install and upgrade) and a start that finds some pending waits for them, listening
   * but NOT_SERVING, and says which ones it waits for.
   */
  MIGRATE_ON_START: booleanString.default(true),
  /** How often a start waiting for its migrations looks again. */
  MIGRATION_WAIT_POLL_MS: z.coerce.number().int().min(1).default(5_000),
};

/** Variables of the `migrate` command, which reads nothing else (no NATS, no keys) besides NODE_ENV and LOG_LEVEL. */
function migrationEnv() {
  return {
    /**
     * lock_timeout of every migration statement: one that waits longer for a table lock held by live traffic fails
     * the migration (rolled back; the Job runs it again) instead of queueing every query of that table behind it.
     * 0: wait as long as it takes.
     */
    MIGRATION_LOCK_TIMEOUT_MS: z.coerce.number().int().min(0).default(10_000),
    /** statement_timeout of every migration statement; 0 (default): none, the Job's deadline bounds the run. */
    MIGRATION_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(0).default(0),
  };
}

/** What the `migrate` command of a service reads. */
export const migrationCommandEnv = {
  NODE_ENV: serviceEnv.NODE_ENV,
  LOG_LEVEL: serviceEnv.LOG_LEVEL,
  DATABASE_URL: serviceEnv.DATABASE_URL,
  ...migrationEnv(),
};

/**
 * A 32-byte secret key from the environment, hex (64 characters) or base64 (44 characters). The message names
 * the variable but never repeats its value.
 */
function key32(name: string) {
  return z
    .string({ error: `${name} is required: 32 random bytes, base64 or hex` })
    .transform((value, ctx) => {
      const bytes = /^[0-9a-fA-F]{64}$/.test(value) ? Buffer.from(value, 'hex') : Buffer.from(value, 'base64');
      if (bytes.length !== 32) {
        ctx.addIssue({ code: 'custom', message: `${name} must be 32 bytes (64 hex characters or 44 base64 characters)` });
        return z.NEVER;
      }
      return bytes;
    });
}

export const env = { booleanString, key32 };
