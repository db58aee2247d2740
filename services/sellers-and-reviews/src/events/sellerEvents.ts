import { toSellerJson } from '@platform/api-model';
import { enqueueEvent, type Queryable } from '@platform/kit';
import type { Seller, SellerStatus } from '../domain/seller';
import { toSellerMessage } from '../wire/sellerMessages';

/** Events of sellers (subject `sellers.seller.<what happened>`); listed in docs/events.md. */
export const SELLER_EVENTS = {
  created: 'sellers.seller.created',
  updated: 'sellers.seller.updated',
  active: 'sellers.seller.active',
  inactive: 'sellers.seller.inactive',
  blocked: 'sellers.seller.blocked',
} as const;

export type SellerEventType = (typeof SELLER_EVENTS)[keyof typeof SELLER_EVENTS];

/** Writes the event in the transaction of the change, with the seller as the public API shows it. */
export async function recordSellerEvent(tx: Queryable, type: SellerEventType, seller: Seller, occurredAt: Date): Promise<void> {
  await enqueueEvent(tx, { type, clientId: seller.clientId, data: toSellerJson(toSellerMessage(seller)), occurredAt });
}

/** The status event of a seller that moved to a status clients hear about. */
export async function recordStatusEvent(tx: Queryable, before: SellerStatus | null, seller: Seller, occurredAt: Date): Promise<void> {
  if (before === seller.status) return;
  if (seller.status === 'active' || seller.status === 'inactive' || seller.status === 'blocked') {
    await recordSellerEvent(tx, SELLER_EVENTS[seller.status], seller, occurredAt);
  }
}
