import type { ProviderChargeStatus } from '../domain/types';
import type { StatusTable } from '../kit/tables';

/**
 * Adyen's `resultCode` of a `/payments` answer (Checkout API v72, PaymentResponse.resultCode; "Payment result
 * codes") -> the charge status it means. `Authorised` is a pre-authorization when the payment was asked with
 * manual capture (transformers.ts says which). The shopper-action codes (RedirectShopper, IdentifyShopper,
 * ChallengeShopper, PresentToShopper) are absent: this connector runs no 3D Secure or redirect flow, so such an
 * answer is a decline (transformers.ts `fromPaymentResponse`).
 */
export const ADYEN_RESULT_CODES: StatusTable = {
  /** Successfully authorised (captured at once unless manual capture was asked). */
  Authorised: 'authorized',
  /** Refused; the reason is in refusalReason / refusalReasonCode. */
  Refused: 'failed',
  /** An error while processing; the reason is in refusalReason. */
  Error: 'failed',
  /** Cancelled before processing completed. */
  Cancelled: 'canceled',
  /** The final status cannot be obtained yet; the AUTHORISATION notification tells it. */
  Pending: 'pending',
  /** Received by Adyen and to be processed; the AUTHORISATION notification tells how it ended. */
  Received: 'pending',
  /** Authorised for part of the amount only (never asked here: partial authorisation is not enabled). */
  PartiallyAuthorised: 'failed',
};

/**
 * What a Standard webhook's NotificationRequestItem means for the charge of its payment (Adyen "Webhook types",
 * "Standard webhook" event codes), keyed `eventCode:success` (`:held` added for the authorisation of a
 * pre-authorization). The item is HMAC-signed (notifications.ts), so the
 * connector gives the status itself and the platform asks nothing back (Checkout v72 has no payment lookup).
 * Modifications (capture, cancel, refund) are answered `received` by the API and settled here:
 * - a capture, cancel or refund that succeeded is `authorized`, `voided`, `voided` (the platform settles the
 *   pending request it belongs to with the request's own amount: a partial refund stays partial);
 * - one that failed is a status its pending request reads as refused (`failed` for a capture or cancellation,
 *   `authorized` for a refund), so the request fails and the charge goes back to where it was.
 * Events absent here (REFUND_FAILED, CHARGEBACK_REVERSED, NOTIFICATION_OF_CHARGEBACK, REPORT_AVAILABLE, ...) change
 * nothing: the platform has no move for them, and they are accepted so that Adyen does not send them again.
 */
export const ADYEN_NOTIFICATION_STATUSES: Readonly<Record<string, ProviderChargeStatus>> = {
  /** The payment was authorised (its resultCode was Pending or Received) and captured at once. */
  'AUTHORISATION:true': 'authorized',
  /** The same, for a pre-authorization (its reference ends in `-preauth`, transformers.ts): held until a capture. */
  'AUTHORISATION:true:held': 'pre_authorized',
  /** The payment was refused. */
  'AUTHORISATION:false': 'failed',
  /** The capture went through. */
  'CAPTURE:true': 'authorized',
  /** The capture was refused (the authorisation expired, was cancelled, or the amount is not capturable). */
  'CAPTURE:false': 'failed',
  /** A capture Adyen had accepted failed at the scheme afterwards. */
  'CAPTURE_FAILED:true': 'failed',
  /** The authorisation was cancelled (released). */
  'CANCELLATION:true': 'voided',
  /** The cancellation was refused (the payment was captured or cancelled already). */
  'CANCELLATION:false': 'failed',
  /** The refund went through. */
  'REFUND:true': 'voided',
  /** The refund was refused. */
  'REFUND:false': 'authorized',
  /** A cancel-or-refund made at Adyen (Customer Area, /reversals) went through. */
  'CANCEL_OR_REFUND:true': 'voided',
  /** Adyen cancelled a payment that timed out in processing. */
  'TECHNICAL_CANCEL:true': 'voided',
  /** The shopper's bank debited the payment back. */
  'CHARGEBACK:true': 'charged_back',
};
