import type { DomainEvent } from '@platform/kit';
import { isPublicEventName, PUBLIC_EVENT_NAMES, publicKindOf, toPublicEvent, TRANSACTION_EVENTS } from '../../src/domain/publicEvents';

function domainEvent(type: string, data: unknown = { id: 'x' }): DomainEvent {
  return { id: '1f6e1a52-9f55-4c4e-8a53-4d2c43a4f0c1', type, occurredAt: '2026-04-01T10:00:00.000Z', clientId: '4b0f6a8e-2c1d-4e5f-9a7b-1c2d3e4f5a6b', data };
}

describe('the public event catalogue', () => {
  it('maps every charge status to a transaction event named after the status', () => {
    expect([...TRANSACTION_EVENTS]).toEqual([
      'pending',
      'pre_authorized',
      'authorized',
      'failed',
      'canceled',
      'voided',
      'charged_back',
      'refund_pending',
      'capture_pending',
    ]);
    for (const status of TRANSACTION_EVENTS) {
      expect(publicKindOf(`payments.charge.${status}`)).toEqual({ object: 'transaction', event: status });
    }
  });

  it.each([
    ['customers.customer.created', 'customer', 'customer.created'],
    ['customers.customer.updated', 'customer', 'customer.updated'],
    ['customers.customer.deleted', 'customer', 'customer.deleted'],
    ['customers.customer.card_added', 'customer', 'customer.card_added'],
    ['payments.card.created', 'card', 'card.created'],
    ['payments.merchant.created', 'merchant', 'merchant.created'],
    ['payments.merchant.updated', 'merchant', 'merchant.updated'],
    ['payments.merchant.deleted', 'merchant', 'merchant.deleted'],
    ['payments.provider.updated', 'provider', 'provider.updated'],
    ['payments.flow.created', 'flow', 'flow.created'],
    ['payments.flow.updated', 'flow', 'flow.updated'],
    ['settings.client.created', 'client', 'client.created'],
    ['settings.client.updated', 'client', 'client.updated'],
    ['settings.api_key.revoked', 'api_key', 'api_key.revoked'],
    ['settings.link_settings.created', 'link_settings', 'link_settings.created'],
    ['settings.link_settings.updated', 'link_settings', 'link_settings.updated'],
    ['settings.subscription_settings.updated', 'subscription_settings', 'subscription_settings.updated'],
    ['sellers.seller.blocked', 'seller', 'seller.blocked'],
    ['sellers.registration_review.expired', 'registration_review', 'seller.registration_review.expired'],
    ['payouts.payment_batch.paid', 'payment_batch', 'payment_batch.paid'],
    ['payouts.payment_batch.failed', 'payment_batch', 'payment_batch.failed'],
    ['payouts.prepayment.committed', 'prepayment', 'prepayment.committed'],
    ['subscriptions.subscription.created', 'subscription', 'subscription.created'],
    ['subscriptions.subscription.cycle_failed', 'subscription_cycle', 'subscription.cycle_failed'],
  ])('maps %s to object %s, event %s', (subject, object, event) => {
    expect(publicKindOf(subject)).toEqual({ object, event });
  });

  it('maps every subscription event to event subscription.<what>, of object subscription or, for a cycle event, subscription_cycle', () => {
    const whats = ['created', 'updated', 'trial_started', 'activated', 'paused', 'resumed', 'canceled', 'expired', 'unpaid', 'cycle_paid', 'cycle_failed'];
    for (const what of whats) {
      const object = what.startsWith('cycle_') ? 'subscription_cycle' : 'subscription';
      expect(publicKindOf(`subscriptions.subscription.${what}`)).toEqual({ object, event: `subscription.${what}` });
      expect(isPublicEventName(`subscription.${what}`)).toBe(true);
    }
    expect(PUBLIC_EVENT_NAMES.filter((name) => name.startsWith('subscription.'))).toEqual(whats.map((what) => `subscription.${what}`));
  });

  it('keeps the webhooks context and unknown subjects internal', () => {
    for (const subject of [
      'webhooks.webhook.created',
      'webhooks.webhook.updated',
      'webhooks.webhook.deleted',
      'payments.charge.unknown',
      'sessions.session.unknown',
      'subscriptions.subscription.unknown',
      'toString',
      '__proto__',
    ]) {
      expect(publicKindOf(subject)).toBeNull();
    }
  });

  it('accepts "*" and every catalogue name for a registration, and nothing else', () => {
    expect(PUBLIC_EVENT_NAMES).toHaveLength(60);
    expect(new Set(PUBLIC_EVENT_NAMES).size).toBe(PUBLIC_EVENT_NAMES.length);
    for (const name of ['*', 'authorized', 'customer.created', 'card.created']) expect(isPublicEventName(name)).toBe(true);
    for (const name of ['', 'charge.authorized', 'payments.charge.authorized', 'webhook.created', 'customer.*', 'subscription.*', 'subscriptions.subscription.created']) expect(isPublicEventName(name)).toBe(false);
  });

  it('builds the body with the domain event id, its time, the object, the event and the webhook version', () => {
    const data = { id: 'ch_1', status: 'authorized', amount: 1000 };
    expect(toPublicEvent(domainEvent('payments.charge.authorized', data), 1.1)).toEqual({
      id: '1f6e1a52-9f55-4c4e-8a53-4d2c43a4f0c1',
      createdAt: '2026-04-01T10:00:00.000Z',
      object: 'transaction',
      event: 'authorized',
      apiVersion: 1.1,
      data,
    });
    expect(toPublicEvent(domainEvent('customers.customer.created'), 2)).toMatchObject({ object: 'customer', event: 'customer.created', apiVersion: 2 });
    expect(toPublicEvent(domainEvent('webhooks.webhook.created'), 1)).toBeNull();
  });
});
