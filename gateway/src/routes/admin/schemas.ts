import { CLIENT_ENVIRONMENTS, CLIENT_LIMITS, ClientSchema, CreatedApiKeySchema, CreatedClientSchema } from '@platform/api-model';
import { z } from '../../openapi/zod';

const name = z.string().min(1, 'must not be empty').max(CLIENT_LIMITS.nameMaxLength, `must be at most ${CLIENT_LIMITS.nameMaxLength} characters`);

export const CreateClientBody = z
  .object({
    name,
    environment: z.enum(CLIENT_ENVIRONMENTS, { error: `must be ${CLIENT_ENVIRONMENTS.join(' or ')}` }),
    prepaymentEnabled: z.boolean().optional(),
  })
  .openapi('CreateClientRequest');

export const UpdateClientBody = z
  .object({
    name: name.optional(),
    prepaymentEnabled: z.boolean().optional(),
  })
  .openapi('UpdateClientRequest');

export const ClientParams = z.object({ clientId: z.string().min(1).max(200) });
export const ApiKeyParams = ClientParams.extend({ keyId: z.string().min(1).max(200) });

/** The answers here are the API model's schemas. */
export { ClientSchema, CreatedApiKeySchema, CreatedClientSchema };
