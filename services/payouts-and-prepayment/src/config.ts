import { z } from 'zod';

/**
 * Variables of this service on top of the kit's (GRPC_PORT, DATABASE_URL, NATS_URL, LOG_LEVEL, every
 * <NAME>_GRPC_URL). A variable added here is also listed in the service's catalog entry (packages/catalog) so the
 * launcher, compose and Helm set it.
 */
export const payoutsAndPrepaymentConfig = z.object({
  /** The settings service (host:port), asked whether a client may prepay. */
  SETTINGS_GRPC_URL: z.string().min(1),
  /** The durable consumer of `payments.charge.*` (tests sharing a NATS server set their own). */
  PAYOUTS_CHARGES_DURABLE: z.string().regex(/^[A-Za-z0-9_-]+$/).default('payouts'),
  /** The durable consumer of `sellers.seller.*`. */
  PAYOUTS_SELLERS_DURABLE: z.string().regex(/^[A-Za-z0-9_-]+$/).default('payouts_sellers'),
  /**
   * When the daily settlement runs, as a cron pattern in UTC: 09:00 UTC is 06:00 in Brasília. `off` schedules
   * nothing (settlement then runs only through the sandbox advance, or an outside scheduler calling it).
   */
  PAYOUTS_SETTLEMENT_CRON: z.union([z.literal('off'), z.string().min(9)]).default('0 9 * * *'),
});

export type PayoutsAndPrepaymentConfig = z.infer<typeof payoutsAndPrepaymentConfig>;
