import type { payments } from '@platform/contracts';
import { z } from '../zod';
import { timestampOrNull } from './json';

/** A card token: single use, it expires. */
export const CardTokenSchema = z
  .object({
    tokenId: z.string().openapi({ description: 'Single use; saves a card (POST /v1/cards) or pays a charge' }),
    expiresAt: z.iso.datetime().nullable(),
  })
  .openapi('CardToken');

export type CardTokenJson = z.infer<typeof CardTokenSchema>;

export function toCardTokenJson(token: payments.CardToken): CardTokenJson {
  return { tokenId: token.tokenId, expiresAt: timestampOrNull(token.expiresAt) };
}
