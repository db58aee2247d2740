import { errors, type Queryable, requireClientId } from '@platform/kit';
import type { PaymentsDeps } from '../../../shared/deps';
import { cvvValid, isExpired, type CardData } from '../domain/card';
import type { CardStore } from '../store/cardStore';
import type { TokenStore } from '../store/tokenStore';
import type { VaultLookup } from '../../charges/app/deps';
import type { CardSource } from '../../../shared/ports';
import { expiredCard, parseInlineCard } from './cardInput';
import { consumeToken } from './tokenSession';

function required(field: string, message: string) {
  return errors.validation('Invalid payment source', [{ field: `paymentSource.${field}`, message }]);
}

/** Opens the card a charge pays with; nothing of an inline card is stored. */
export function createCardSource(deps: Pick<PaymentsDeps, 'vault' | 'clock'> & { cards: CardStore; tokens: TokenStore }): CardSource {
  const { cards, tokens } = deps;

  async function savedCard(tx: Queryable, clientId: string, cardId: string, cvv: string, now: Date): Promise<CardData> {
    const found = await cards.findSealed(tx, clientId, cardId);
    if (!found || found.card.status !== 'active') throw errors.notFound('Card', cardId);
    const { card } = found;
    if (cvv !== '' && !cvvValid(cvv, card.brand)) throw required('cardCvv', card.brand === 'amex' ? 'must be 4 digits' : 'must be 3 digits');
    if (isExpired({ month: card.expirationMonth, year: card.expirationYear }, now)) throw expiredCard();
    return {
      cardId: card.id,
      number: await deps.vault.open('card-number', found.panSealed),
      ...(cvv !== '' ? { cvv } : {}),
      expirationMonth: card.expirationMonth,
      expirationYear: card.expirationYear,
      holderName: card.holderName,
      brand: card.brand,
      first6: card.first6,
      last4: card.last4,
      fingerprint: card.fingerprint,
    };
  }

  async function token(tx: Queryable, clientId: string, tokenId: string, now: Date, use: { chargeId?: string; sessionId: string | null }): Promise<CardData> {
    const used = await consumeToken(tokens, tx, clientId, tokenId, now, use);
    if (isExpired({ month: used.expirationMonth, year: used.expirationYear }, now)) throw expiredCard();
    return {
      tokenId: used.id,
      number: await deps.vault.open('card-number', used.panSealed),
      ...(used.cvvSealed ? { cvv: await deps.vault.open('card-cvv', used.cvvSealed) } : {}),
      expirationMonth: used.expirationMonth,
      expirationYear: used.expirationYear,
      holderName: used.holderName,
      brand: used.brand,
      first6: used.first6,
      last4: used.last4,
      fingerprint: used.fingerprint,
    };
  }

  return {
    async resolve(tx, rawClientId, source, options = {}) {
      const clientId = requireClientId(rawClientId);
      const now = deps.clock.now();
      switch (source.sourceType.trim().toLowerCase()) {
        case 'card': {
          if (source.cardId.trim() !== '') return savedCard(tx, clientId, source.cardId.trim(), source.cardCvv.trim(), now);
          if (source.card) {
            const card = parseInlineCard(source.card, now, 'paymentSource.card');
            return {
              number: card.number,
              cvv: card.cvv,
              expirationMonth: card.expirationMonth,
              expirationYear: card.expirationYear,
              holderName: card.holderName,
              brand: card.brand,
              first6: card.first6,
              last4: card.last4,
              fingerprint: deps.vault.fingerprint(card.number),
            };
          }
          throw required('cardId', 'is required: give cardId or card');
        }
        case 'token':
          if (source.tokenId.trim() === '') throw required('tokenId', 'is required');
          return token(tx, clientId, source.tokenId.trim(), now, { ...(options.chargeId ? { chargeId: options.chargeId } : {}), sessionId: options.sessionId ?? null });
        default:
          throw required('sourceType', 'must be card or token for a card payment');
      }
    },
  };
}

/** What the 3DS setup asks of the vault: whether a card or a usable token exists. */
export function createVaultLookup(stores: { cards: CardStore; tokens: TokenStore }): VaultLookup {
  return {
    cardExists: async (db, clientId, cardId) => (await stores.cards.findById(db, clientId, cardId)) !== null,
    tokenUsable: async (db, clientId, tokenId, now) => (await stores.tokens.findUsable(db, clientId, tokenId, now)) !== null,
  };
}
