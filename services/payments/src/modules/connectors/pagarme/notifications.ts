import { timingSafeEqual } from 'node:crypto';
import { NotificationRefusedError, type InboundNotification, type NotificationReader, type NotificationReading } from '../domain/types';

/**
 * Pagar.me's webhooks (core API v5, "Webhooks"): for each event the account's webhook subscribes to, Pagar.me
 * posts `{id: "hook_...", account: {id, name}, type: "charge.paid", created_at, data: {...}}`, where `data` is
 * the object the event is about (a charge for `charge.*`, an order with its `charges` for `order.*`), and
 * expects a 2xx. Pagar.me signs nothing; the webhook may carry HTTP Basic credentials configured on it in the
 * dashboard, and when the provider entry has them (`credentials.webhookUser` / `webhookPassword`), a post
 * without them is refused. Either way nothing in the body is believed: every charge it names is queried back
 * (`GET /charges/{charge_id}`).
 */

const CHARGE_ID = /^ch_[A-Za-z0-9]{1,64}$/;
const HOOK_ID = /^hook_[A-Za-z0-9]{1,64}$/;

function sameValue(received: string, expected: string): boolean {
  const a = Buffer.from(received);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

function checkBasic(notification: InboundNotification, credentials: Record<string, unknown>): void {
  const user = credentials.webhookUser;
  const password = credentials.webhookPassword;
  if (typeof user !== 'string' || typeof password !== 'string') return;
  const header = Object.entries(notification.headers).find(([name]) => name.toLowerCase() === 'authorization')?.[1] ?? '';
  const match = /^Basic\s+([A-Za-z0-9+/=]+)$/i.exec(header.trim());
  const decoded = match ? Buffer.from(match[1]!, 'base64').toString('utf8') : '';
  // Never which part was wrong, nor what came.
  if (!sameValue(decoded, `${user}:${password}`)) throw new NotificationRefusedError('Pagar.me notification without the webhook credentials');
}

function chargeIdsOf(type: string, data: Record<string, unknown>): string[] {
  if (type.startsWith('charge.')) {
    if (typeof data.id !== 'string' || !CHARGE_ID.test(data.id)) throw new NotificationRefusedError('Pagar.me charge notification without a charge id');
    return [data.id];
  }
  // order.*: the order's charges.
  const charges = Array.isArray(data.charges) ? data.charges : [];
  return charges
    .map((charge) => (typeof charge === 'object' && charge !== null ? (charge as { id?: unknown }).id : undefined))
    .filter((id): id is string => typeof id === 'string' && CHARGE_ID.test(id));
}

export const pagarmeNotifications: NotificationReader = {
  read(notification, credentials): NotificationReading {
    checkBasic(notification, credentials);
    let body: unknown;
    try {
      body = JSON.parse(notification.rawBody.toString('utf8'));
    } catch {
      throw new NotificationRefusedError('Pagar.me notification is not JSON');
    }
    if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new NotificationRefusedError('Pagar.me notification is not an object');
    const { id, type, data } = body as { id?: unknown; type?: unknown; data?: unknown };
    if (typeof id !== 'string' || !HOOK_ID.test(id)) throw new NotificationRefusedError('Pagar.me notification without a hook id');
    if (typeof type !== 'string' || !/^[a-z_]+(\.[a-z_]+)+$/.test(type)) throw new NotificationRefusedError('Pagar.me notification without an event type');
    if (typeof data !== 'object' || data === null || Array.isArray(data)) throw new NotificationRefusedError('Pagar.me notification without data');
    // Events about other objects (customers, cards, subscriptions, ...) name no charge: acknowledged, nothing to do.
    const transactions = type.startsWith('charge.') || type.startsWith('order.') ? chargeIdsOf(type, data as Record<string, unknown>) : [];
    return { transactions: transactions.map((transactionId) => ({ transactionId })), reply: { status: 200 } };
  },
};
