import type { StatusTable } from '../kit/tables';

/**
 * `Payment.Status` (manual "API E-commerce Cielo", "API codes" > "Transactional status"; the same list in
 * Braspag Pagador's "Transaction Status List") -> the charge status. Codes the manual does not list (4 to 9,
 * 14 to 19) are absent: an unknown status changes nothing.
 */
export const CIELO_STATUS: StatusTable = {
  /** NotFinished: waiting for a status update (a failure in processing, or a debit the shopper left). */
  '0': 'pending',
  /** Authorized: apt to be captured. */
  '1': 'pre_authorized',
  /** PaymentConfirmed: confirmed and finalized (captured; a Pix paid). */
  '2': 'authorized',
  /** Denied by the authorizer. */
  '3': 'failed',
  /** Voided: canceled. */
  '10': 'voided',
  /** Refunded: canceled after 23:59 of the authorization day. */
  '11': 'voided',
  /** Pending: waiting for the financial institution (a Pix not paid yet). */
  '12': 'pending',
  /** Aborted: canceled due to a processing failure. */
  '13': 'failed',
  /** Scheduled: a scheduled recurrence. */
  '20': 'pending',
};

/** The manual's names of the statuses, for the messages kept with each request. */
export const CIELO_STATUS_NAMES: Readonly<Record<string, string>> = {
  '0': 'NotFinished',
  '1': 'Authorized',
  '2': 'PaymentConfirmed',
  '3': 'Denied',
  '10': 'Voided',
  '11': 'Refunded',
  '12': 'Pending',
  '13': 'Aborted',
  '20': 'Scheduled',
};
