import {
  ALL_EVENTS,
  CHARGE_STATUSES,
  CUSTOMER_EVENT_TYPES as CUSTOMER,
  SESSION_EVENT_TYPES as SESSION,
  SETTINGS_EVENT_TYPES as SETTINGS,
  SUBSCRIPTION_EVENT_TYPES as SUBSCRIPTION,
} from '@platform/api-model';
import type { DomainEvent } from '@platform/kit';

/**
 * The public event catalogue (docs/events.md): which domain event subject becomes which public event. A subject
 * that is not listed here is internal and never delivered; a context that wants its events delivered adds them
 * here and to the document.
 */
export interface PublicEventKind {
  /** What `data` is: `transaction`, `customer`, `merchant`, ... */
  object: string;
  /** The name a webhook registers for. */
  event: string;
}

/** The charge statuses: a transaction event is named after the status the charge has after the change. */
export const TRANSACTION_EVENTS = CHARGE_STATUSES;

const ENTITY_EVENTS: Record<string, PublicEventKind> = {
  [CUSTOMER.created]: { object: 'customer', event: 'customer.created' },
  [CUSTOMER.updated]: { object: 'customer', event: 'customer.updated' },
  [CUSTOMER.deleted]: { object: 'customer', event: 'customer.deleted' },
  [CUSTOMER.cardAdded]: { object: 'customer', event: 'customer.card_added' },
  'payments.card.created': { object: 'card', event: 'card.created' },
  'payments.merchant.created': { object: 'merchant', event: 'merchant.created' },
  'payments.merchant.updated': { object: 'merchant', event: 'merchant.updated' },
  'payments.merchant.deleted': { object: 'merchant', event: 'merchant.deleted' },
  'payments.provider.updated': { object: 'provider', event: 'provider.updated' },
  'payments.flow.created': { object: 'flow', event: 'flow.created' },
  'payments.flow.updated': { object: 'flow', event: 'flow.updated' },
  [SETTINGS.clientCreated]: { object: 'client', event: 'client.created' },
  [SETTINGS.clientUpdated]: { object: 'client', event: 'client.updated' },
  [SETTINGS.apiKeyRevoked]: { object: 'api_key', event: 'api_key.revoked' },
  [SETTINGS.linkSettingsCreated]: { object: 'link_settings', event: 'link_settings.created' },
  [SETTINGS.linkSettingsUpdated]: { object: 'link_settings', event: 'link_settings.updated' },
  [SETTINGS.subscriptionSettingsUpdated]: { object: 'subscription_settings', event: 'subscription_settings.updated' },
  [SESSION.created]: { object: 'session', event: 'session.created' },
  [SESSION.updated]: { object: 'session', event: 'session.updated' },
  [SESSION.paid]: { object: 'session', event: 'session.paid' },
  [SESSION.canceled]: { object: 'session', event: 'session.canceled' },
  [SESSION.disabled]: { object: 'session', event: 'session.disabled' },
  ...Object.fromEntries(
    ['created', 'updated', 'active', 'inactive', 'blocked'].map((what) => [`sellers.seller.${what}`, { object: 'seller', event: `seller.${what}` }]),
  ),
  ...Object.fromEntries(
    ['opened', 'fields_requested', 'overdue', 'submitted', 'finished', 'submit_failed', 'expired', 'canceled'].map((what) => [
      `sellers.registration_review.${what}`,
      { object: 'registration_review', event: `seller.registration_review.${what}` },
    ]),
  ),
  ...Object.fromEntries(['created', 'paid', 'failed'].map((what) => [`payouts.payment_batch.${what}`, { object: 'payment_batch', event: `payment_batch.${what}` }])),
  ...Object.fromEntries(['created', 'committed'].map((what) => [`payouts.prepayment.${what}`, { object: 'prepayment', event: `prepayment.${what}` }])),
  // subscriptions.subscription.<what> is delivered as subscription.<what>; the cycle events carry the cycle.
  ...Object.fromEntries(
    Object.values(SUBSCRIPTION).map((subject) => [
      subject,
      { object: /\.cycle_(paid|failed)$/.test(subject) ? 'subscription_cycle' : 'subscription', event: subject.replace(/^subscriptions\./, '') },
    ]),
  ),
};

const CATALOGUE: Record<string, PublicEventKind> = {
  ...Object.fromEntries(TRANSACTION_EVENTS.map((status) => [`payments.charge.${status}`, { object: 'transaction', event: status }])),
  ...ENTITY_EVENTS,
};

/** Every public event name, in catalogue order. */
export const PUBLIC_EVENT_NAMES: readonly string[] = Object.values(CATALOGUE).map((k) => k.event);

export { ALL_EVENTS };

export function isPublicEventName(name: string): boolean {
  return name === ALL_EVENTS || PUBLIC_EVENT_NAMES.includes(name);
}

/** The public kind of a domain event subject; null for internal subjects, the webhooks context's own included. */
export function publicKindOf(subject: string): PublicEventKind | null {
  return Object.hasOwn(CATALOGUE, subject) ? CATALOGUE[subject]! : null;
}

/** The body a receiver gets. */
export interface PublicEvent {
  /** The domain event id: the same on every attempt and every retry, so receivers can deduplicate. */
  id: string;
  createdAt: string;
  object: string;
  event: string;
  apiVersion: number;
  data: unknown;
}

/** The public form of a domain event for a webhook that implements `apiVersion`, or null when it is not public. */
export function toPublicEvent(event: DomainEvent, apiVersion: number): PublicEvent | null {
  const kind = publicKindOf(event.type);
  if (!kind) return null;
  return { id: event.id, createdAt: event.occurredAt, object: kind.object, event: kind.event, apiVersion, data: event.data };
}
