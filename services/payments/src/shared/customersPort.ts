import type { customers } from '@platform/contracts';
import { AppError, errors, type PromiseClient } from '@platform/kit';

/** What payments needs to know about customers; they belong to the customers service. */
export interface CustomersPort {
  /** Resolves when the customer exists and is the client's; not_found when it is unknown, deleted or another client's. */
  requireCustomer(clientId: string, customerId: string): Promise<void>;
}

/** The customers service answers over gRPC; its GetCustomer is scoped by client. */
export function createCustomersPort(client: PromiseClient<typeof customers.CustomersServiceService>): CustomersPort {
  return {
    requireCustomer: async (clientId, customerId) => {
      try {
        await client.getCustomer({ clientId, id: customerId });
      } catch (error) {
        // The same answer for unknown and foreign: the caller learns nothing of another client's customers.
        if (error instanceof AppError && error.kind === 'not_found') throw errors.notFound('Customer');
        throw error;
      }
    },
  };
}
