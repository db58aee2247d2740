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
      description:
        'The token is single use and short-lived. The card number and CVV are never returned, logged or stored in clear. ' +
        "X-Api-Key may also be a session's `publicKey` (a buyer's card typed into a checkout): the token then pays that session only " +
        '(`POST /v1/sessions/{id}/charge`), and any other use of it is 422 `token_not_for_session`. A session is paid only with a token made with its own publicKey.',
      tags: [TAGS.cards],
      resource: 'tokens',
      sessionKeys: true,
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
      handler: async ({ client, body, call }) =>
        toCardTokenJson(
          await payments.createToken(
            { clientId: client.clientId, card: toCardInput(body), ...(client.keyKind === 'session' ? { sessionId: client.keyId } : {}) },
            call,
          ),
        ),
    }),
  ];
}
