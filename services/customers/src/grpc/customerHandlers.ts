import type { customers } from '@platform/contracts';
import type { Handlers } from '@platform/kit';
import { addCustomerCard } from '../app/addCustomerCard';
import { createCustomer } from '../app/createCustomer';
import { deleteCustomer } from '../app/deleteCustomer';
import type { CustomerDeps } from '../app/deps';
import { getCustomer } from '../app/getCustomer';
import { listCustomerCards } from '../app/listCustomerCards';
import { listCustomers } from '../app/listCustomers';
import { updateCustomer } from '../app/updateCustomer';
import { toCustomerMessage } from '../wire/customerMessages';

export function createCustomerHandlers(deps: CustomerDeps): Handlers<typeof customers.CustomersServiceService> {
  return {
    createCustomer: async (request, ctx) => toCustomerMessage(await createCustomer(deps, request, ctx.idempotencyKey)),
    listCustomers: async (request) => {
      const { items, meta } = await listCustomers(deps, request);
      return { items: items.map(toCustomerMessage), meta };
    },
    getCustomer: async (request) => toCustomerMessage(await getCustomer(deps, request)),
    updateCustomer: async (request) => toCustomerMessage(await updateCustomer(deps, request)),
    deleteCustomer: async (request) => toCustomerMessage(await deleteCustomer(deps, request)),
    addCustomerCard: async (request) => {
      await addCustomerCard(deps, request);
      return {};
    },
    listCustomerCards: async (request) => {
      const { items, meta } = await listCustomerCards(deps, request);
      return { items: items.map((card) => ({ ...card, linkedAt: card.linkedAt })), meta };
    },
  };
}
