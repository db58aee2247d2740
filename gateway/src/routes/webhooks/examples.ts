import { SAMPLE } from '../../openapi/samples';
import type { z } from '../../openapi/zod';
import type { CreatedWebhookSchema, CreateWebhookBody } from './schemas';

export const CREATE_WEBHOOK: z.input<typeof CreateWebhookBody> = { event: 'authorized', endpoint: 'https://store.example.com/webhooks', version: 1.1 };

export const CREATED_WEBHOOK: z.input<typeof CreatedWebhookSchema> = {
  id: SAMPLE.webhookId,
  clientId: SAMPLE.clientId,
  event: 'authorized',
  endpoint: 'https://store.example.com/webhooks',
  version: 1.1,
  status: true,
  publicKey: '-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VwAyEAfYexrBxC/4iqS7EDWEzTPK4S2OnmAV6fpLAm7fQqiS8=\n-----END PUBLIC KEY-----\n',
  secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw5Mm6B8pAxRg=',
  createdAt: SAMPLE.createdAt,
  updatedAt: SAMPLE.createdAt,
};
