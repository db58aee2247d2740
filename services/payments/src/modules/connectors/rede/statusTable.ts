import type { StatusTable } from '../kit/tables';

/**
 * e.Rede's transaction states (manual: "Consulta": `authorization.status` is Approved, Denied, Canceled or
 * Pending; `capture` is present once captured; each of `refunds[]` is Done, Denied or Processing) -> the charge
 * status each means. Rede has one status for an approved authorization, captured or not, so the connector reads
 * the key as the status with what qualifies it (transformers.ts `stateOf`).
 */
export const redeStatuses: StatusTable = {
  /** Authorized, not captured (capture false): a pre-authorization. */
  Approved: 'pre_authorized',
  /** Authorized and captured. */
  'Approved/captured': 'authorized',
  /** Captured and a cancellation asked on a later day is still being processed. */
  'Approved/refund Processing': 'refund_pending',
  /** The issuer or Rede refused it. */
  Denied: 'failed',
  /** Canceled whole: an uncaptured authorization released, or every captured centavo refunded. */
  Canceled: 'voided',
  /** Waiting for the cardholder's authentication (3DS). */
  Pending: 'pending',
};
