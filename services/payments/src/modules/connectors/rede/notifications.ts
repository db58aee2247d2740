import { NotificationRefusedError, type NotificationReader } from '../domain/types';

/**
 * e.Rede posts nothing the platform can verify for card transactions: its manual documents no signed
 * notification of an authorization, capture or cancellation (a cancellation may name a callback URL, but the
 * post carries no signature or shared secret to check it by). The reader therefore refuses every post, and a
 * charge waiting on Rede (a refund still `Processing`) is moved by the status sync alone, which asks Rede
 * (`query`, GET /v2/transactions/{tid}) where the transaction stands.
 */
export const redeNotifications: NotificationReader = {
  read() {
    throw new NotificationRefusedError('e.Rede sends no verifiable notifications; the status sync queries the transaction instead');
  },
};
