import { env } from '@platform/kit';
import { z } from 'zod';
import { DEFAULT_RETRY_SCHEDULE, parseRetrySchedule } from './domain/retrySchedule';

export const webhooksConfig = z.object({
  /** Seals each webhook's signing key at rest: 32 random bytes, hex or base64. */
  WEBHOOKS_SIGNING_KEY: env.key32('WEBHOOKS_SIGNING_KEY'),
  /** Delays between failed attempts, e.g. `5m,45m,6h,1d,2d,4d` or `200,500` (milliseconds). */
  WEBHOOKS_RETRY_SCHEDULE: z
    .string()
    .default(DEFAULT_RETRY_SCHEDULE)
    .transform((value, ctx) => {
      try {
        return parseRetrySchedule(value);
      } catch (error) {
        ctx.addIssue({ code: 'custom', message: (error as Error).message });
        return z.NEVER;
      }
    }),
  /**
   * Lets endpoints on loopback and private networks receive deliveries of sandbox clients (never of live ones); only
   * for local runs and tests. False: nobody's.
   */
  WEBHOOKS_ALLOW_PRIVATE_TARGETS: env.booleanString.default(false),
  /** The settings service (host:port), asked for a client's environment when one of its targets is private. */
  SETTINGS_GRPC_URL: z.string().min(1),
  /** How long a receiver may take to answer one attempt. */
  WEBHOOKS_DELIVERY_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(15_000),
  /** Attempts in flight at once on each replica; each holds a database connection only around its own queries. */
  WEBHOOKS_DELIVERY_CONCURRENCY: z.coerce.number().int().min(1).max(200).default(16),
  /**
   * The first attempt of a new delivery made by the process that fanned its event out, right after the fan-out
   * commits (at most WEBHOOKS_DELIVERY_CONCURRENCY requests at once), its job being the fallback; false: the job
   * makes it, when the job runner takes it.
   */
  WEBHOOKS_INLINE_DELIVERY: env.booleanString.default(true),
  /** The durable JetStream consumer of the fan-out; one per database (tests give each instance its own). */
  WEBHOOKS_FANOUT_DURABLE: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be 1 to 64 letters, digits, _ or -')
    .default('webhooks-fanout'),
});

export type WebhooksConfig = z.infer<typeof webhooksConfig>;
