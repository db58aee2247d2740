import Stripe from 'stripe';
import { NotificationRefusedError, type InboundNotification, type NotificationReader, type NotificationReading } from '../domain/types';

/**
 * Stripe's webhook events ("Receive Stripe events in your webhook endpoint" > "Verify webhook signatures"): an
 * Event object posted with `Stripe-Signature: t=<timestamp>,v1=<signature>`, the HMAC-SHA256 of
 * `"{t}.{raw body}"` under the endpoint's signing secret (the entry's `webhookSecret`). The official SDK's
 * `webhooks.constructEvent` checks it over the bytes as received, and refuses a timestamp more than five minutes
 * from the platform's clock (a replayed post). A post it does not verify is refused.
 *
 * The event names the PaymentIntent it is about (a `payment_intent.*` event's object, a charge's, a refund's or
 * a dispute's `payment_intent`); the platform then retrieves the PaymentIntent ("Retrieve a PaymentIntent"), so
 * the status in the body is never what moves a charge. Other events are acknowledged and name nothing. Stripe
 * expects a 2xx answer.
 */

/** "Verify webhook signatures": Stripe's libraries' default tolerance. */
export const STRIPE_SIGNATURE_TOLERANCE_SECONDS = 300;

const PAYMENT_INTENT_ID = /^pi_[A-Za-z0-9]+$/;

function header(notification: InboundNotification, name: string): string | undefined {
  const entry = Object.entries(notification.headers).find(([key]) => key.toLowerCase() === name);
  return entry?.[1];
}

function intentIdOf(object: Record<string, unknown>): string | undefined {
  if (object.object === 'payment_intent') return typeof object.id === 'string' ? object.id : undefined;
  const reference = object.payment_intent;
  if (typeof reference === 'string') return reference;
  if (typeof reference === 'object' && reference !== null && typeof (reference as { id?: unknown }).id === 'string') return (reference as { id: string }).id;
  return undefined;
}

export function stripeNotifications(now: () => Date): NotificationReader {
  return {
    read(notification, credentials): NotificationReading {
      const secret = credentials.webhookSecret;
      if (typeof secret !== 'string' || secret === '') throw new NotificationRefusedError('Stripe entry without a webhook signing secret');
      const signature = header(notification, 'stripe-signature');
      if (!signature) throw new NotificationRefusedError('Stripe event without a Stripe-Signature header');
      let event: Stripe.Event;
      try {
        event = Stripe.webhooks.constructEvent(notification.rawBody, signature, secret, STRIPE_SIGNATURE_TOLERANCE_SECONDS, undefined, now().getTime());
      } catch (error) {
        // Which check failed, never the header, the body or the secret.
        const reason = error instanceof Stripe.errors.StripeSignatureVerificationError ? redactReason(error.message) : 'it is not an event';
        throw new NotificationRefusedError(`Stripe event refused: ${reason}`);
      }
      const object = (event.data as { object?: unknown } | undefined)?.object;
      if (typeof object !== 'object' || object === null) return { transactions: [], reply: { status: 200 } };
      const id = intentIdOf(object as Record<string, unknown>);
      return {
        transactions: id && PAYMENT_INTENT_ID.test(id) ? [{ transactionId: id, providerStatus: event.type }] : [],
        reply: { status: 200 },
      };
    },
  };
}

function redactReason(message: string): string {
  if (/tolerance/i.test(message)) return 'timestamp outside the tolerance zone';
  if (/no signatures found/i.test(message)) return 'no signature matches the payload';
  if (/unable to extract/i.test(message)) return 'malformed Stripe-Signature header';
  return 'signature verification failed';
}
