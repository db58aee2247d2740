import { z } from 'zod';

/**
 * A provider entry of type MERCADOPAGO: the seller's application at Mercado Pago ("Your integrations" >
 * credentials). Secrets are write-only (sealed in the vault, never returned, logged or traced).
 */
export const mercadoPagoCredentials = z.object({
  type: z.literal('MERCADOPAGO'),
  /**
   * The application's Access Token ("APP_USR-..." for production credentials, "TEST-..." for test ones), sent as
   * `Authorization: Bearer` on every call.
   */
  accessToken: z
    .string({ error: 'is required' })
    .trim()
    .regex(/^(APP_USR|TEST)-[A-Za-z0-9-]{8,200}$/, 'must be a Mercado Pago access token (APP_USR-... or TEST-...)'),
  /** The "secret signature" of the application's Webhooks (Your integrations > Webhooks), checked on every notification. */
  webhookSecret: z.string({ error: 'is required' }).trim().min(1, 'is required').max(200, 'must be at most 200 characters'),
  /**
   * Mercado Pago has one host for both (test credentials make a test payment); the entry's environment is kept for
   * the operator's records and for the documented host the kit picks.
   */
  environment: z.enum(['sandbox', 'production'], { error: 'must be sandbox or production' }).optional(),
});

export type MercadoPagoCredentials = z.infer<typeof mercadoPagoCredentials>;
