import type { PaymentsClient } from '../../clients';
import { defineRoute, type RouteDefinition } from '../../http/route';
import { toCardInput, toCardTokenJson } from './mapping';
import { CardTokenSchema, CreateTokenBody } from './schemas';

export function tokenRoutes({ payments }: { payments: PaymentsClient }): RouteDefinition[] {
  return [
    defineRoute({
      method: 'post',
      path: '/v1/tokens',
      summary: 'Tokenize a card',
      description: 'The token is single use and short-lived. The card number and CVV are never returned, logged or stored in clear.',
      tags: ['Cards'],
      resource: 'tokens',
      body: CreateTokenBody,
      errors: [422],
      response: { status: 201, description: 'The token', schema: CardTokenSchema },
      handler: async ({ client, body, call }) => toCardTokenJson(await payments.createToken({ clientId: client.clientId, card: toCardInput(body) }, call)),
    }),
  ];
}
