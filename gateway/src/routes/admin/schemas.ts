import { CLIENT_ENVIRONMENTS, CLIENT_LIMITS } from '@platform/api-model';
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

export const ClientSchema = z
  .object({
    clientId: z.string(),
    name: z.string(),
    environment: z.string().openapi({ example: 'sandbox' }),
    prepaymentEnabled: z.boolean(),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .openapi('Client');

export const CreatedClientSchema = z
  .object({
    clientId: z.string(),
    apiKey: z.string().openapi({ description: 'The secret key, shown only here' }),
    keyId: z.string(),
    name: z.string(),
    environment: z.string(),
    prepaymentEnabled: z.boolean(),
    createdAt: z.iso.datetime(),
  })
  .openapi('CreatedClient');

export const CreatedApiKeySchema = z
  .object({
    keyId: z.string(),
    apiKey: z.string().openapi({ description: 'The secret key, shown only here' }),
    createdAt: z.iso.datetime(),
  })
  .openapi('CreatedApiKey');
