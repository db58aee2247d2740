import { hmacValidator as HmacValidator, type Types } from '@adyen/api-library';
import { NotificationRefusedError, type NotificationReader, type NotificationReading } from '../domain/types';
import { adyenCredentials } from './credentials';
import { redact } from './errors';
import { ADYEN_NOTIFICATION_STATUSES } from './statusTable';
import { HELD_REFERENCE_SUFFIX } from './transformers';

/**
 * Adyen's Standard webhook (manual: "Webhooks", "Verify HMAC signatures"): a JSON body
 * `{live, notificationItems: [{NotificationRequestItem: {...}}]}`, each item HMAC-SHA256-signed with the
 * merchant's hex HMAC key over `pspReference:originalReference:merchantAccountCode:merchantReference:
 * amount.value:amount.currency:eventCode:success` (base64, in `additionalData.hmacSignature`), checked here with
 * the Adyen library's HmacValidator. One item that is not signed with the entry's key, or is of another merchant
 * account, or a post of the other platform (`live` "true" to a sandbox entry, "false" to a production one),
 * refuses the whole post (nothing in it is believed). Signed items carry the event and its outcome, so
 * the connector gives the status itself (statusTable.ts); a modification's item names its payment by
 * `originalReference`, an authorisation's by `pspReference`. The reply Adyen expects is a 2xx; the body is the
 * documented `{"notificationResponse": "[accepted]"}`.
 *
 * A post that fails here is answered 401 by the platform, and one it fails to apply (an outage) an error status.
 * Adyen accepts only a 2xx: it tries again three times within half a minute, then keeps the post in the
 * endpoint's retry queue and sends it again after 2, 5, 10, 15 and 30 minutes, 1, 2, 4 and 8 hours, for up to
 * 30 days ("Troubleshoot webhooks", "Retry queue"). That queue is what heals a notification lost on the way:
 * Checkout v72 has no request to read a payment's status back.
 */

const validator = new HmacValidator();

export const ADYEN_ACCEPTED = { notificationResponse: '[accepted]' } as const;

type Item = Types.notification.NotificationRequestItem;

function isItem(value: unknown): value is Item {
  if (typeof value !== 'object' || value === null) return false;
  const item = value as Record<string, unknown>;
  const amount = item.amount as Record<string, unknown> | undefined;
  const additional = item.additionalData as Record<string, unknown> | undefined;
  return (
    typeof item.pspReference === 'string' &&
    item.pspReference !== '' &&
    typeof item.eventCode === 'string' &&
    (item.success === 'true' || item.success === 'false') &&
    typeof item.merchantAccountCode === 'string' &&
    typeof item.merchantReference === 'string' &&
    (item.originalReference === undefined || typeof item.originalReference === 'string') &&
    typeof amount === 'object' &&
    amount !== null &&
    Number.isSafeInteger(amount.value) &&
    typeof amount.currency === 'string' &&
    typeof additional === 'object' &&
    additional !== null &&
    typeof additional.hmacSignature === 'string'
  );
}

/** The items of a post, from the environment of the entry (`live` is "true" on Adyen's live platform only). */
function itemsOf(rawBody: Buffer, sandbox: boolean): unknown[] {
  let body: unknown;
  try {
    body = JSON.parse(rawBody.toString('utf8'));
  } catch {
    throw new NotificationRefusedError('Adyen notification is not JSON');
  }
  const { notificationItems: items, live } = (body ?? {}) as { notificationItems?: unknown; live?: unknown };
  if (live !== (sandbox ? 'false' : 'true')) throw new NotificationRefusedError('Adyen notification from the other environment');
  if (!Array.isArray(items) || items.length === 0) throw new NotificationRefusedError('Adyen notification without notificationItems');
  return items.map((entry) => (entry as { NotificationRequestItem?: unknown } | null)?.NotificationRequestItem);
}

/** The payment an item is about: a modification names it in originalReference. */
export function paymentOf(item: Pick<Item, 'pspReference' | 'originalReference'>): string {
  return item.originalReference ? item.originalReference : item.pspReference;
}

/** The modification events (manual: "Webhook types", "Modifications") and the operation each settles. */
const MODIFICATIONS: Readonly<Record<string, 'capture' | 'void' | 'refund'>> = {
  CAPTURE: 'capture',
  CAPTURE_FAILED: 'capture',
  CANCELLATION: 'void',
  REFUND: 'refund',
  REFUND_FAILED: 'refund',
};

export const adyenNotifications: NotificationReader = {
  read(notification, credentials): NotificationReading {
    const parsed = adyenCredentials.safeParse(credentials);
    if (!parsed.success) throw new NotificationRefusedError('the ADYEN provider entry has no usable HMAC key');
    const { hmacKey, merchantAccount, environment } = parsed.data;
    const transactions: NotificationReading['transactions'] = [];
    for (const item of itemsOf(notification.rawBody, environment === 'sandbox')) {
      if (!isItem(item)) throw new NotificationRefusedError('Adyen notification item without the signed fields');
      let valid: boolean;
      try {
        valid = validator.validateHMAC(item, hmacKey);
      } catch {
        valid = false;
      }
      // Which check failed, never the key or the signature.
      if (!valid) throw new NotificationRefusedError('Adyen notification item with a bad HMAC signature');
      if (item.merchantAccountCode !== merchantAccount) throw new NotificationRefusedError('Adyen notification of another merchant account');
      const held = item.eventCode === 'AUTHORISATION' && item.success === 'true' && item.merchantReference.endsWith(HELD_REFERENCE_SUFFIX);
      const key = `${item.eventCode}:${item.success}${held ? ':held' : ''}`;
      const status = ADYEN_NOTIFICATION_STATUSES[key];
      // A refusal's reason is kept with it ("Insufficient balance on payment"); a success's reason is never kept (an
      // AUTHORISATION's carries the card's last digits and expiry).
      const reason = item.success === 'false' && item.reason ? ` (${redact(item.reason).slice(0, 80)})` : '';
      const operation = MODIFICATIONS[item.eventCode];
      if (status) {
        transactions.push({
          transactionId: paymentOf(item),
          status,
          providerStatus: `${key}${reason}`,
          // A modification's item names it by its own pspReference: that one capture, cancel or refund is settled, once.
          ...(operation && item.originalReference
            ? {
                operation: {
                  type: operation,
                  reference: item.pspReference,
                  // CAPTURE_FAILED "true": the capture the acquirer first took failed after all.
                  succeeded: item.success === 'true' && !item.eventCode.endsWith('_FAILED'),
                  amount: Number(item.amount.value),
                },
              }
            : {}),
        });
      }
    }
    return { transactions, reply: { status: 200, body: ADYEN_ACCEPTED } };
  },
};
