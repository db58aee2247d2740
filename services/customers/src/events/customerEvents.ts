import { enqueueEvent, type Queryable } from '@platform/kit';
import { customerToJson, type Customer } from '../domain/customer';

export const CUSTOMER_EVENTS = {
  created: 'customers.customer.created',
  updated: 'customers.customer.updated',
  deleted: 'customers.customer.deleted',
  cardAdded: 'customers.customer.card_added',
} as const;

export type CustomerEventType = (typeof CUSTOMER_EVENTS)['created' | 'updated' | 'deleted'];

/** Writes the event in the transaction of the change, with the customer as it is after the change. */
export async function recordCustomerEvent(tx: Queryable, type: CustomerEventType, customer: Customer, occurredAt: Date): Promise<void> {
  await enqueueEvent(tx, { type, clientId: customer.clientId, data: customerToJson(customer), occurredAt });
}
