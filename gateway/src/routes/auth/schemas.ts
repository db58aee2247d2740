import { z } from '../../openapi/zod';

export const CreateClientTokenBody = z
  .object({
    scope: z
      .array(z.string().min(1, 'must not be empty').max(64, 'must be at most 64 characters'))
      .min(1, 'must name at least one scope')
      .max(32, 'must name at most 32 scopes')
      .openapi({ description: '"*" or resource names: tokens, cards, charges, customers, sessions, webhooks, ...', example: ['customers'] }),
    expires: z.int('must be a whole number of seconds').min(0, 'must be 0 (never) or more').openapi({ description: 'Lifetime in seconds; 0 = never expires', example: 600 }),
  })
  .openapi('CreateClientTokenRequest');

export const ClientTokenSchema = z
  .object({
    clientId: z.string(),
    publicKey: z.string().openapi({ description: 'Goes in X-Api-Key; reaches only its scopes' }),
    keyId: z.string().openapi({ description: 'Id of the public key, to revoke it' }),
    scope: z.array(z.string()),
    expires: z.int(),
    createdAt: z.iso.datetime(),
    expiresAt: z.iso.datetime().nullable().openapi({ description: 'null when the key never expires' }),
  })
  .openapi('ClientToken');

export type ClientTokenJson = z.infer<typeof ClientTokenSchema>;
