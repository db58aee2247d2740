import type { payments } from '@platform/contracts';
import type { Clock, Logger, Pool } from '@platform/kit';
import type { FeeRule } from '../domain/session';
import type { SessionStore } from '../store/sessionStore';
import type { PlaceQueue } from './placeQueue';

/** What sessions needs from payments: the merchant's platform fee, and the charge of a session. */
export interface PaymentsPort {
  /** Fails not_found when the merchant is not the client's. */
  platformFee(clientId: string, merchantId: string): Promise<{ enabled: boolean; rules: FeeRule[] }>;
  /** `idempotencyKey` makes a retry of the same attempt answer with the charge the first try made. */
  createCharge(request: payments.CreateChargeRequest, idempotencyKey?: string): Promise<payments.Charge>;
  /** The session a token of the client was made for ('' for a token made with a client key); not_found for an unknown token. */
  tokenSession(clientId: string, tokenId: string): Promise<string>;
}

/** What sessions needs from sellers-and-reviews: that the sellers of a split can receive. */
export interface SellersPort {
  /** Fails with a business rule (`split_seller_*`, naming the seller) when one is not the client's, of the merchant, or cannot receive. */
  checkSplitReceivers(clientId: string, merchantId: string, sellerIds: readonly string[]): Promise<void>;
}

export interface SessionDeps {
  pool: Pool;
  store: SessionStore;
  clock: Clock;
  log: Logger;
  payments: PaymentsPort;
  sellers: SellersPort;
  keySecret: Buffer;
  publicUrl: string;
  /** Told after a change commits, so its event is relayed now rather than at the next poll. */
  outbox?: { kick(): void };
  /** The buyers of each session waiting in this process for a place held by attempts in flight. */
  places: PlaceQueue;
}

/** The job that disables a session when its due date passes. */
export const DUE_DATE_JOB = 'sessions.expire_by_due_date';

/** The sweep that gives back the places of payment attempts that never got an answer. */
export const STALE_PLACES_JOB = 'sessions.release_stale_places';
