import type { HistoryStatus, Session } from './session';

/** Stable reasons written in `diff.reason` (and `diff.changes.isActive.reason`). */
export const REASONS = {
  dueDate: 'session_due_date_reached',
  maxPayments: 'max_payments_reached',
  canceled: 'canceled_by_client',
  chargeVoided: 'charge_voided',
} as const;

/** The main action of an event: the first of its actions, in the order they are listed. */
export const ACTION_PRIORITY = [
  'sessionExpiredByDueDate',
  'sessionExpiredByMaxPayments',
  'paymentSucceeded',
  'paymentPending',
  'paymentExpired',
  'paymentFailed',
  'paymentVoided',
  'sessionCreated',
  'statusChanged',
  'isActiveChanged',
  'dueDateChanged',
  'maxPaymentsChanged',
] as const;

export type HistoryAction = (typeof ACTION_PRIORITY)[number];

export interface HistoryEntry {
  status: HistoryStatus;
  action: HistoryAction | null;
  actions: HistoryAction[];
  diff: Record<string, unknown>;
  /** 1:N payment records are kept once per charge and action. */
  dedupeKey?: string;
}

export function mainAction(actions: HistoryAction[]): HistoryAction | null {
  return ACTION_PRIORITY.find((a) => actions.includes(a)) ?? null;
}

function entry(status: HistoryStatus, actions: HistoryAction[], diff: Record<string, unknown>, dedupeKey?: string): HistoryEntry {
  return { status, action: mainAction(actions), actions, diff, ...(dedupeKey ? { dedupeKey } : {}) };
}

export function createdEntry(session: Session): HistoryEntry {
  return entry('created', ['sessionCreated'], {
    changes: { status: { from: null, to: 'created' }, amount: { from: null, to: session.amount }, isActive: { from: null, to: session.isActive } },
    maxPaymentsContext: { maxPayments: session.maxPayments },
  });
}

const FIELD_ACTIONS: Record<string, HistoryAction> = { isActive: 'isActiveChanged', dueDate: 'dueDateChanged', maxPayments: 'maxPaymentsChanged' };

export function updatedEntry(session: Session, changes: Record<string, { from: unknown; to: unknown }>): HistoryEntry {
  const actions = Object.keys(changes).map((field) => FIELD_ACTIONS[field]!).filter(Boolean);
  return entry(session.status, actions, { changes });
}

/** A manual cancel: the session stays `canceled` in history (never `disabled`), and stops taking payments. */
export function canceledEntry(from: Session): HistoryEntry {
  const actions: HistoryAction[] = ['statusChanged'];
  const changes: Record<string, unknown> = { status: { from: from.status, to: 'canceled' } };
  if (from.isActive) {
    actions.push('isActiveChanged');
    changes.isActive = { from: true, to: false, reason: REASONS.canceled };
  }
  return entry('canceled', actions, { changes, reason: REASONS.canceled });
}

/**
 * What a charge attempt answered. `chargeId` is absent when payments made no charge (the attempt failed before
 * one existed); `declinedCode` is the issuer's reason of a declined card.
 */
export interface ChargeResponse {
  chargeId?: string;
  status: string;
  amount: number;
  paymentType: string;
  declinedCode?: string;
}

function counters(session: Session): Record<string, unknown> {
  return { maxPayments: session.maxPayments, paymentCount: session.paymentCount, pendingCount: session.pendingCount };
}

/**
 * A charge attempt's answer or a later outcome of it. In 1:N the payment records are deduplicated per charge, so a
 * replayed event does not record (or apply) the same effect twice.
 */
export function paymentEntry(
  kind: 'paymentSucceeded' | 'paymentPending' | 'paymentExpired' | 'paymentFailed',
  before: Session,
  after: Session,
  response: ChargeResponse,
): HistoryEntry {
  const actions: HistoryAction[] = [kind];
  const diff: Record<string, unknown> = {
    ...(response.chargeId ? { chargeId: response.chargeId } : {}),
    changes: {
      response: { from: null, to: response },
      ...(before.status !== after.status ? { status: { from: before.status, to: after.status } } : {}),
    },
    maxPaymentsContext: counters(after),
  };
  if (before.status !== after.status) actions.push('statusChanged');
  const oneToMany = after.maxPayments !== null && kind !== 'paymentFailed' && Boolean(response.chargeId);
  return entry(after.status, actions, diff, oneToMany ? `${kind}:${response.chargeId}` : undefined);
}

/**
 * A paid charge of a session voided (a pre-authorization voided, or refunded in full): a paid 1:1 session becomes
 * `voided`. Kept once per charge.
 */
export function paymentVoidedEntry(before: Session, after: Session, response: ChargeResponse): HistoryEntry {
  const actions: HistoryAction[] = ['paymentVoided'];
  const changes: Record<string, unknown> = { response: { from: null, to: response } };
  if (before.status !== after.status) {
    actions.push('statusChanged');
    changes.status = { from: before.status, to: after.status };
  }
  return entry(after.status, actions, { chargeId: response.chargeId, reason: REASONS.chargeVoided, changes }, `paymentVoided:${response.chargeId}`);
}

/**
 * The payment `chargeId` took the last place of a 1:N session: it is disabled. Kept once per charge (a session whose
 * maximum is raised and reactivated can reach its limit again, and that is recorded again).
 */
export function expiredByMaxPaymentsEntry(session: Session, chargeId: string): HistoryEntry {
  return entry('disabled', ['sessionExpiredByMaxPayments', 'isActiveChanged'], {
    chargeId,
    reason: REASONS.maxPayments,
    changes: { isActive: { from: true, to: false, reason: REASONS.maxPayments } },
    maxPaymentsContext: counters(session),
  }, `sessionExpiredByMaxPayments:${chargeId}`);
}

export function expiredByDueDateEntry(session: Session): HistoryEntry {
  return entry('disabled', ['sessionExpiredByDueDate', 'isActiveChanged'], {
    reason: REASONS.dueDate,
    dueDate: session.dueDate?.toISOString() ?? null,
    changes: { isActive: { from: true, to: false, reason: REASONS.dueDate } },
  });
}
