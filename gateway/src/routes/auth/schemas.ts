import { ALL_SCOPES, CLIENT_TOKEN_LIMITS, ClientTokenSchema, SCOPE_RESOURCES } from '@platform/api-model';
import { z } from '../../openapi/zod';

export const CreateClientTokenBody = z
  .object({
    scope: z
      .array(z.enum([ALL_SCOPES, ...SCOPE_RESOURCES], { error: `must be "${ALL_SCOPES}" or one of ${SCOPE_RESOURCES.join(', ')}` }))
      .min(1, 'must name at least one scope')
      .max(CLIENT_TOKEN_LIMITS.maxScopes, `must name at most ${CLIENT_TOKEN_LIMITS.maxScopes} scopes`)
      .openapi({ description: '"*" or resource names', example: ['customers'] }),
    expires: z
      .int('must be a whole number of seconds')
      .min(0, 'must be 0 (never) or more')
      .max(CLIENT_TOKEN_LIMITS.maxLifetimeSeconds, `must be at most ${CLIENT_TOKEN_LIMITS.maxLifetimeSeconds} seconds`)
      .openapi({ description: 'Lifetime in seconds; 0 = never expires', example: 600 }),
  })
  .openapi('CreateClientTokenRequest');

/** The answers here are the API model's schemas. */
export { ClientTokenSchema };
