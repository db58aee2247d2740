import { env } from '@platform/kit';
import { z } from 'zod';
import { parseKeyRing } from './modules/vault/crypto/keyRing';

const { key32 } = env;

/** An empty variable (a compose file's `${VAR:-}`) counts as unset. */
const unsetWhenEmpty = (value: unknown) => (typeof value === 'string' && value.trim() === '' ? undefined : value);

export const paymentsConfig = z.object({
  /**
   * The vault's key ring: `id:key` entries separated by commas (32 random bytes each, hex or base64), the first the
   * one that seals. The master keys wrap the data key of every card number, token CVV and provider credentials.
   * Required unless CARD_ENCRYPTION_KEY is set (see src/modules/vault/crypto/keyRing.ts).
   */
  CARD_ENCRYPTION_KEYS: z.preprocess(
    unsetWhenEmpty,
    z
      .string()
      .optional()
      .transform((value, ctx) => {
        if (value === undefined) return undefined;
        try {
          return parseKeyRing(value);
        } catch (error) {
          ctx.addIssue({ code: 'custom', message: (error as Error).message });
          return z.NEVER;
        }
      }),
  ),
  /** The single master key of earlier versions: the key `k0` of the ring (values sealed before key ids open with it). */
  CARD_ENCRYPTION_KEY: z.preprocess(unsetWhenEmpty, key32('CARD_ENCRYPTION_KEY').optional()),
  /** Key of the card fingerprint (HMAC-SHA256 of the number): the same card gives the same fingerprint. Not rotated with the ring. */
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
  /**
   * Report builds one client may have running at once, on all replicas together; the client's other reports wait,
   * `created`, in the job queue (the database), and another client's builds are not held up by them.
   */
  REPORT_BUILDS_PER_CLIENT: z.coerce.number().int().min(1).max(50).default(2),
});

export type PaymentsConfig = z.infer<typeof paymentsConfig>;
