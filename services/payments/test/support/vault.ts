import type { payments } from '@platform/contracts';
import { cardInput, type RunningPayments } from './payments';

/** Tokenizes and saves a card in one go. */
export async function savedCard(running: RunningPayments, clientId: string, card: payments.CardInput = cardInput()): Promise<payments.Card> {
  const { tokenId } = await running.client.createToken({ clientId, card });
  return running.client.createCard({ clientId, tokenId, merchantId: '', cvvCheck: false });
}
