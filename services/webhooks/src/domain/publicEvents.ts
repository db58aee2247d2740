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

/**
 * What each public event means to a receiver, by event name: the text of `GET /v1/webhooks/event-types`. Every name
 * of the catalogue has one, and only those (test/domain/eventTypes.test.ts); docs/events.md says the same at length.
 */
export const EVENT_DESCRIPTIONS: Readonly<Record<string, string>> = {
  pending: 'A charge waits for payment (Pix, boleto, voucher) or for an antifraud decision.',
  pre_authorized: 'A card charge with capture false was authorized and waits for its capture.',
  authorized: 'A charge was authorized and captured, or paid (Pix, boleto); also after a partial refund.',
  failed: 'A charge was declined, failed at every provider, or was refused by antifraud.',
  canceled: 'The provider canceled a charge, or a pending charge was voided.',
  voided: 'A pre-authorization was voided, or the captured amount was refunded in full.',
  charged_back: 'The buyer disputed a charge and the provider charged it back.',
  refund_pending: 'The provider accepted a refund that it has not confirmed yet.',
  capture_pending: 'The provider accepted a capture that it has not confirmed yet.',
  'customer.created': 'A customer was created (POST /v1/customers).',
  'customer.updated': 'A customer was changed (PATCH /v1/customers/{id}).',
  'customer.deleted': 'A customer was deleted (DELETE /v1/customers/{id}); data is the customer as the deletion answered it.',
  'customer.card_added': 'A saved card was linked to a customer for the first time (POST /v1/customers/{id}/cards); data is the link.',
  'card.created': 'A card was saved in the vault (POST /v1/cards).',
  'merchant.created': 'A merchant was created (POST /v1/merchants).',
  'merchant.updated': 'A merchant, its platform fee rules or its platform fee switch changed.',
  'merchant.deleted': 'A merchant was deleted (DELETE /v1/merchants/{id}); its status is deleted.',
  'provider.updated': "A merchant's provider was changed (PATCH /v1/providers/{id}).",
  'flow.created': 'A routing flow was created (POST /v1/flows).',
  'flow.updated': 'A routing flow was replaced (PUT /v1/flows/{id}).',
  'client.created': 'The client account was created; it happens before any webhook of the client exists.',
  'client.updated': 'The operator changed the client account.',
  'api_key.revoked': 'A secret or public key of the client was revoked; data names the key, never the key itself.',
  'link_settings.created': 'Payment-link settings were created (POST /v1/settings).',
  'link_settings.updated': 'Payment-link settings were changed (PATCH /v1/settings).',
  'subscription_settings.updated': 'The subscription settings were changed (PATCH /v1/subscriptions/settings).',
  'session.created': 'A payment session was created (POST /v1/sessions).',
  'session.updated': 'A session was changed (PATCH /v1/sessions/{id}), or a 1:N session counted a payment.',
  'session.paid': "A 1:1 session's charge was approved.",
  'session.canceled': 'A session was canceled (POST /v1/sessions/{id}/cancel).',
  'session.disabled': 'A session stopped taking payments by itself: its due date passed or it reached its maximum of payments.',
  'seller.created': 'A seller was created (POST /v1/sellers).',
  'seller.updated': 'A seller was changed: by PATCH /v1/sellers/{id}, a finished registration review, or a provider link blocked or unblocked.',
  'seller.active': "A seller's status became active: every provider link is active.",
  'seller.inactive': 'A seller was deactivated (DELETE /v1/sellers/{id}).',
  'seller.blocked': 'A registration review expired unsubmitted: the link at that provider and the seller are blocked.',
  'seller.registration_review.opened': 'A provider opened a registration review of a seller.',
  'seller.registration_review.fields_requested': 'The provider sent the fields a registration review asks for.',
  'seller.registration_review.overdue': "A registration review's deadline passed without a submission.",
  'seller.registration_review.submitted': 'A registration review submission was accepted for sending to the provider.',
  'seller.registration_review.finished': 'The provider accepted a registration review submission; the seller carries the submitted values.',
  'seller.registration_review.submit_failed': 'The provider refused a registration review submission; it can be submitted again until it expires.',
  'seller.registration_review.expired': 'A registration review expired without an accepted submission.',
  'seller.registration_review.canceled': 'The provider canceled a registration review.',
  'payment_batch.created': "A settlement gathered a receiver's due receivables and debits into a payment batch.",
  'payment_batch.paid': 'The transfer of a payment batch was made.',
  'payment_batch.failed': 'The transfer of a payment batch failed; it is tried again the next business day.',
  'prepayment.created': 'A prepayment was simulated (POST /v1/subacquirer/prepayment); it is pending until it expires.',
  'prepayment.committed': 'A prepayment was committed: its receivables are paid on its payment date.',
  'subscription.created': 'A subscription was created (POST /v1/subscriptions).',
  'subscription.updated': "A subscription's items, card or name were replaced (PUT /v1/subscriptions/{id}).",
  'subscription.trial_started': 'A subscription is in its trial: it bills first when the trial ends.',
  'subscription.activated': 'A paid cycle made a subscription active.',
  'subscription.paused': 'A subscription was paused: no cycle is billed until it is resumed.',
  'subscription.resumed': 'A subscription was resumed: billing continues from the next due date.',
  'subscription.canceled': "A subscription was canceled, by request or after every retry of a cycle failed and the client's settings say so.",
  'subscription.expired': 'The last cycle of a subscription was billed.',
  'subscription.unpaid': 'A cycle failed: the subscription is unpaid while the cycle waits for its retries.',
  'subscription.cycle_paid': "A cycle's charge was authorized, at its due time or on a retry; data is the cycle.",
  'subscription.cycle_failed': 'An attempt of a cycle failed; data is the cycle, retrying or failed when no retry is left.',
};

/** A public event as the catalogue route lists it, in catalogue order. */
export interface PublicEventType extends PublicEventKind {
  description: string;
}

export const PUBLIC_EVENT_TYPES: readonly PublicEventType[] = Object.values(CATALOGUE).map((kind) => ({
  ...kind,
  description: EVENT_DESCRIPTIONS[kind.event] ?? '',
}));

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
