import { SERVICES, type Service } from '@platform/catalog';
import { env, loadConfig, serviceEnv } from '@platform/kit';
import express from 'express';
import { z } from 'zod';
import { ADMIN_TOKEN_MIN_LENGTH, adminTokenId, adminTokenOf, type AdminToken } from './http/auth';
import { DEFAULT_RATE_LIMITS } from './http/rateLimit';

/** One upstream: `host:port` (a DNS name may stand for every replica), or `ip:port,ip:port,...`, one per replica. */
const hostPort = z.string().regex(/^[A-Za-z0-9.-]+:\d{1,5}(,[A-Za-z0-9.-]+:\d{1,5})*$/, 'must be host:port, or a comma-separated list of IP:port');

/** `<NAME>_GRPC_URL` of every catalog service (packages/catalog). */
const upstreamAddresses = Object.fromEntries(SERVICES.map((s) => [s.addressEnv, hostPort])) as Record<Service['addressEnv'], typeof hostPort>;

/**
 * ADMIN_TOKENS: comma-separated tokens (`name:token` names one in the audit log), each at least 16 characters, no two
 * with the same id. The messages name an entry by its place, never its text.
 */
const adminTokens = z
  .string()
  .optional()
  .transform((value, ctx): AdminToken[] => {
    const entries = (value ?? '').split(',').map((entry) => entry.trim()).filter((entry) => entry !== '');
    const tokens = entries.map(adminTokenOf);
    const seen = new Map<string, number>();
    for (const [index, token] of tokens.entries()) {
      if (token.token.length < ADMIN_TOKEN_MIN_LENGTH) ctx.addIssue({ code: 'custom', message: `entry ${index + 1}: the token must be at least ${ADMIN_TOKEN_MIN_LENGTH} characters` });
      const before = seen.get(token.id);
      if (before !== undefined) ctx.addIssue({ code: 'custom', message: `entries ${before + 1} and ${index + 1} have the same id (name or token)` });
      seen.set(token.id, index);
    }
    return tokens;
  });

/**
 * TRUST_PROXY: how many proxies in front of the gateway to believe (`1`, `2`), or the comma-separated addresses and
 * CIDRs of the ones to believe; express's `trust proxy` reads it (its own check refuses what it cannot use).
 */
const trustProxy = z
  .string()
  .optional()
  .transform((value, ctx): number | string[] | undefined => {
    const text = value?.trim() ?? '';
    if (text === '') return undefined;
    const setting = /^\d+$/.test(text) ? Number(text) : text.split(',').map((part) => part.trim());
    try {
      express().set('trust proxy', setting);
    } catch (error) {
      ctx.addIssue({ code: 'custom', message: `must be a hop count or a comma-separated list of addresses and CIDRs (${(error as Error).message})` });
    }
    return setting;
  });

const schema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().min(1).default('0.0.0.0'),
  ...upstreamAddresses,
  /** The admin API's own listener (/admin/v1), never the public one; 0 picks a free port (tests). */
  ADMIN_PORT: z.coerce.number().int().min(0).max(65535).default(8081),
  ADMIN_HOST: z.string().min(1).default('0.0.0.0'),
  ADMIN_TOKENS: adminTokens,
  /** One more admin token, as before ADMIN_TOKENS existed. */
  ADMIN_TOKEN: z.string().min(ADMIN_TOKEN_MIN_LENGTH, `must be at least ${ADMIN_TOKEN_MIN_LENGTH} characters`).optional(),
  /** Off unless set: the client address comes from the socket, and X-Forwarded-For is not believed. */
  TRUST_PROXY: trustProxy,
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

/** ADMIN_TOKENS holds every admin token, ADMIN_TOKEN's included. */
export type GatewayConfig = Omit<z.infer<typeof schema>, 'PUBLIC_URL' | 'ADMIN_TOKEN'> & { PUBLIC_URL: string };

export function loadGatewayConfig(env: NodeJS.ProcessEnv = process.env): GatewayConfig {
  const { ADMIN_TOKEN: single, ...parsed } = loadConfig(schema, env);
  const tokens = [...parsed.ADMIN_TOKENS];
  if (single !== undefined && !tokens.some((t) => t.token === single)) tokens.push({ id: adminTokenId(single), token: single });
  if (tokens.length === 0) throw new Error('Invalid configuration: ADMIN_TOKENS: at least one admin token is required (ADMIN_TOKENS, or ADMIN_TOKEN)');
  if (new Set(tokens.map((t) => t.id)).size !== tokens.length) throw new Error('Invalid configuration: ADMIN_TOKEN: has the id of an ADMIN_TOKENS entry');
  const publicUrl = parsed.PUBLIC_URL ?? `http://localhost:${parsed.PORT}`;
  return { ...parsed, ADMIN_TOKENS: tokens, PUBLIC_URL: publicUrl.replace(/\/+$/, '') };
}
