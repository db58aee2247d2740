import { toCardJson } from '@platform/api-model';
import { enqueueEvent, type Queryable } from '@platform/kit';
import type { SavedCard } from '../domain/card';
import { toCardMessage } from '../wire/vaultMessages';

export const CARD_CREATED = 'payments.card.created';

/** Written in the transaction that saves the card, with the card as the REST API shows it (never its number). */
export async function recordCardCreated(tx: Queryable, card: SavedCard, occurredAt: Date): Promise<void> {
  await enqueueEvent(tx, { type: CARD_CREATED, clientId: card.clientId, data: toCardJson(toCardMessage(card)), occurredAt });
}
