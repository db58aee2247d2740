import { toChargeJson, toLinkSettingsJson } from '@platform/api-model';
import { AppError } from '@platform/kit';
import type { GatewayClients } from '../../clients';
import type { SessionKeyChecker } from '../../http/auth';
import { toList } from '../../http/pagination';
import { defineRoute, type RouteDefinition } from '../../http/route';
import { TAGS } from '../../openapi/tags';
import { CHARGE_SESSION, CREATE_SESSION, SESSION, SESSION_CHARGE } from './examples';
import { ChargeSchema } from '../charges/schemas';
import { toChargeSessionRequest, toCreateSessionRequest, toListSessionsRequest, toSessionHistoryItemJson, toSessionJson } from './mapping';
import {
  CanceledSessionSchema,
  ChargeSessionBody,
  CreateSessionBody,
  ListSessionsQuery,
  SessionHistorySchema,
  SessionLinkSchema,
  SessionListSchema,
  SessionParams,
  SessionSchema,
  SessionStateSchema,
  UpdateSessionBody,
} from './schemas';

const tags = [TAGS.sessions] as const;

/** The sessions service answers whether a key is a session's public key. */
export function sessionKeyChecker({ sessions }: Pick<GatewayClients, 'sessions'>): SessionKeyChecker {
  return {
    check: async ({ clientId, sessionId, key }, meta) => (await sessions.authenticateSessionKey({ clientId, sessionId, key }, meta)).valid,
    find: async ({ clientId, key }, meta) => (await sessions.findSessionByKey({ clientId, key }, meta)).sessionId,
  };
}

