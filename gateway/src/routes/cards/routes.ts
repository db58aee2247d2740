import type { PaymentsClient } from '../../clients';
import { toList } from '../../http/pagination';
import { defineRoute, type RouteDefinition } from '../../http/route';
import { TAGS } from '../../openapi/tags';
import { CARD, CREATE_CARD } from './examples';
import { toCardJson, toCreateCardRequest, toListCardsRequest } from './mapping';
import { CardListSchema, CardParams, CardSchema, CreateCardBody, ListCardsQuery } from './schemas';

const tags = [TAGS.cards] as const;

export function cardRoutes({ payments }: { payments: PaymentsClient }): RouteDefinition[] {
  return [
    defineRoute({
      method: 'post',
      path: '/v1/cards',
      operationId: 'createCard',
      summary: 'Save the card of a token',
      description: "With a merchantId, that merchant's provider verifies the card (and its CVV when cvvCheck is true).",
      tags,
      resource: 'cards',
      body: CreateCardBody,
      errors: [402, 409, 422],
      response: { status: 201, description: 'The card (never its number or CVV)', schema: CardSchema },
      examples: { request: { verified: { summary: 'Save the token\'s card, its CVV verified by the merchant\'s provider', value: CREATE_CARD } }, response: { card: { summary: 'The saved card: never its number or CVV', value: CARD } } },
      handler: async ({ client, body, call }) => toCardJson(await payments.createCard(toCreateCardRequest(client.clientId, body), call)),
    }),
    defineRoute({
      method: 'get',
      path: '/v1/cards',
      operationId: 'listCards',
      summary: 'List saved cards, newest first',
      tags,
      resource: 'cards',
      query: ListCardsQuery,
      response: { status: 200, description: 'A page of cards', schema: CardListSchema },
      handler: async ({ client, query, call }) => {
        const page = await payments.listCards(toListCardsRequest(client.clientId, query), call);
        return toList(page.items.map(toCardJson), page.meta);
      },
    }),
    defineRoute({
      method: 'get',
      path: '/v1/cards/{id}',
      operationId: 'getCard',
      summary: 'Get a saved card',
      tags,
      resource: 'cards',
      params: CardParams,
      response: { status: 200, description: 'The card', schema: CardSchema },
      examples: { response: { card: { summary: 'A saved card', value: CARD } } },
      handler: async ({ client, params, call }) => toCardJson(await payments.getCard({ clientId: client.clientId, id: params.id }, call)),
    }),
  ];
}
