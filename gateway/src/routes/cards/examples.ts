import { SAMPLE } from '../../openapi/samples';
import type { z } from '../../openapi/zod';
import type { CardSchema, CreateCardBody } from './schemas';

export const CREATE_CARD: z.input<typeof CreateCardBody> = { tokenId: SAMPLE.tokenId, merchantId: SAMPLE.merchantId, cvvCheck: true };

export const CARD: z.input<typeof CardSchema> = {
  id: SAMPLE.cardId,
  status: 'active',
  brand: 'visa',
  cardHolderName: 'Ana Souza',
  first6digits: '400000',
  last4digits: '0010',
  expirationMonth: 12,
  expirationYear: 2030,
  fingerprint: 'RTD0w4oofFcrf-4MHargBaM0H_4BeUXqgpzjycKaJAM',
  cvvChecked: true,
  customerId: null,
  merchantId: SAMPLE.merchantId,
  clientId: SAMPLE.clientId,
  createdAt: SAMPLE.createdAt,
  updatedAt: SAMPLE.createdAt,
};
