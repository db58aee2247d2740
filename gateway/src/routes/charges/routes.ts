import type { PaymentsClient } from '../../clients';
import { toList } from '../../http/pagination';
import { defineRoute, type RouteDefinition } from '../../http/route';
import { TAGS } from '../../openapi/tags';
import { CAPTURE_CHARGE, CAPTURED, CREATE_CHARGE, DECLINED, PRE_AUTHORIZED, REFUNDED, VOID_CHARGE } from './examples';
import { toChargeJson, toCreateChargeRequest, toListChargesRequest, toSetupThreeDSRequest, toThreeDSSetupJson, toVoidChargeRequest } from './mapping';
import {
  AntifraudStatusBody,
  CaptureChargeBody,
  ChargeListSchema,
  ChargeParams,
  ChargeSchema,
  CreateChargeBody,
  ListChargesQuery,
  SandboxChargeStatusBody,
  ThreeDSSetupBody,
  ThreeDSSetupSchema,
  VoidChargeBody,
} from './schemas';

const tags = [TAGS.charges] as const;

export function chargeRoutes({ payments }: { payments: PaymentsClient }): RouteDefinition[] {
  return [
    // Before the /v1/charges/{id} routes, so "3ds" is never read as a charge id.
    defineRoute({
      method: 'post',
      path: '/v1/charges/3ds/setup',
      operationId: 'createThreeDSSetup',
      summary: 'Start a 3DS2 authentication for a saved card or a token',
      description: 'May be called from the browser with a public key scoped to charges.',
      tags,
      resource: 'charges',
      body: ThreeDSSetupBody,
      errors: [409, 422],
      response: { status: 201, description: 'The device data collection to run', schema: ThreeDSSetupSchema },
      handler: async ({ client, body, call }) => toThreeDSSetupJson(await payments.setupThreeDs(toSetupThreeDSRequest(client.clientId, body), call)),
    }),
    defineRoute({
      method: 'post',
      path: '/v1/charges',
      operationId: 'createCharge',
      summary: 'Create a charge',
      description:
        "The merchant's providers are tried in priority order (or by its flow for the payment method); each attempt is one " +
        'item of transactionRequests. A declined or failed charge is still created (201, status failed); a card refused ' +
        'before any provider is asked answers 402 card_declined with declinedCode.',
      tags,
      resource: 'charges',
      body: CreateChargeBody,
      errors: [402, 409, 422],
      response: { status: 201, description: 'The charge, whatever its status', schema: ChargeSchema },
      examples: {
        request: CREATE_CHARGE,
        response: {
          preAuthorized: { summary: 'Authorized, not captured (capture: false)', value: PRE_AUTHORIZED },
          declined: { summary: 'Declined by the provider: a failed charge, the reason in declinedCode', value: DECLINED },
        },
      },
      handler: async ({ client, body, call }) => toChargeJson(await payments.createCharge(toCreateChargeRequest(client.clientId, body), call)),
    }),
    defineRoute({
      method: 'get',
      path: '/v1/charges',
      operationId: 'listCharges',
      summary: 'List charges, newest first',
      description: 'status takes several values comma-joined (pending,authorized).',
      tags,
      resource: 'charges',
      query: ListChargesQuery,
      response: { status: 200, description: 'A page of charges', schema: ChargeListSchema },
      handler: async ({ client, query, call }) => {
        const page = await payments.listCharges(toListChargesRequest(client.clientId, query), call);
        return toList(page.items.map(toChargeJson), page.meta);
      },
    }),
    defineRoute({
      method: 'get',
      path: '/v1/charges/{id}',
      operationId: 'getCharge',
      summary: 'Get a charge',
      tags,
      resource: 'charges',
      params: ChargeParams,
      response: { status: 200, description: 'The charge', schema: ChargeSchema },
      examples: { response: { refunded: { summary: 'Captured in part, then refunded: every step in transactionRequests', value: REFUNDED } } },
      handler: async ({ client, params, call }) => toChargeJson(await payments.getCharge({ clientId: client.clientId, id: params.id }, call)),
    }),
    defineRoute({
      method: 'post',
      path: '/v1/charges/{id}/capture',
      operationId: 'captureCharge',
      summary: 'Capture a pre-authorized charge',
      tags,
      resource: 'charges',
      params: ChargeParams,
      body: CaptureChargeBody,
      errors: [402, 409, 422],
      response: { status: 201, description: 'The charge', schema: ChargeSchema },
      examples: { request: { partial: { summary: 'Capture half of the authorized amount', value: CAPTURE_CHARGE } }, response: { captured: { summary: 'The charge, captured in part', value: CAPTURED } } },
      handler: async ({ client, params, body, call }) =>
        toChargeJson(await payments.captureCharge({ clientId: client.clientId, id: params.id, amount: body.amount }, call)),
    }),
    defineRoute({
      method: 'post',
      path: '/v1/charges/{id}/void',
      operationId: 'voidCharge',
      summary: 'Void a charge, or refund it (partially with amount)',
      description:
        'Refunds never exceed what was captured, even when two arrive at once. A refund with `splitRules` takes those amounts from its sellers: ' +
        'each must be a receiver of the charge, the amounts add up to the refund, and none takes more than the seller still holds of the charge ' +
        '(its share of the capture less earlier refunds, those still being asked included): 422 `refund_split_exceeds_receiver_share`, and nothing is refunded.',
      tags,
      resource: 'charges',
      params: ChargeParams,
      body: VoidChargeBody,
      errors: [402, 409, 422],
      response: { status: 201, description: 'The charge', schema: ChargeSchema },
      examples: { request: { refund: { summary: 'Refund what was captured', value: VOID_CHARGE } }, response: { refunded: { summary: 'The charge, refunded', value: REFUNDED } } },
      handler: async ({ client, params, body, call }) => toChargeJson(await payments.voidCharge(toVoidChargeRequest(client.clientId, params.id, body), call)),
    }),
    defineRoute({
      method: 'post',
      path: '/v1/charges/{id}',
      operationId: 'setSandboxChargeStatus',
      summary: 'Move a charge to a status, as a provider notification would',
      description: 'Settles Pix and boleto charges in tests.',
      tags,
      resource: 'charges',
      sandboxOnly: true,
      params: ChargeParams,
      body: SandboxChargeStatusBody,
      errors: [409, 422],
      response: { status: 200, description: 'The charge', schema: ChargeSchema },
      handler: async ({ client, params, body, call }) =>
        toChargeJson(await payments.setSandboxChargeStatus({ clientId: client.clientId, id: params.id, status: body.status }, call)),
    }),
    defineRoute({
      method: 'patch',
      path: '/v1/charges/{id}/antifraud',
      operationId: 'setSandboxAntifraudStatus',
      summary: "Set the antifraud provider's decision on a charge",
      tags,
      resource: 'charges',
      sandboxOnly: true,
      params: ChargeParams,
      body: AntifraudStatusBody,
      errors: [409, 422],
      response: { status: 200, description: 'The charge', schema: ChargeSchema },
      handler: async ({ client, params, body, call }) =>
        toChargeJson(await payments.setAntifraudStatus({ clientId: client.clientId, id: params.id, status: body.status }, call)),
    }),
  ];
}
