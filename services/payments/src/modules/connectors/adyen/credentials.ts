import { z } from 'zod';

/**
 * A provider entry of type ADYEN: the merchant's own Adyen company account (Checkout API v72).
 * - `apiKey`: the API credential's key (Customer Area, Developers > API credentials), sent as `X-API-Key`.
 * - `merchantAccount`: the merchant account the payments are made under.
 * - `hmacKey`: the hex HMAC key of the merchant's Standard webhook; every notification item must carry its
 *   `additionalData.hmacSignature` computed with it.
 * - `environment`: `sandbox` (Adyen's test platform, checkout-test.adyen.com) or `production` (the default).
 * - `liveEndpointUrlPrefix`: Adyen's live Checkout host is the merchant's own,
 *   `https://{prefix}-checkout-live.adyenpayments.com/checkout/v72`; the prefix ("[random]-[company name]") is
 *   shown in the live Customer Area (Developers > API URLs). Required in production.
 * Secrets are write-only: sealed in the vault, never returned, logged or traced.
 */
export const adyenCredentials = z
  .object({
    type: z.literal('ADYEN'),
    apiKey: z.string({ error: 'is required' }).trim().min(20, 'must be at least 20 characters').max(500, 'must be at most 500 characters'),
    merchantAccount: z
      .string({ error: 'is required' })
      .trim()
      .regex(/^[A-Za-z0-9_.-]{1,80}$/, 'must be the merchant account name (letters, digits, _ . -)'),
    hmacKey: z
      .string({ error: 'is required' })
      .trim()
      .regex(/^(?:[0-9A-Fa-f]{2}){16,64}$/, 'must be the webhook HMAC key in hexadecimal'),
    environment: z.enum(['sandbox', 'production'], { error: 'must be sandbox or production' }).optional(),
    liveEndpointUrlPrefix: z
      .string()
      .trim()
      .regex(/^[A-Za-z0-9][A-Za-z0-9-]{0,99}$/, 'must be the live endpoint prefix of the Customer Area ([random]-[company name])')
      .optional(),
  })
  .refine((credentials) => credentials.environment === 'sandbox' || credentials.liveEndpointUrlPrefix !== undefined, {
    message: 'is required in production (the live Checkout host is the merchant’s own)',
    path: ['liveEndpointUrlPrefix'],
  });

export type AdyenCredentials = z.infer<typeof adyenCredentials>;
