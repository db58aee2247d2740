import { SERVICES, type Service } from '@platform/catalog';
import { env, loadConfig, serviceEnv } from '@platform/kit';
import { z } from 'zod';
import { DEFAULT_RATE_LIMITS } from './http/rateLimit';

/** One upstream: `host:port` (a DNS name may stand for every replica), or `ip:port,ip:port,...`, one per replica. */
const hostPort = z.string().regex(/^[A-Za-z0-9.-]+:\d{1,5}(,[A-Za-z0-9.-]+:\d{1,5})*$/, 'must be host:port, or a comma-separated list of IP:port');

/** `<NAME>_GRPC_URL` of every catalog service (packages/catalog). */
const upstreamAddresses = Object.fromEntries(SERVICES.map((s) => [s.addressEnv, hostPort])) as Record<Service['addressEnv'], typeof hostPort>;

const schema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().min(1).default('0.0.0.0'),
  ...upstreamAddresses,
  ADMIN_TOKEN: z.string().min(16, 'must be at least 16 characters'),
  /** External base URL, used for links in answers (logo URLs). Defaults to http://localhost:PORT. */
  PUBLIC_URL: z.url({ protocol: /^https?$/ }).optional(),
  AUTH_CACHE_TTL_MS: z.coerce.number().int().min(0).default(2000),
  METRICS_ENABLED: serviceEnv.METRICS_ENABLED,
  METRICS_HOST: serviceEnv.METRICS_HOST,
  METRICS_PORT: serviceEnv.METRICS_PORT,
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  BODY_LIMIT: z
    .string()
    .regex(/^\d+(?:b|kb|mb)$/i, 'must be a size such as 512kb or 1mb')
    .default('1mb'),
  /** How long a health check waits for each upstream. */
  HEALTH_TIMEOUT_MS: z.coerce.number().int().min(1).default(1000),
  /** How long SIGTERM waits for in-flight requests before closing every connection. */
  SHUTDOWN_GRACE_MS: z.coerce.number().int().min(0).default(10_000),
  /** How long SIGTERM keeps serving with GET /health answering 503 (readiness false) before the drain starts. */
  SHUTDOWN_DELAY_MS: z.coerce.number().int().min(0).default(0),
  /** Per-client request limits, in each gateway process's memory (README, Rate limits). */
  RATE_LIMIT_ENABLED: env.booleanString.default(true),
  RATE_LIMIT_READS_PER_SECOND: z.coerce.number().int().min(1).default(DEFAULT_RATE_LIMITS.readsPerSecond),
  RATE_LIMIT_WRITES_PER_SECOND: z.coerce.number().int().min(1).default(DEFAULT_RATE_LIMITS.writesPerSecond),
  /** Requests a client may make above its rate within any 10-second window (reads and writes each). */
  RATE_LIMIT_BURST: z.coerce.number().int().min(0).default(DEFAULT_RATE_LIMITS.burst),
  /** Per address: requests to public and admin routes, and, counted apart, refused credentials. */
  RATE_LIMIT_UNAUTHENTICATED_PER_SECOND: z.coerce.number().int().min(1).default(DEFAULT_RATE_LIMITS.unauthenticatedPerSecond),
  /** Refused credentials naming one X-Client-Id, from any address. */
  RATE_LIMIT_FAILED_AUTH_PER_CLIENT_ID_PER_SECOND: z.coerce.number().int().min(1).default(DEFAULT_RATE_LIMITS.failedAuthPerClientIdPerSecond),
});

export type GatewayConfig = Omit<z.infer<typeof schema>, 'PUBLIC_URL'> & { PUBLIC_URL: string };

export function loadGatewayConfig(env: NodeJS.ProcessEnv = process.env): GatewayConfig {
  const parsed = loadConfig(schema, env);
  const publicUrl = parsed.PUBLIC_URL ?? `http://localhost:${parsed.PORT}`;
  return { ...parsed, PUBLIC_URL: publicUrl.replace(/\/+$/, '') };
}
