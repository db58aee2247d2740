import { z } from 'zod';

/**
 * A provider entry of type PAGARME: the merchant's account at Pagar.me's core API v5. Secrets are write-only
 * (sealed in the vault, never returned, logged or traced).
 */
export const pagarmeCredentials = z
  .object({
    type: z.literal('PAGARME'),
    /**
     * The account's secret key ("Chaves de API": `sk_test_...` for the test environment, `sk_...` live), sent as
     * the HTTP Basic user with an empty password.
     */
    secretKey: z
      .string({ error: 'is required' })
      .trim()
      .regex(/^sk_(test_)?[A-Za-z0-9]{8,}$/, 'must be a Pagar.me secret key (sk_... or sk_test_...)'),
    /** Pagar.me has one host for both; the key says which environment it is. Kept for the operator's records. */
    environment: z.enum(['sandbox', 'production'], { error: 'must be sandbox or production' }).optional(),
    /**
     * The Basic credentials configured on the account's webhook in the dashboard: when set, a notification
     * without them is refused. Either both or neither.
     */
    webhookUser: z.string().min(1, 'must not be empty').max(100, 'must be at most 100 characters').optional(),
    webhookPassword: z.string().min(1, 'must not be empty').max(200, 'must be at most 200 characters').optional(),
  })
  .refine((c) => (c.webhookUser === undefined) === (c.webhookPassword === undefined), {
    message: 'webhookUser and webhookPassword go together',
    path: ['webhookPassword'],
  });

export type PagarmeCredentials = z.infer<typeof pagarmeCredentials>;
