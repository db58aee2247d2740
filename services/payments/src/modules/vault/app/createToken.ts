import { randomUUID } from 'node:crypto';
import { errors, isUuid, jsonCodec, requireClientId, withIdempotency } from '@platform/kit';
import type { IssuedToken } from '../domain/card';
import { parseTokenCard, type CardInput } from './cardInput';
import type { VaultContext } from './context';

export const CREATE_TOKEN_OPERATION = 'payments.tokens.create';

/** The idempotency record keeps the answer as the kit's JSON of the domain result, as every payments operation does. */
const tokenCodec = jsonCodec<IssuedToken>();

/**
 * Seals the card in a single-use token that lives CARD_TOKEN_TTL_SECONDS. With a `sessionId` (the card was tokenized
 * with that session's public key) the token pays that session only.
 */
export async function createToken(
  ctx: VaultContext,
  input: { clientId: string; card?: Partial<CardInput>; sessionId?: string },
  idempotencyKey?: string,
): Promise<IssuedToken> {
  const clientId = requireClientId(input.clientId);
  const sessionId = input.sessionId?.trim() ? input.sessionId.trim().toLowerCase() : null;
  if (sessionId !== null && !isUuid(sessionId)) throw errors.validation('Invalid sessionId', [{ field: 'sessionId', message: 'must be a UUID' }]);
  const now = ctx.clock.now();
  const card = parseTokenCard(input.card, now);
  // The idempotency record keeps a hash of the request: the card enters it only as a keyed MAC, like the fingerprint.
  const request = {
    card: ctx.vault.fingerprint(`token-request:${JSON.stringify([card.number, card.cvv, card.expirationMonth, card.expirationYear, card.holderName])}`),
    sessionId,
  };
  return withIdempotency(ctx.pool, { clientId, key: idempotencyKey, operation: CREATE_TOKEN_OPERATION, request, codec: tokenCodec }, async (tx) => {
    const token = {
      id: randomUUID(),
      clientId,
      panSealed: await ctx.vault.seal('card-number', card.number),
      cvvSealed: await ctx.vault.seal('card-cvv', card.cvv),
      holderName: card.holderName,
      expirationMonth: card.expirationMonth,
      expirationYear: card.expirationYear,
      brand: card.brand,
      first6: card.first6,
      last4: card.last4,
      fingerprint: ctx.vault.fingerprint(card.number),
      expiresAt: new Date(now.getTime() + ctx.config.CARD_TOKEN_TTL_SECONDS * 1000),
      usedAt: null,
      createdAt: now,
      sessionId,
    };
    await ctx.tokens.insert(tx, token);
    return { id: token.id, expiresAt: token.expiresAt };
  });
}
