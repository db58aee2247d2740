import type { StatusTable } from '../kit/tables';

/**
 * Pagar.me core API v5: a charge's `status` ("Cobranças" > "Objeto cobrança": pending, paid, canceled,
 * processing, failed, overpaid, underpaid, chargedback) -> the charge status. A status the table does not know
 * changes nothing.
 */
export const PAGARME_CHARGE_STATUS: StatusTable = {
  /** Waiting: a Pix or boleto not paid yet, or a card authorization not captured yet (see the transaction's status). */
  pending: 'pending',
  /** Being processed (a card "processing" at the acquirer): not decided yet. */
  processing: 'pending',
  /** Paid: captured, or the Pix or boleto paid. */
  paid: 'authorized',
  /** A boleto paid with more than its amount: paid. */
  overpaid: 'authorized',
  /** A boleto paid with less than its amount: paid (`paid_amount` says how much). */
  underpaid: 'authorized',
  /** Not authorized, or failed at the acquirer. */
  failed: 'failed',
  /** Canceled: a pre-authorization or an unpaid Pix or boleto voided, or everything paid refunded. */
  canceled: 'voided',
  /** The buyer disputed it and the money went back. */
  chargedback: 'charged_back',
};

/**
 * The last transaction's `status` where it says more than its charge's: a card authorization held for a later
 * capture is a `pending` charge whose transaction is `authorized_pending_capture`; a capture or a refund the
 * acquirer settles later is waiting there.
 */
export const PAGARME_TRANSACTION_STATUS: StatusTable = {
  /** Authorized, waiting for the capture (`capture: false`). */
  authorized_pending_capture: 'pre_authorized',
  /** The capture was asked for and the acquirer confirms it later. */
  waiting_capture: 'capture_pending',
  /** The cancellation was asked for and the acquirer confirms it later. */
  waiting_cancellation: 'refund_pending',
  /** Sent to the acquirer and not answered yet ("Processing"): not decided. */
  with_error: 'pending',
};
