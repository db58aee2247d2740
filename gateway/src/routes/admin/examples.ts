import { SAMPLE } from '../../openapi/samples';
import type { z } from '../../openapi/zod';
import type { CreateClientBody, CreatedClientSchema } from './schemas';

export const CREATE_CLIENT: z.input<typeof CreateClientBody> = { name: 'Loja Exemplo', environment: 'sandbox' };

export const CREATED_CLIENT: z.input<typeof CreatedClientSchema> = {
  clientId: SAMPLE.clientId,
  apiKey: 'sk_sandbox_ExampleSecretKeyShownOnlyOnceAtCreation_000',
  keyId: '1d7f3b9e-6a2c-4e85-b0f4-9c3a7e1d5b26',
  name: 'Loja Exemplo',
  environment: 'sandbox',
  prepaymentEnabled: false,
  createdAt: SAMPLE.createdAt,
};
