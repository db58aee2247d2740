import type { PaymentsClient } from '../../clients';
import { toList } from '../../http/pagination';
import { defineRoute, type RouteDefinition } from '../../http/route';
import { TAGS } from '../../openapi/tags';
import { toCreateFlowRequest, toFlowJson, toListFlowsRequest, toReplaceFlowRequest } from './mapping';
import { CreateFlowBody, FlowListSchema, FlowParams, FlowSchema, ListFlowsQuery, ReplaceFlowBody } from './schemas';

const tags = [TAGS.flows] as const;

export function flowRoutes({ payments }: { payments: PaymentsClient }): RouteDefinition[] {
  return [
    defineRoute({
      method: 'get',
      path: '/v1/flows',
      operationId: 'listFlows',
      summary: 'List routing flows, newest first',
      tags,
      resource: 'flows',
      query: ListFlowsQuery,
      response: { status: 200, description: 'A page of flows', schema: FlowListSchema },
      handler: async ({ client, query, call }) => {
        const page = await payments.listFlows(toListFlowsRequest(client.clientId, query), call);
        return toList(page.items.map(toFlowJson), page.meta);
      },
    }),
    defineRoute({
      method: 'get',
      path: '/v1/flows/{id}',
      operationId: 'getFlow',
      summary: 'Get a routing flow',
      tags,
      resource: 'flows',
      params: FlowParams,
      response: { status: 200, description: 'The flow', schema: FlowSchema },
      handler: async ({ client, params, call }) => toFlowJson(await payments.getFlow({ clientId: client.clientId, id: params.id }, call)),
    }),
    defineRoute({
      method: 'post',
      path: '/v1/flows',
      operationId: 'createFlow',
      summary: 'Create the routing flow of a merchant for one payment method',
      description:
        "A charge of that payment method is routed by the first rule that matches, else by defaultRoute. A rule's conditions (amount and installment bounds, card brand, currency, payment type, BIN ranges, issuer country, the charge's paymentFlow.metadata) must all hold; all and any group them and nest. A rule routes on its route, or splits the volume between routes by a hash of the charge id (a retry with the same idempotency key takes the same branch), and may name the antifraud entry of its charges. A rule (or split branch) in mode success_rate tries its providers in the order of their recent approval rates, with a small exploration share, a provider failing technically tried last for a cool-down and then probed back. Each authorization of a charge says in routingReason why its provider was tried.",
      tags,
      resource: 'flows',
      body: CreateFlowBody,
      errors: [409, 422],
      response: { status: 201, description: 'The flow', schema: FlowSchema },
      handler: async ({ client, body, call }) => toFlowJson(await payments.createFlow(toCreateFlowRequest(client.clientId, body), call)),
    }),
    defineRoute({
      method: 'put',
      path: '/v1/flows/{id}',
      operationId: 'replaceFlow',
      summary: 'Replace a routing flow',
      description: 'The flow keeps its merchant.',
      tags,
      resource: 'flows',
      params: FlowParams,
      body: ReplaceFlowBody,
      errors: [409, 422],
      response: { status: 200, description: 'The flow', schema: FlowSchema },
      handler: async ({ client, params, body, call }) =>
        toFlowJson(await payments.replaceFlow(toReplaceFlowRequest(client.clientId, params.id, body), call)),
    }),
  ];
}
