import { env } from '@platform/kit';
import { z } from 'zod';

/**
 * Variables of this service on top of the kit's (GRPC_PORT, DATABASE_URL, NATS_URL, LOG_LEVEL, every
 * <NAME>_GRPC_URL). A variable added here is also listed in the service's catalog entry (packages/catalog) so the
 * launcher, compose and Helm set it.
 */
export const sessionsConfig = z.object({
  /** Keys the sessions' public keys (an HMAC of the session id). */
  SESSIONS_KEY_SECRET: env.key32('SESSIONS_KEY_SECRET'),
  /** The gateway's external base URL: a payment link is `<PUBLIC_URL>/checkout/<sessionId>`. */
  PUBLIC_URL: z
    .url({ protocol: /^https?$/ })
    .default('http://localhost:8080')
    .transform((url) => url.replace(/\/+$/, '')),
  /** The payments service (host:port), which makes the sessions' charges. */
  PAYMENTS_GRPC_URL: z.string().min(1),
  /** The sellers-and-reviews service (host:port), asked whether the sellers of a session's split can receive. */
  SELLERS_AND_REVIEWS_GRPC_URL: z.string().min(1),
  /** The durable consumer of `payments.charge.*`, named after the service (tests sharing a NATS server set their own). */
  SESSIONS_CHARGES_DURABLE: z.string().regex(/^[A-Za-z0-9_-]+$/).default('sessions'),
});

export type SessionsConfig = z.infer<typeof sessionsConfig>;
