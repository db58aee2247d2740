import { errors, isUuid, type Queryable, requireClientId } from '@platform/kit';
import type { StoredToken, TokenStore } from '../store/tokenStore';
import type { VaultContext } from './context';

/**
 * Why a token of the client cannot be used where it was given: a session is paid only with a token made with that
 * session's public key, and a token made with a session's key pays that session only (never another charge or a saved card).
 */
export function tokenNotForSession(madeFor: string | null, usedFor: string | null): Error {
  return usedFor !== null
    ? errors.businessRule(
        'token_not_for_session',
        madeFor === null
          ? "This token was made with a client key: a session is paid only with a token made with that session's publicKey"
          : "This token was made for another session: a session is paid only with a token made with that session's publicKey",
      )
    : errors.businessRule('token_not_for_session', "This token was made with a session's publicKey: it pays that session only");
}

/**
 * Uses up a token for a charge of `sessionId` (null: a charge or a card of the client itself), in the caller's
 * transaction. A token made for another session (or with a client key, for a session) is refused with
 * `token_not_for_session` and left untouched; an unknown, used or expired one is not_found.
 */
export async function consumeToken(
  tokens: TokenStore,
  tx: Queryable,
  clientId: string,
  tokenId: string,
  now: Date,
  use: { chargeId?: string; sessionId: string | null },
): Promise<StoredToken> {
  const used = await tokens.consume(tx, clientId, tokenId, now, use.chargeId, use.sessionId);
  if (used) return used;
  const madeFor = await tokens.sessionOf(tx, clientId, tokenId);
  if (madeFor !== undefined && madeFor !== use.sessionId) throw tokenNotForSession(madeFor, use.sessionId);
  throw errors.notFound('Token', tokenId);
}

/** The session a token of the client was made for ('' for a client key's token); not_found for an unknown token. */
export async function getTokenSession(ctx: Pick<VaultContext, 'pool' | 'tokens'>, input: { clientId: string; tokenId: string }): Promise<{ sessionId: string }> {
  const clientId = requireClientId(input.clientId);
  const tokenId = input.tokenId.trim().toLowerCase();
  if (!isUuid(tokenId)) throw errors.notFound('Token', input.tokenId);
  const madeFor = await ctx.tokens.sessionOf(ctx.pool, clientId, tokenId);
  if (madeFor === undefined) throw errors.notFound('Token', input.tokenId);
  return { sessionId: madeFor ?? '' };
}
