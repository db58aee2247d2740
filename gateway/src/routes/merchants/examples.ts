import { SAMPLE } from '../../openapi/samples';
import type { z } from '../../openapi/zod';
import type { CreateMerchantBody, MerchantSchema } from './schemas';

export const CREATE_MERCHANT: z.input<typeof CreateMerchantBody> = {
  mcc: '5999',
  name: 'Loja Exemplo',
  providers: [
    { name: 'sandbox-a', priority: 1, credentials: { type: 'SANDBOX' } },
    { name: 'sandbox-b', priority: 2, credentials: { type: 'SANDBOX' } },
  ],
};

const provider = (id: string, name: string, priority: number) => ({
  id,
  merchantId: SAMPLE.merchantId,
  name,
  priority,
  credentials: { type: 'SANDBOX' },
  options: {},
  createdAt: SAMPLE.createdAt,
  updatedAt: SAMPLE.createdAt,
});

export const MERCHANT: z.input<typeof MerchantSchema> = {
  id: SAMPLE.merchantId,
  clientId: SAMPLE.clientId,
  mcc: '5999',
  name: 'Loja Exemplo',
  merchantName: null,
  merchantUrl: null,
  status: 'active',
  providers: [provider(SAMPLE.providerId, 'sandbox-a', 1), provider('7c1e9a40-5b3d-4f2a-8e6c-2d9b0a4f1e73', 'sandbox-b', 2)],
  platformFeeEnabled: false,
  createdAt: SAMPLE.createdAt,
  updatedAt: SAMPLE.createdAt,
};
