import type { PaymentsClient } from '../../clients';
import { defineRoute, type RouteDefinition } from '../../http/route';
import { TAGS } from '../../openapi/tags';
import { CARD_TOKEN, CREATE_TOKEN, DECLINED_TOKEN } from './examples';
import { toCardInput, toCardTokenJson } from './mapping';
import { CardTokenSchema, CreateTokenBody } from './schemas';

export function tokenRoutes({ payments }: { payments: PaymentsClient }): RouteDefinition[] {
  return [
    defineRoute({
      method: 'post',
      path: '/v1/tokens',
      operationId: 'createCardToken',
      summary: 'Tokenize a card',
      description: 'The token is single use and short-lived. The card number and CVV are never returned, logged or stored in clear.',
      tags: [TAGS.cards],
      resource: 'tokens',
      body: CreateTokenBody,
      errors: [409, 422],
      response: { status: 201, description: 'The token', schema: CardTokenSchema },
      examples: {
        request: {
          approved: { summary: 'SANDBOX card ending 0: authorizes; CVV ending 0 is validated', value: CREATE_TOKEN },
          declined: { summary: 'SANDBOX card ending 2: declined (insufficient_funds) when charged', value: DECLINED_TOKEN },
        },
        response: { token: { summary: 'A single-use token', value: CARD_TOKEN } },
      },
      handler: async ({ client, body, call }) => toCardTokenJson(await payments.createToken({ clientId: client.clientId, card: toCardInput(body) }, call)),
    }),
  ];
}
