import { randomUUID } from 'node:crypto';
import { errors, jsonCodec, requireClientId, withIdempotency } from '@platform/kit';
import { isExpired, type SavedCard } from '../domain/card';
import { recordCardCreated } from '../events/cardEvents';
import { expiredCard } from './cardInput';
import type { VaultContext } from './context';
import { sandboxCvvVerified } from './cvvCheck';
import { consumeToken } from './tokenSession';

export const CREATE_CARD_OPERATION = 'payments.cards.create';

/** The idempotency record keeps the answer as the kit's JSON of the domain result, as every payments operation does. */
const cardCodec = jsonCodec<SavedCard>();

export interface CreateCardInput {
  clientId: string;
  tokenId: string;
  /** The merchant whose provider verifies the card; optional. */
  merchantId?: string;
  cvvCheck: boolean;
}

/**
 * Saves the card of a token. The token is used up and its CVV erased in the same transaction, so the CVV is
 * never kept beyond this verification.
 */
export async function createCard(ctx: VaultContext, input: CreateCardInput, idempotencyKey?: string): Promise<SavedCard> {
  const clientId = requireClientId(input.clientId);
  const merchantId = input.merchantId?.trim() ? input.merchantId.trim().toLowerCase() : null;
  const created = await withIdempotency(
    ctx.pool,
    { clientId, key: idempotencyKey, operation: CREATE_CARD_OPERATION, request: input, codec: cardCodec },
    async (tx) => {
      if (merchantId !== null && !(await ctx.merchants.findMerchant(tx, clientId, merchantId))) {
        throw errors.notFound('Merchant', merchantId);
      }
      const now = ctx.clock.now();
      // A token made with a session's public key pays that session only: it saves no card.
      const token = await consumeToken(ctx.tokens, tx, clientId, input.tokenId, now, { sessionId: null });
      if (isExpired({ month: token.expirationMonth, year: token.expirationYear }, now)) throw expiredCard();
      const cvv = token.cvvSealed ? await ctx.vault.open('card-cvv', token.cvvSealed) : undefined;
      const card = await ctx.cards.insert(
        tx,
        {
          id: randomUUID(),
          clientId,
          customerId: null,
          merchantId,
          status: 'active',
          brand: token.brand,
          holderName: token.holderName,
          first6: token.first6,
          last4: token.last4,
          expirationMonth: token.expirationMonth,
          expirationYear: token.expirationYear,
          fingerprint: token.fingerprint,
          cvvChecked: input.cvvCheck && cvv !== undefined && sandboxCvvVerified(cvv),
          createdAt: now,
          updatedAt: now,
        },
        token.panSealed,
      );
      await recordCardCreated(tx, card, now);
      return card;
    },
  );
  ctx.outbox.kick();
  return created;
}
