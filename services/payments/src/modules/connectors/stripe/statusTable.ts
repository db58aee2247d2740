import type { StatusTable } from '../kit/tables';

/**
 * A PaymentIntent's `status` (API reference "The PaymentIntent object" > status; guide "How PaymentIntents
 * work") -> the charge status it means. Stripe keeps one status for a PaymentIntent that succeeded whether or
 * not it was refunded since, and one for a new PaymentIntent and one whose attempt failed, so the connector reads
 * the key as the status with what qualifies it (transformers.ts `stateOf`): `/declined` when
 * `last_payment_error` is set, `/refunded` when its charge was refunded in full,
 * `/unpaid` when it was canceled without a charge.
 */
export const STRIPE_STATUS: StatusTable = {
  /** Created, no payment method yet. */
  requires_payment_method: 'pending',
  /** The attempt failed (a decline, a Pix that expired unpaid): it waits for another payment method. */
  'requires_payment_method/declined': 'failed',
  /** Has a payment method, not confirmed. */
  requires_confirmation: 'pending',
  /** Waits for the customer: 3D Secure, or a Pix QR code not paid yet. */
  requires_action: 'pending',
  /** The payment method is being processed (asynchronous methods). */
  processing: 'pending',
  /** Authorized, funds held until captured (`capture_method=manual`): a pre-authorization. */
  requires_capture: 'pre_authorized',
  /** Captured (paid). Partial refunds leave it here. */
  succeeded: 'authorized',
  /** Captured, then refunded in full. */
  'succeeded/refunded': 'voided',
  /** Canceled after an authorization: the held amount released. */
  canceled: 'voided',
  /** Canceled before anything was authorized or paid (a Pix not paid, an abandoned attempt). */
  'canceled/unpaid': 'canceled',
};
