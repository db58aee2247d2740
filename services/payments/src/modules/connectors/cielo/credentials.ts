import { z } from 'zod';

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A provider entry of type CIELO: the merchant's own store at Cielo's API E-commerce (API 3.0), or the same
 * store through the Braspag gateway (API Pagador), which takes the same sales in the same shapes. Secrets
 * are write-only (sealed in the vault, never returned, logged or traced).
 */
export const cieloCredentials = z.object({
  type: z.literal('CIELO'),
  /** "Store identifier in Cielo" (GUID, 36). */
  merchantId: z.string({ error: 'is required' }).trim().regex(GUID, 'must be a GUID (xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx)'),
  /** "Public Key for Double Authentication in Cielo" (text, 40). */
  merchantKey: z.string({ error: 'is required' }).trim().min(1, 'is required').max(100, 'must be at most 100 characters'),
  environment: z.enum(['sandbox', 'production'], { error: 'must be sandbox or production' }).optional(),
  /** `cielo` (the default): api.cieloecommerce.cielo.com.br, /1/sales. `braspag`: api.braspag.com.br, /v2/sales. */
  gateway: z.enum(['cielo', 'braspag'], { error: 'must be cielo or braspag' }).optional(),
  /**
   * Through Braspag, `Payment.Provider`: "Cielo30" (Cielo's API 3.0, the default in production) or "Simulado"
   * (the sandbox's simulated acquirer, the default in the sandbox).
   */
  braspagProvider: z.enum(['Cielo30', 'Simulado'], { error: 'must be Cielo30 or Simulado' }).optional(),
  /**
   * The static headers registered with Cielo Support for the Notification Post (up to three KEY/VALUE pairs):
   * a notification without all of them is refused.
   */
  notificationHeaders: z
    .record(z.string().trim().min(1).max(100), z.string().min(1, 'must not be empty').max(500, 'must be at most 500 characters'))
    .refine((headers) => Object.keys(headers).length <= 3, 'must have at most 3 headers')
    .optional(),
});

export type CieloCredentials = z.infer<typeof cieloCredentials>;
