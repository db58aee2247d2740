import { env } from '@platform/kit';
import { z } from 'zod';

const { key32 } = env;

export const paymentsConfig = z.object({
  /** Master key of the vault: card numbers, token CVVs and provider credentials are encrypted under keys derived from it. */
  CARD_ENCRYPTION_KEY: key32('CARD_ENCRYPTION_KEY'),
  /** Key of the card fingerprint (HMAC-SHA256 of the number): the same card gives the same fingerprint. */
  CARD_FINGERPRINT_KEY: key32('CARD_FINGERPRINT_KEY'),
  /** How long a card token lives. */
  CARD_TOKEN_TTL_SECONDS: z.coerce.number().int().min(30).max(3600).default(900),
  /** How long one provider request may take before it counts as a timeout (a technical failure). */
  PROVIDER_TIMEOUT_MS: z.coerce.number().int().min(50).max(60_000).default(5000),
  /** Base URL for QR code and barcode images the sandbox provider points to. */
  PUBLIC_URL: z.string().url().default('http://localhost:8080'),
  /** The customers service (host:port), asked whether a charge's customer exists and is the caller's. */
  CUSTOMERS_GRPC_URL: z.string().min(1),
  /** The sellers-and-reviews service (host:port), asked whether the sellers of a split can receive. */
  SELLERS_AND_REVIEWS_GRPC_URL: z.string().min(1),
  /** The settings service (host:port), asked for a client's subscription settings (retry policy, statement descriptor). */
  SETTINGS_GRPC_URL: z.string().min(1),
});

export type PaymentsConfig = z.infer<typeof paymentsConfig>;
