import type { StatusTable } from '../kit/tables';

/**
 * A payment's `status` (Mercado Pago's "Get payment status" table) -> the charge status. One key is the status
 * with what qualifies it (transformers.ts `stateOf`): an approved payment with a refund still in process.
 * `in_mediation` (the payer opened a dispute; the money is held while it lasts) is absent: it changes nothing
 * until the dispute ends as `charged_back` or back in `approved`.
 */
export const MERCADOPAGO_STATUS: StatusTable = {
  /** Waiting for the payer: a Pix not paid yet (pending_waiting_transfer), a card waiting for its 3DS challenge. */
  pending: 'pending',
  /** Being reviewed (pending_contingency, pending_review_manual, offline_process, deferred_retry). */
  in_process: 'pending',
  /** Authorized and waiting for capture (pending_capture): a pre-authorization. */
  authorized: 'pre_authorized',
  /** Approved and credited (accredited), or with part refunded (partially_refunded). */
  approved: 'authorized',
  /** Approved, with a refund Mercado Pago has not finished. */
  'approved/refund in_process': 'refund_pending',
  /** Refused (the cc_rejected_* details and the others of the decline table). */
  rejected: 'failed',
  /** Cancelled before it was captured or paid: by the collector, by the payer, or expired. */
  cancelled: 'canceled',
  /** Refunded whole (refunded, by_admin). */
  refunded: 'voided',
  /** A chargeback (settled, reimbursed, in_process). */
  charged_back: 'charged_back',
};
