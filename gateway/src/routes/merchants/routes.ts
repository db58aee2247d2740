import type { PaymentsClient } from '../../clients';
import { toList } from '../../http/pagination';
import { defineRoute, type RouteDefinition } from '../../http/route';
import { TAGS } from '../../openapi/tags';
import { CREATE_MERCHANT, MERCHANT } from './examples';
import {
  toCreateMerchantRequest,
  toListMerchantsRequest,
  toMerchantJson,
  toPlatformFeeJson,
  toPlatformFeeRules,
  toProviderJson,
  toUpdateMerchantRequest,
  toUpdateProviderRequest,
} from './mapping';
import {
  CreateMerchantBody,
  ListMerchantsQuery,
  MerchantListSchema,
  MerchantParams,
  MerchantSchema,
  PlatformFeeEnabledBody,
  PlatformFeeSchema,
  ProviderParams,
  ProviderSchema,
  ReplacePlatformFeeBody,
  UpdateMerchantBody,
  UpdateProviderBody,
} from './schemas';

const tags = [TAGS.merchants] as const;

export function merchantRoutes({ payments }: { payments: PaymentsClient }): RouteDefinition[] {
  return [
    defineRoute({
      method: 'post',
      path: '/v1/merchants',
      operationId: 'createMerchant',
      summary: 'Create a merchant with its providers',
      description: 'Providers are tried in priority order (1 first). Credential secrets are stored encrypted and never returned.',
      tags,
      resource: 'merchants',
      body: CreateMerchantBody,
      errors: [409, 422],
      response: { status: 201, description: 'The merchant', schema: MerchantSchema },
      examples: { request: { failover: { summary: 'Two SANDBOX providers: the second takes over on a technical failure', value: CREATE_MERCHANT } }, response: { merchant: { summary: 'The merchant; credentials show only their type', value: MERCHANT } } },
      handler: async ({ client, body, call }) => toMerchantJson(await payments.createMerchant(toCreateMerchantRequest(client.clientId, body), call)),
    }),
    defineRoute({
      method: 'get',
      path: '/v1/merchants',
      operationId: 'listMerchants',
      summary: 'List merchants, newest first',
      tags,
      resource: 'merchants',
      query: ListMerchantsQuery,
      response: { status: 200, description: 'A page of merchants', schema: MerchantListSchema },
      handler: async ({ client, query, call }) => {
        const page = await payments.listMerchants(toListMerchantsRequest(client.clientId, query), call);
        return toList(page.items.map(toMerchantJson), page.meta);
      },
    }),
    defineRoute({
      method: 'get',
      path: '/v1/merchants/{id}',
      operationId: 'getMerchant',
      summary: 'Get a merchant',
      tags,
      resource: 'merchants',
      params: MerchantParams,
      response: { status: 200, description: 'The merchant', schema: MerchantSchema },
      examples: { response: { merchant: { summary: 'A merchant with its providers', value: MERCHANT } } },
      handler: async ({ client, params, call }) => toMerchantJson(await payments.getMerchant({ clientId: client.clientId, id: params.id }, call)),
    }),
    defineRoute({
      method: 'patch',
      path: '/v1/merchants/{id}',
      operationId: 'updateMerchant',
      summary: 'Update a merchant (mcc, name, merchantName, merchantUrl)',
      tags,
      resource: 'merchants',
      params: MerchantParams,
      body: UpdateMerchantBody,
      errors: [422],
      response: { status: 200, description: 'The updated merchant', schema: MerchantSchema },
      handler: async ({ client, params, body, call }) =>
        toMerchantJson(await payments.updateMerchant(toUpdateMerchantRequest(client.clientId, params.id, body), call)),
    }),
    defineRoute({
      method: 'delete',
      path: '/v1/merchants/{id}',
      operationId: 'deleteMerchant',
      summary: 'Delete a merchant',
      tags,
      resource: 'merchants',
      params: MerchantParams,
      response: { status: 204, description: 'Deleted' },
      handler: async ({ client, params, call }) => {
        await payments.deleteMerchant({ clientId: client.clientId, id: params.id }, call);
      },
    }),
    defineRoute({
      method: 'get',
      path: '/v1/merchants/{id}/platform-fee',
      operationId: 'getPlatformFee',
      summary: 'Get the platform fee rules of a merchant',
      tags,
      resource: 'merchants',
      params: MerchantParams,
      response: { status: 200, description: 'Whether the fee applies, and its rules', schema: PlatformFeeSchema },
      handler: async ({ client, params, call }) =>
        toPlatformFeeJson(await payments.getPlatformFee({ clientId: client.clientId, merchantId: params.id }, call)),
    }),
    defineRoute({
      method: 'put',
      path: '/v1/merchants/{id}/platform-fee',
      operationId: 'replacePlatformFee',
      summary: 'Replace the platform fee rules of a merchant',
      tags,
      resource: 'merchants',
      params: MerchantParams,
      body: ReplacePlatformFeeBody,
      errors: [422],
      response: { status: 200, description: 'Whether the fee applies, and its rules', schema: PlatformFeeSchema },
      handler: async ({ client, params, body, call }) =>
        toPlatformFeeJson(
          await payments.replacePlatformFee({ clientId: client.clientId, merchantId: params.id, rules: toPlatformFeeRules(body.rules) }, call),
        ),
    }),
    defineRoute({
      method: 'patch',
      path: '/v1/merchants/{id}/platform-fee/enabled',
      operationId: 'setPlatformFeeEnabled',
      summary: 'Turn the platform fee of a merchant on or off',
      tags,
      resource: 'merchants',
      params: MerchantParams,
      body: PlatformFeeEnabledBody,
      errors: [422],
      response: { status: 200, description: 'Whether the fee applies, and its rules', schema: PlatformFeeSchema },
      handler: async ({ client, params, body, call }) =>
        toPlatformFeeJson(await payments.setPlatformFeeEnabled({ clientId: client.clientId, merchantId: params.id, enabled: body.enabled }, call)),
    }),
    defineRoute({
      method: 'patch',
      path: '/v1/providers/{id}',
      operationId: 'updateProvider',
      summary: 'Update a provider of a merchant (name, priority, credentials, options)',
      tags: [TAGS.providers],
      resource: 'providers',
      params: ProviderParams,
      body: UpdateProviderBody,
      errors: [422],
      response: { status: 200, description: 'The provider (credentials reduced to their type)', schema: ProviderSchema },
      handler: async ({ client, params, body, call }) =>
        toProviderJson(await payments.updateProvider(toUpdateProviderRequest(client.clientId, params.id, body), call)),
    }),
  ];
}
