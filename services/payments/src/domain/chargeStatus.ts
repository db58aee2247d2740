import { errors } from '@platform/kit';

export const CHARGE_STATUSES = [
  'pending',
  'pre_authorized',
  'authorized',
  'failed',
  'canceled',
  'voided',
  'charged_back',
  'refund_pending',
  'capture_pending',
] as const;

export type ChargeStatus = (typeof CHARGE_STATUSES)[number];

/**
 * Every status a charge may move to from each status. A partial capture or a partial refund keeps the status
 * (it changes amounts, not the state). Anything not listed is refused with `charge_status_transition_not_allowed`.
 */
export const CHARGE_TRANSITIONS: Record<ChargeStatus, readonly ChargeStatus[]> = {
  pending: ['pre_authorized', 'authorized', 'failed', 'canceled'],
  pre_authorized: ['authorized', 'capture_pending', 'voided', 'canceled', 'failed'],
  capture_pending: ['authorized', 'failed'],
  authorized: ['voided', 'refund_pending', 'charged_back'],
  refund_pending: ['voided', 'authorized'],
  failed: [],
  canceled: [],
  voided: [],
  charged_back: [],
};

export function isChargeStatus(value: string): value is ChargeStatus {
  return (CHARGE_STATUSES as readonly string[]).includes(value);
}

export function canTransition(from: ChargeStatus, to: ChargeStatus): boolean {
  return CHARGE_TRANSITIONS[from].includes(to);
}

export function assertTransition(from: ChargeStatus, to: ChargeStatus): void {
  if (!canTransition(from, to)) {
    throw errors.businessRule('charge_status_transition_not_allowed', `A ${from} charge cannot become ${to}`);
  }
}
