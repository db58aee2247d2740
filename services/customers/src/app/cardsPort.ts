import type { payments } from '@platform/contracts';
import type { PromiseClient } from '@platform/kit';

/** A saved card as payments describes it (no number, no CVV). */
export type CardSummary = Pick<
  payments.Card,
  'id' | 'status' | 'brand' | 'cardHolderName' | 'first6digits' | 'last4digits' | 'expirationMonth' | 'expirationYear' | 'fingerprint' | 'cvvChecked' | 'createdAt'
>;

/** What customers needs to know about cards; the vault that holds them belongs to payments. */
export interface CardsPort {
  /** not_found when the card is unknown or another client's. */
  getCard(clientId: string, cardId: string): Promise<CardSummary>;
  assignToCustomer(clientId: string, cardId: string, customerId: string): Promise<void>;
  listByIds(clientId: string, ids: string[]): Promise<CardSummary[]>;
}

export function createPaymentsCardsPort(client: PromiseClient<typeof payments.PaymentsServiceService>): CardsPort {
  return {
    getCard: (clientId, cardId) => client.getCard({ clientId, id: cardId }),
    assignToCustomer: async (clientId, cardId, customerId) => {
      await client.assignCardToCustomer({ clientId, cardId, customerId });
    },
    listByIds: async (clientId, ids) => {
      if (ids.length === 0) return [];
      const { items } = await client.listCards({ clientId, ids, page: { page: 1, limit: Math.min(100, ids.length), sort: 'DESC' } });
      return items;
    },
  };
}
