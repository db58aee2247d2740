import { z } from 'zod';

/**
 * A provider entry of type STRIPE: the merchant's own Stripe account. Stripe authenticates with the account's
 * secret key ("API keys": `sk_test_...` in test mode, `sk_live_...` in live mode; a restricted key `rk_...` with
 * the PaymentIntents and Refunds permissions works alike) and signs the events it posts to the account's webhook
 * endpoint with that endpoint's signing secret (`whsec_...`). Both are write-only (sealed in the vault, never
 * returned, logged or traced).
 *
 * Stripe has one host for both modes; the key decides. `environment` is kept consistent with it: `sandbox` takes
 * test keys only and `production` live keys only, so an entry cannot say one thing and do the other.
 */
export const stripeCredentials = z
  .object({
    type: z.literal('STRIPE'),
    secretKey: z
      .string({ error: 'is required' })
      .trim()
      .regex(/^(sk|rk)_(test|live)_[A-Za-z0-9]{8,247}$/, 'must be a Stripe secret key (sk_test_... or sk_live_...)'),
    webhookSecret: z
      .string({ error: 'is required' })
      .trim()
      .regex(/^whsec_[A-Za-z0-9+/=]{8,200}$/, 'must be the webhook endpoint signing secret (whsec_...)'),
    environment: z.enum(['sandbox', 'production'], { error: 'must be sandbox or production' }).optional(),
  })
  .superRefine((credentials, context) => {
    const live = /^(sk|rk)_live_/.test(credentials.secretKey);
    if (credentials.environment === 'sandbox' && live) {
      context.addIssue({ code: 'custom', path: ['secretKey'], message: 'must be a test mode key (sk_test_...) for the sandbox environment' });
    }
    if (credentials.environment === 'production' && !live) {
      context.addIssue({ code: 'custom', path: ['secretKey'], message: 'must be a live mode key (sk_live_...) for the production environment' });
    }
  });

export type StripeCredentials = z.infer<typeof stripeCredentials>;
