import { z } from 'zod';

/**
 * Beyond the kit's service environment: the gateway's public origin, so link-settings events carry the logo URL the
 * REST answer shows; where payments listens, to check merchants.
 */
export const settingsConfig = z.object({
  PUBLIC_URL: z
    .url({ protocol: /^https?$/ })
    .default('http://localhost:8080')
    .transform((url) => url.replace(/\/+$/, '')),
  /** The payments service (host:port), asked whether the merchant of a payment-link setting is the caller's. */
  PAYMENTS_GRPC_URL: z.string().min(1),
});

export type SettingsConfig = z.infer<typeof settingsConfig>;
