import type { customers } from '@platform/contracts';
import { AppError, errors, type PromiseClient } from '@platform/kit';

/** Who pays, as a provider that must name the payer wants it (Cielo's Pix, a boleto): never a card datum. */
export interface Payer {
  name?: string;
  email?: string;
  document?: { type: string; number: string };
}

/** What payments needs to know about customers; they belong to the customers service. */
export interface CustomersPort {
  /**
   * Resolves when the customer exists and is the client's, with what a provider may need to name the payer;
   * not_found when it is unknown, deleted or another client's.
   */
  requireCustomer(clientId: string, customerId: string): Promise<Payer | undefined>;
}

/** The payer of an inline customer (`paymentSource.customer`), from the fields it gives. */
export function payerOf(customer: Record<string, unknown> | undefined): Payer | undefined {
  if (!customer) return undefined;
  const text = (value: unknown) => (typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined);
  const document = (customer.document ?? {}) as Record<string, unknown>;
  const type = text(document.type);
  const number = text(document.number)?.replace(/\D/g, '');
  const payer: Payer = {
    ...(text(customer.name) ? { name: text(customer.name) } : {}),
    ...(text(customer.email) ? { email: text(customer.email) } : {}),
    ...(type && number ? { document: { type: type.toLowerCase(), number } } : {}),
  };
  return Object.keys(payer).length > 0 ? payer : undefined;
}

/** The customers service answers over gRPC; its GetCustomer is scoped by client. */
export function createCustomersPort(client: PromiseClient<typeof customers.CustomersServiceService>): CustomersPort {
  return {
    requireCustomer: async (clientId, customerId) => {
      try {
        const customer = await client.getCustomer({ clientId, id: customerId });
        return payerOf({ name: customer.name, email: customer.email, document: customer.document ?? {} });
      } catch (error) {
        // The same answer for unknown and foreign: the caller learns nothing of another client's customers.
        if (error instanceof AppError && error.kind === 'not_found') throw errors.notFound('Customer');
        throw error;
      }
    },
  };
}