export function sessionsRoutes({
  sessions,
  settings,
  publicUrl,
}: Pick<GatewayClients, 'sessions' | 'settings'> & { publicUrl: string }): RouteDefinition[] {
  return [
    defineRoute({
      method: 'post',
      path: '/v1/sessions',
      operationId: 'createSession',
      summary: 'Create a session (payment link)',
      description:
        'Without maxPayments the session is paid once (1:1). Pix or boleto with a finite maxPayments above 1: 422 pix_boleto_multiple_payments_not_allowed. ' +
        "splitRules are checked as a charge's: each seller once, the shares adding up exactly to the amount (400 otherwise).",
      tags,
      resource: 'sessions',
      body: CreateSessionBody,
      response: { status: 201, description: 'The session, with its publicKey and paymentLink', schema: SessionSchema },
      examples: { request: CREATE_SESSION, response: { session: { summary: 'A payment link, paid once', value: SESSION } } },
      errors: [404, 409, 422],
      handler: async ({ client, body, call }) => toSessionJson(await sessions.createSession(toCreateSessionRequest(client.clientId, body), call), publicUrl),
    }),
    defineRoute({
      method: 'get',
      path: '/v1/sessions',
      operationId: 'listSessions',
      summary: 'List sessions, newest first',
      tags,
      resource: 'sessions',
      query: ListSessionsQuery,
      response: { status: 200, description: 'A page of sessions', schema: SessionListSchema },
      handler: async ({ client, query, call }) => {
        const page = await sessions.listSessions(toListSessionsRequest(client.clientId, query), call);
        return toList(
          page.items.map((s) => toSessionJson(s, publicUrl)),
          page.meta,
        );
      },
    }),
    defineRoute({
      method: 'get',
      path: '/v1/sessions/{id}',
      operationId: 'getSession',
      summary: 'Get a session with its aggregate state',
      tags,
      resource: 'sessions',
      params: SessionParams,
      response: { status: 200, description: 'The session', schema: SessionSchema },
      examples: { response: { session: { summary: 'A session not paid yet', value: SESSION } } },
      handler: async ({ client, params, call }) => toSessionJson(await sessions.getSession({ clientId: client.clientId, id: params.id }, call), publicUrl),
    }),
    defineRoute({
      method: 'patch',
      path: '/v1/sessions/{id}',
      operationId: 'updateSession',
      summary: 'Activate or deactivate a session, move its due date or its maximum of payments',
      tags,
      resource: 'sessions',
      params: SessionParams,
      body: UpdateSessionBody,
      response: { status: 200, description: 'The session state', schema: SessionStateSchema },
      errors: [422],
      handler: async ({ client, params, body, call }) => {
        const updated = await sessions.updateSession(
          { clientId: client.clientId, id: params.id, isActive: body.isActive, dueDate: body.dueDate, maxPayments: body.maxPayments },
          call,
        );
        return { id: updated.id, isActive: updated.isActive };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/v1/sessions/{id}/cancel',
      operationId: 'cancelSession',
      summary: 'Cancel a session',
      tags,
      resource: 'sessions',
      params: SessionParams,
      response: { status: 201, description: 'The canceled session', schema: CanceledSessionSchema },
      errors: [422],
      handler: async ({ client, params, call }) => {
        const canceled = await sessions.cancelSession({ clientId: client.clientId, id: params.id }, call);
        return { id: canceled.id, status: canceled.status };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/v1/sessions/{id}/charge',
      operationId: 'chargeSession',
      summary: "Pay a session (the buyer's charge)",
      description:
        'The charge is made for the session merchant, amount and split rules; the buyer chooses the method among the session paymentMethods ' +
        'and the installments within its offer (up to the method installments, 1 when it names none; more is 400 on paymentMethod.installments). ' +
        'A session is paid with what its buyer brings: a card typed in (sourceType card with card, or sourceType token with the token it was ' +
        "tokenized into with this session's publicKey: any other token, a client-made one included, is 422 token_not_for_session and takes no place), " +
        'or the buyer data for Pix or boleto (sourceType customer with customer). Sessions name no customer: a saved card (cardId), a stored customer ' +
        '(customerId, in the body or the source) or a wallet ' +
        'is refused (400 naming the field), whatever key is used. ' +
        'While every place of a 1:N session is held by payments still waiting for their answer, the buyer waits for them (up to 8 s) and takes ' +
        'the first place a decline gives back; 409 session_payments_in_progress when they are still at work then: send the same request again ' +
        'with the same X-Idempotency-Key a moment later (the hosted checkout page does so by itself). ' +
        'Send an X-Idempotency-Key per payment attempt: a retry with it answers with the charge the first try made and takes no second place.',
      tags,
      resource: 'sessionKey',
      params: SessionParams,
      body: ChargeSessionBody,
      response: { status: 201, description: 'The charge', schema: ChargeSchema },
      examples: { request: { card: { summary: 'The buyer pays with the SANDBOX card that authorizes', value: CHARGE_SESSION } }, response: { charge: { summary: 'The buyer\'s charge', value: SESSION_CHARGE } } },
      errors: [402, 409, 422],
      handler: async ({ client, params, body, call }) => toChargeJson(await sessions.chargeSession(toChargeSessionRequest(client.clientId, params.id, body), call)),
    }),
    defineRoute({
      method: 'get',
      path: '/v1/sessions/{id}/history',
      operationId: 'listSessionHistory',
      summary: "A session's history, newest first (by createdAt, then by the order the items were written)",
      tags,
      resource: 'sessions',
      params: SessionParams,
      response: { status: 200, description: 'The history items', schema: SessionHistorySchema },
      handler: async ({ client, params, call }) =>
        (await sessions.getSessionHistory({ clientId: client.clientId, id: params.id }, call)).items.map(toSessionHistoryItemJson),
    }),
    defineRoute({
      method: 'get',
      path: '/v1/sessions/{id}/link',
      operationId: 'getSessionLink',
      summary: 'A session with the payment-link settings of its merchant (the client default when it has none)',
      tags,
      resource: 'sessions',
      params: SessionParams,
      response: { status: 200, description: 'The session and its link settings', schema: SessionLinkSchema },
      handler: async ({ client, params, call }) => {
        const session = await sessions.getSession({ clientId: client.clientId, id: params.id }, call);
        const linkSettings = await settings.getLinkSettings({ clientId: client.clientId, merchantId: session.merchantId }, call).catch((error: unknown) => {
          if (error instanceof AppError && error.kind === 'not_found') return undefined;
          throw error;
        });
        return { session: toSessionJson(session, publicUrl), settings: linkSettings ? { ...toLinkSettingsJson(linkSettings, publicUrl) } : null };
      },
    }),
  ];
}
