import { toSellerJson } from '@platform/api-model';
import type { GatewayClients } from '../../clients';
import { toList } from '../../http/pagination';
import { defineRoute, type RouteDefinition } from '../../http/route';
import { TAGS } from '../../openapi/tags';
import { reviewRoutes } from './reviewRoutes';
import { toCreateSellerRequest, toListSellersRequest, toUpdateSellerRequest } from './mapping';
import { CreateSellerBody, ListSellersQuery, SellerListSchema, SellerParams, SellerSchema, UpdateSellerBody } from './schemas';

const tags = [TAGS.sellers] as const;

export function sellerRoutes(clients: Pick<GatewayClients, 'sellersAndReviews'>): RouteDefinition[] {
  const sellers = clients.sellersAndReviews;
  return [
    ...reviewRoutes(clients),
    defineRoute({
      method: 'post',
      path: '/v1/sellers',
      operationId: 'createSeller',
      summary: 'Create a seller (a split receiver)',
      description:
        'A natural person (owner.document.type cpf) needs owner; a legal entity needs owner and business. The seller is registered at every provider of its merchant.',
      tags,
      resource: 'sellers',
      body: CreateSellerBody,
      errors: [404, 409, 422],
      response: { status: 201, description: 'The seller', schema: SellerSchema },
      handler: async ({ client, body, call }) => toSellerJson(await sellers.createSeller(toCreateSellerRequest(client.clientId, body), call)),
    }),
    defineRoute({
      method: 'get',
      path: '/v1/sellers',
      operationId: 'listSellers',
      summary: 'List sellers, newest first',
      tags,
      resource: 'sellers',
      query: ListSellersQuery,
      response: { status: 200, description: 'A page of sellers', schema: SellerListSchema },
      handler: async ({ client, query, call }) => {
        const page = await sellers.listSellers(toListSellersRequest(client.clientId, query), call);
        return toList(page.items.map(toSellerJson), page.meta);
      },
    }),
    defineRoute({
      method: 'get',
      path: '/v1/sellers/{id}',
      operationId: 'getSeller',
      summary: 'Get a seller',
      tags,
      resource: 'sellers',
      params: SellerParams,
      response: { status: 200, description: 'The seller', schema: SellerSchema },
      handler: async ({ client, params, call }) => toSellerJson(await sellers.getSeller({ clientId: client.clientId, id: params.id }, call)),
    }),
    defineRoute({
      method: 'patch',
      path: '/v1/sellers/{id}',
      operationId: 'updateSeller',
      summary: 'Change a seller (any create field, partial; nested objects merged)',
      tags,
      resource: 'sellers',
      params: SellerParams,
      body: UpdateSellerBody,
      errors: [422],
      response: { status: 200, description: 'The changed seller', schema: SellerSchema },
      handler: async ({ client, params, body, call }) =>
        toSellerJson(await sellers.updateSeller(toUpdateSellerRequest(client.clientId, params.id, body), call)),
    }),
    defineRoute({
      method: 'delete',
      path: '/v1/sellers/{id}',
      operationId: 'deleteSeller',
      summary: 'Delete a seller (it stays readable as inactive)',
      tags,
      resource: 'sellers',
      params: SellerParams,
      response: { status: 204, description: 'Deleted' },
      handler: async ({ client, params, call }) => {
        await sellers.deleteSeller({ clientId: client.clientId, id: params.id }, call);
      },
    }),
  ];
}
