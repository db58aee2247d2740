import { z } from 'zod';

/**
 * Variables of this service on top of the kit's (GRPC_PORT, DATABASE_URL, NATS_URL, LOG_LEVEL, every
 * <NAME>_GRPC_URL). A variable added here is also listed in the service's catalog entry (packages/catalog) so the
 * launcher, compose and Helm set it.
 */
export const sellersAndReviewsConfig = z.object({});

export type SellersAndReviewsConfig = z.infer<typeof sellersAndReviewsConfig>;
