import { toCustomerCardJson, toCustomerJson } from '@platform/api-model';
import type { CustomersClient } from '../../clients';
import { toList, toPageRequest } from '../../http/pagination';
import { defineRoute, type RouteDefinition } from '../../http/route';
import { TAGS } from '../../openapi/tags';
import { CREATE_CUSTOMER, CUSTOMER, UPDATE_CUSTOMER, UPDATED_CUSTOMER } from './examples';
import { toCreateCustomerRequest, toListCustomersRequest, toUpdateCustomerRequest } from './mapping';
import {
  AddCustomerCardBody,
  CreateCustomerBody,
  CustomerCardListSchema,
  CreateCustomerQuery,
  CustomerListSchema,
  CustomerParams,
  CustomerSchema,
  ListCustomerCardsQuery,
  ListCustomersQuery,
  UpdateCustomerBody,
} from './schemas';

const tags = [TAGS.customers] as const;

export function customerRoutes({ customers }: { customers: CustomersClient }): RouteDefinition[] {
  return [
    defineRoute({
      method: 'post',
      path: '/v1/customers',
      operationId: 'createCustomer',
      summary: 'Create a customer',
      description: 'E-mail and document are unique per client (409) unless force=true.',
      tags,
      resource: 'customers',
      query: CreateCustomerQuery,
      body: CreateCustomerBody,
      errors: [409, 422],
      response: { status: 201, description: 'The customer', schema: CustomerSchema },
      examples: { request: { customer: { summary: 'A customer with her CPF and address', value: CREATE_CUSTOMER } }, response: { customer: { summary: 'The customer (document number without separators)', value: CUSTOMER } } },
      handler: async ({ client, query, body, call }) =>
        toCustomerJson(await customers.createCustomer(toCreateCustomerRequest(client.clientId, body, query.force), call)),
    }),
    defineRoute({
      method: 'get',
      path: '/v1/customers',
      operationId: 'listCustomers',
      summary: 'List customers, newest first',
      tags,
      resource: 'customers',
      query: ListCustomersQuery,
      response: { status: 200, description: 'A page of customers', schema: CustomerListSchema },
      handler: async ({ client, query, call }) => {
        const page = await customers.listCustomers(toListCustomersRequest(client.clientId, query), call);
        return toList(page.items.map(toCustomerJson), page.meta);
      },
    }),
    defineRoute({
      method: 'get',
      path: '/v1/customers/{id}',
      operationId: 'getCustomer',
      summary: 'Get a customer',
      tags,
      resource: 'customers',
      params: CustomerParams,
      response: { status: 200, description: 'The customer', schema: CustomerSchema },
      examples: { response: { customer: { summary: 'A customer', value: CUSTOMER } } },
      handler: async ({ client, params, call }) => toCustomerJson(await customers.getCustomer({ clientId: client.clientId, id: params.id }, call)),
    }),
    defineRoute({
      method: 'patch',
      path: '/v1/customers/{id}',
      operationId: 'updateCustomer',
      summary: 'Update a customer (name, phone number, address fields)',
      tags,
      resource: 'customers',
      params: CustomerParams,
      body: UpdateCustomerBody,
      errors: [422],
      response: { status: 200, description: 'The updated customer', schema: CustomerSchema },
      examples: { request: { rename: { summary: 'A new name, a complement set and a district cleared', value: UPDATE_CUSTOMER } }, response: { customer: { summary: 'The customer after the change', value: UPDATED_CUSTOMER } } },
      handler: async ({ client, params, body, call }) =>
        toCustomerJson(await customers.updateCustomer(toUpdateCustomerRequest(client.clientId, params.id, body), call)),
    }),
    defineRoute({
      method: 'delete',
      path: '/v1/customers/{id}',
      operationId: 'deleteCustomer',
      summary: 'Delete a customer',
      tags,
      resource: 'customers',
      params: CustomerParams,
      response: { status: 200, description: 'The deleted customer', schema: CustomerSchema },
      handler: async ({ client, params, call }) => toCustomerJson(await customers.deleteCustomer({ clientId: client.clientId, id: params.id }, call)),
    }),
    defineRoute({
      method: 'post',
      path: '/v1/customers/{id}/cards',
      operationId: 'linkCustomerCard',
      summary: "Link a saved card to a customer",
      description:
        "The card must be one of the caller's saved cards; linking the same card again changes nothing. A card belongs to one customer at a time: " +
        'a card already linked to another customer is refused with 422 `card_linked_to_another_customer`.',
      tags,
      resource: 'customers',
      params: CustomerParams,
      body: AddCustomerCardBody,
      response: { status: 204, description: 'Linked' },
      errors: [422],
      handler: async ({ client, params, body, call }) => {
        await customers.addCustomerCard({ clientId: client.clientId, customerId: params.id, cardId: body.cardId }, call);
      },
    }),
    defineRoute({
      method: 'get',
      path: '/v1/customers/{id}/cards',
      operationId: 'listCustomerCards',
      summary: "List a customer's saved cards, newest link first",
      tags,
      resource: 'customers',
      params: CustomerParams,
      query: ListCustomerCardsQuery,
      response: { status: 200, description: 'A page of cards', schema: CustomerCardListSchema },
      handler: async ({ client, params, query, call }) => {
        const page = await customers.listCustomerCards({ clientId: client.clientId, customerId: params.id, page: toPageRequest(query) }, call);
        return toList(page.items.map(toCustomerCardJson), page.meta);
      },
    }),
  ];
}
