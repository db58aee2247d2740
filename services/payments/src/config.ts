import { env } from '@platform/kit';
import { z } from 'zod';
import { parseKeyRing } from './modules/vault/crypto/keyRing';
import { SPLIT_CHECK_TIMEOUT_MS_DEFAULT } from './shared/sellersPort';
import { CASCADE_MAX_EXTRA_ATTEMPTS_DEFAULT, CASCADE_MAX_TECHNICAL_ATTEMPTS_DEFAULT } from './modules/charges/domain/cascade';

const { key32 } = env;

/** An empty variable (a compose file's `${VAR:-}`) counts as unset. */
const unsetWhenEmpty = (value: unknown) => (typeof value === 'string' && value.trim() === '' ? undefined : value);

/**
 * Success-rate routing (a flow route in `success_rate` mode) and the elimination of providers that fail technically;
 * see src/modules/charges/domain/successRate.ts.
 */
export const routingConfig = z.object({
  /** Latest attempts of a provider its approval rate is read from. */
  ROUTING_SUCCESS_RATE_WINDOW: z.coerce.number().int().min(10).max(1000).default(100),
  /** Weight, in attempts, of the route's pooled approval rate a provider with few answers is ranked near. */
  ROUTING_PRIOR_WEIGHT: z.coerce.number().int().min(0).max(1000).default(10),
  /** Percent of charges routed in another order (drawn from the charge id) to keep learning. */
  ROUTING_EXPLORE_PERCENT: z.coerce.number().min(0).max(50).default(5),
  /** Latest attempts whose technical failures decide whether a provider is taken out. */
  ROUTING_ELIMINATION_WINDOW: z.coerce.number().int().min(2).max(1000).default(20),
  /** Percent of those attempts failed technically that takes a provider out. */
  ROUTING_ELIMINATION_PERCENT: z.coerce.number().int().min(1).max(100).default(50),
  /** How long a provider taken out is tried only last before it is probed. */
  ROUTING_COOLDOWN_SECONDS: z.coerce.number().int().min(1).max(86_400).default(60),
  /** A provider being probed back is tried first by one charge in this many, until its window recovers. */
  ROUTING_PROBE_EVERY: z.coerce.number().int().min(1).max(1000).default(10),
  /**
   * How often the process writes the charges' provider outcomes it buffered, in one statement (OutcomeRecorder); a
   * charge is routed on outcomes up to this much older than itself.
   */
  OUTCOMES_FLUSH_MS: z.coerce.number().int().min(10).max(60_000).default(200),
});

export const paymentsConfig = z.object({
  ...routingConfig.shape,
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
  /**
   * How long a merchant's configuration for charges (its providers with their credentials opened, its flow, its
   * platform fee) is kept in memory. A change made through this process is seen by its next charge; one made through
   * another replica is seen within this time. 0 reads it for every charge.
   */
  MERCHANT_CACHE_TTL_MS: z.coerce.number().int().min(0).max(300_000).default(5000),
  /**
   * Extra providers a charge may be tried on after soft declines (a decline whose decision is
   * retry_other_provider), besides the first; timeouts and unreachable providers move on without counting here.
   */
  CASCADE_MAX_EXTRA_ATTEMPTS: z.coerce.number().int().min(0).max(10).default(CASCADE_MAX_EXTRA_ATTEMPTS_DEFAULT),
  /** Providers a charge is tried on in all after technical failures (known to have done nothing, or looked up and not found). */
  CASCADE_MAX_TECHNICAL_ATTEMPTS: z.coerce.number().int().min(1).max(20).default(CASCADE_MAX_TECHNICAL_ATTEMPTS_DEFAULT),
  /** The whole time a charge may spend at its providers (below the gateway's 15 s deadline for payments). */
  CHARGE_TIME_BUDGET_MS: z.coerce.number().int().min(100).max(120_000).default(12_000),
  /** Base URL for QR code and barcode images the sandbox provider points to. */
  PUBLIC_URL: z.string().url().default('http://localhost:8080'),
  /** The customers service (host:port), asked whether a charge's customer exists and is the caller's. */
  CUSTOMERS_GRPC_URL: z.string().min(1),
  /** The sellers-and-reviews service (host:port), asked whether the sellers of a split can receive. */
  SELLERS_AND_REVIEWS_GRPC_URL: z.string().min(1),
  /** How long the split check waits for sellers-and-reviews before the charge fails with a 503 naming that check. */
  SPLIT_CHECK_TIMEOUT_MS: z.coerce.number().int().min(50).max(15_000).default(SPLIT_CHECK_TIMEOUT_MS_DEFAULT),
  /** The settings service (host:port), asked for a client's subscription settings (retry policy, statement descriptor). */
  SETTINGS_GRPC_URL: z.string().min(1),
  /**
   * Report builds one client may have running at once, on all replicas together; the client's other reports wait,
   * `created`, in the job queue (the database), and another client's builds are not held up by them.
   */
  REPORT_BUILDS_PER_CLIENT: z.coerce.number().int().min(1).max(50).default(2),
});

export type PaymentsConfig = z.infer<typeof paymentsConfig>;
