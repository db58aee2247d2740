import { loadConfig } from '@platform/kit';
import { z } from 'zod';

const hostPort = z.string().regex(/^[A-Za-z0-9.-]+:\d{1,5}$/, 'must be host:port');

const schema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().min(1).default('0.0.0.0'),
  SETTINGS_GRPC_URL: hostPort,
  CUSTOMERS_GRPC_URL: hostPort,
  PAYMENTS_GRPC_URL: hostPort,
  WEBHOOKS_GRPC_URL: hostPort,
  ADMIN_TOKEN: z.string().min(16, 'must be at least 16 characters'),
  /** External base URL, used for links in answers (logo URLs). Defaults to http://localhost:PORT. */
  PUBLIC_URL: z.url({ protocol: /^https?$/ }).optional(),
  AUTH_CACHE_TTL_MS: z.coerce.number().int().min(0).default(2000),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  BODY_LIMIT: z
    .string()
    .regex(/^\d+(?:b|kb|mb)$/i, 'must be a size such as 512kb or 1mb')
    .default('1mb'),
  /** How long a health check waits for each upstream. */
  HEALTH_TIMEOUT_MS: z.coerce.number().int().min(1).default(1000),
  /** How long SIGTERM waits for in-flight requests before closing every connection. */
  SHUTDOWN_GRACE_MS: z.coerce.number().int().min(0).default(10_000),
});

export type GatewayConfig = Omit<z.infer<typeof schema>, 'PUBLIC_URL'> & { PUBLIC_URL: string };

export function loadGatewayConfig(env: NodeJS.ProcessEnv = process.env): GatewayConfig {
  const parsed = loadConfig(schema, env);
  const publicUrl = parsed.PUBLIC_URL ?? `http://localhost:${parsed.PORT}`;
  return { ...parsed, PUBLIC_URL: publicUrl.replace(/\/+$/, '') };
}
