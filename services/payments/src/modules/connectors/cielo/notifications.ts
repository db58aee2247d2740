import { timingSafeEqual } from 'node:crypto';
import { NotificationRefusedError, type InboundNotification, type NotificationReader, type NotificationReading } from '../domain/types';

/**
 * Cielo's Notification Post (manual "API E-commerce Cielo", "Notification Post"): `{RecurrentPaymentId?,
 * PaymentId, ChangeType}` posted to the merchant's static "Payment Status URL", which answers 200 OK. The body
 * names a transaction and what changed, never its new status: the platform queries the sale back ("Searching for
 * a transaction via PaymentId"), so nothing in the body is trusted. Cielo signs nothing; a merchant may register
 * up to three static headers with Cielo Support, and when the provider entry lists them
 * (`credentials.notificationHeaders`), a post without all of them is refused.
 */

/** "ChangeType table". */
export const CIELO_CHANGE_TYPES: Readonly<Record<number, string>> = {
  1: 'Payment status change',
  2: 'Recurrence created',
  3: 'Antifraude status change',
  4: 'Recurring payment status change',
  5: 'Cancellation denied',
  7: 'Chargeback notification',
  8: 'Fraud alert',
};

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function sameValue(received: string, expected: string): boolean {
  const a = Buffer.from(received);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

function checkHeaders(notification: InboundNotification, credentials: Record<string, unknown>): void {
  const expected = credentials.notificationHeaders;
  if (typeof expected !== 'object' || expected === null) return;
  const received = Object.fromEntries(Object.entries(notification.headers).map(([name, value]) => [name.toLowerCase(), value]));
  for (const [name, value] of Object.entries(expected as Record<string, unknown>)) {
    const got = received[name.toLowerCase()];
    // Which header failed, never its value.
    if (typeof value !== 'string' || got === undefined || !sameValue(got, value)) {
      throw new NotificationRefusedError(`Cielo notification without the registered header ${name}`);
    }
  }
}

export const cieloNotifications: NotificationReader = {
  read(notification, credentials): NotificationReading {
    checkHeaders(notification, credentials);
    let body: unknown;
    try {
      body = JSON.parse(notification.rawBody.toString('utf8'));
    } catch {
      throw new NotificationRefusedError('Cielo notification is not JSON');
    }
    if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new NotificationRefusedError('Cielo notification is not an object');
    const { PaymentId, ChangeType } = body as { PaymentId?: unknown; ChangeType?: unknown };
    if (typeof PaymentId !== 'string' || !GUID.test(PaymentId)) throw new NotificationRefusedError('Cielo notification without a PaymentId');
    const changeType = typeof ChangeType === 'string' && /^\d+$/.test(ChangeType) ? Number(ChangeType) : ChangeType;
    if (typeof changeType !== 'number' || !(changeType in CIELO_CHANGE_TYPES)) {
      throw new NotificationRefusedError('Cielo notification with an unknown ChangeType');
    }
    // Every change is read back by PaymentId; the reply Cielo expects is a bare 200.
    return { transactions: [{ transactionId: PaymentId }], reply: { status: 200 } };
  },
};
