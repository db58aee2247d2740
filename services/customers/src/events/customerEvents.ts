import { CUSTOMER_EVENT_TYPES, toCustomerCardLinkJson, toCustomerJson } from '@platform/api-model';
import { enqueueEvent, type Queryable } from '@platform/kit';
import type { Customer } from '../domain/customer';
import { toCustomerMessage } from '../wire/customerMessages';

export const CUSTOMER_EVENTS = CUSTOMER_EVENT_TYPES;

export type CustomerEventType = (typeof CUSTOMER_EVENTS)['created' | 'updated' | 'deleted'];

/**
 * Writes the event in the transaction of the change, with the customer as it is after the change, in the public
 * JSON of the REST API (the same mapper the gateway applies to the gRPC answer). A deletion is known by the event
 * type; its time is the event's occurredAt.
 */
export async function recordCustomerEvent(tx: Queryable, type: CustomerEventType, customer: Customer, occurredAt: Date): Promise<void> {
  await enqueueEvent(tx, { type, clientId: customer.clientId, data: toCustomerJson(toCustomerMessage(customer)), occurredAt });
}

/** Writes `customers.customer.card_added` for a new link of a saved card. */
export async function recordCardAdded(
  tx: Queryable,
  link: { clientId: string; customerId: string; card: { id: string; brand: string; last4digits: string } },
  occurredAt: Date,
): Promise<void> {
  await enqueueEvent(tx, { type: CUSTOMER_EVENTS.cardAdded, clientId: link.clientId, data: toCustomerCardLinkJson(link.customerId, link.card), occurredAt });
}
