import type { payments } from '@platform/contracts';
import { timestampOrNull } from './json';

/** A card token: single use, it expires. */
export interface CardTokenJson {
  tokenId: string;
  expiresAt: string | null;
}

export function toCardTokenJson(token: payments.CardToken): CardTokenJson {
  return { tokenId: token.tokenId, expiresAt: timestampOrNull(token.expiresAt) };
}
