import { SAMPLE } from '../../openapi/samples';
import type { z } from '../../openapi/zod';
import type { ClientTokenSchema, CreateClientTokenBody } from './schemas';

export const CREATE_PUBLIC_KEY: z.input<typeof CreateClientTokenBody> = { scope: ['tokens'], expires: 3_600 };

export const PUBLIC_KEY: z.input<typeof ClientTokenSchema> = {
  clientId: SAMPLE.clientId,
  publicKey: 'pk_sandbox_ExamplePublicKeyForTokensOnlyForAnHour_0000',
  keyId: SAMPLE.keyId,
  scope: ['tokens'],
  expires: 3_600,
  createdAt: SAMPLE.createdAt,
  expiresAt: '2026-03-02T15:20:31.938Z',
};
