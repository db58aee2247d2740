import { DATE_MESSAGE, DATE_RANGE_MESSAGE, DATE_TIME_RANGE_MESSAGE, isCalendarDate, isDateInRange, isInstantInRange } from '@platform/api-model';
import { errors, type FieldViolation } from '@platform/kit';
import { birthdateProblem } from './seller';
import type { RequestedField } from './vocabulary';

export const REVIEW_STATUSES = ['unmatched', 'pending', 'overdue', 'submitting', 'submit_failed', 'expired', 'finished', 'canceled'] as const;
export type ReviewStatus = (typeof REVIEW_STATUSES)[number];
export const REVIEW_TYPES = ['acp', 'aci'] as const;
export type ReviewType = (typeof REVIEW_TYPES)[number];

/** What moves a review process. */
export type ReviewStep = 'match' | 'overdue' | 'submit' | 'finish' | 'fail' | 'expire' | 'cancel';

/** The review status machine: the status each step leads to from each status; a missing pair is an illegal step. */
export const REVIEW_TRANSITIONS: Readonly<Record<ReviewStatus, Partial<Record<ReviewStep, ReviewStatus>>>> = {
  unmatched: { match: 'pending', expire: 'expired', cancel: 'canceled' },
  pending: { overdue: 'overdue', submit: 'submitting', expire: 'expired', cancel: 'canceled' },
  overdue: { submit: 'submitting', expire: 'expired', cancel: 'canceled' },
  submitting: { finish: 'finished', fail: 'submit_failed', cancel: 'canceled' },
  submit_failed: { submit: 'submitting', expire: 'expired', cancel: 'canceled' },
  expired: {},
  finished: {},
  canceled: {},
};

/** The status after a step; 422 with the step's businessCode when the table has no such step. */
export function stepReview(status: ReviewStatus, step: ReviewStep): ReviewStatus {
  const next = REVIEW_TRANSITIONS[status][step];
  if (!next) {
    const code = step === 'submit' ? 'registration_review_not_open' : `registration_review_cannot_${step}`;
    throw errors.businessRule(code, `a registration review in ${status} cannot ${step}`);
  }
  return next;
}

export function canStep(status: ReviewStatus, step: ReviewStep): boolean {
  return REVIEW_TRANSITIONS[status][step] !== undefined;
}

export interface Review {
  processId: string;
  clientId: string;
  sellerId: string | null;
  /** Digits of the document the provider opened the process for. */
  document: string;
  provider: string;
  providerId: string | null;
  reviewType: ReviewType;
  status: ReviewStatus;
  deadlineAt: Date;
  expiresAt: Date;
  raw: string[] | null;
  fields: RequestedField[] | null;
  submitted: Record<string, unknown> | null;
  failureReason: string;
  createdAt: Date;
  updatedAt: Date;
}

const DAY_MS = 24 * 3600_000;

/** Whole days from now to the deadline: full days left before it, minus the days (begun) after it. */
export function daysRemaining(deadlineAt: Date, now: Date): number {
  const diff = deadlineAt.getTime() - now.getTime();
  return diff >= 0 ? Math.floor(diff / DAY_MS) : -Math.ceil(-diff / DAY_MS);
}

/** The default expiry: five days after the deadline. */
export function defaultExpiry(deadlineAt: Date): Date {
  return new Date(deadlineAt.getTime() + 5 * DAY_MS);
}

/**
 * The instants a provider opens a process with, against the service's clock: both within the range the gateway takes,
 * the expiry (when given) not before the deadline, and the expiry (given, or the default after the deadline) ahead of
 * now. The deadline itself may be past: the process then opens `overdue`, as a provider opens one it is late with
 * (and as the sandbox shows `overdue`, then `expired`, without waiting days). One detail per bad field.
 */
export function openingDatesProblems(deadlineAt: Date, expiresAt: Date | undefined, now: Date): FieldViolation[] {
  const problems: FieldViolation[] = [];
  if (!isInstantInRange(deadlineAt)) {
    problems.push({ field: 'deadlineAt', message: DATE_TIME_RANGE_MESSAGE });
    if (expiresAt !== undefined && !isInstantInRange(expiresAt)) problems.push({ field: 'expiresAt', message: DATE_TIME_RANGE_MESSAGE });
    return problems;
  }
  if (expiresAt === undefined) {
    if (defaultExpiry(deadlineAt).getTime() <= now.getTime()) {
      problems.push({ field: 'deadlineAt', message: 'must be less than 5 days ago when expiresAt is not given (the process would open expired)' });
    }
    return problems;
  }
  if (!isInstantInRange(expiresAt)) problems.push({ field: 'expiresAt', message: DATE_TIME_RANGE_MESSAGE });
  else if (expiresAt.getTime() < deadlineAt.getTime()) problems.push({ field: 'expiresAt', message: 'must not be before deadlineAt' });
  else if (expiresAt.getTime() <= now.getTime()) problems.push({ field: 'expiresAt', message: 'must be in the future (a process opens overdue at most, never expired)' });
  return problems;
}

/** The status a process opens in: `unmatched` without a seller, `overdue` when its deadline is already past. */
export function openingStatus(hasSeller: boolean, deadlineAt: Date, now: Date): ReviewStatus {
  if (!hasSeller) return 'unmatched';
  return deadlineAt.getTime() <= now.getTime() ? 'overdue' : 'pending';
}

/** What is wrong with the value of a `date` field that matched its pattern: no calendar date, or out of range. */
function dateValueProblem(path: string, value: string, now: Date): string | undefined {
  if (!isCalendarDate(value)) return DATE_MESSAGE;
  if (path === 'owner.birthdate') return birthdateProblem(value, now);
  return isDateInRange(value) ? undefined : DATE_RANGE_MESSAGE;
}

/**
 * Every requested path present and matching its pattern, and a `date` field a real date in range (a birthdate in
 * the past by `now`, the service's clock), as the seller would be validated with it; one detail per bad field.
 */
export function validateSubmission(fields: readonly RequestedField[], values: Record<string, unknown>, now: Date): Record<string, unknown> {
  const details: FieldViolation[] = [];
  const accepted: Record<string, unknown> = {};
  for (const field of fields) {
    const value = values[field.path];
    if (value === undefined || value === null || value === '') {
      details.push({ field: field.path, message: 'is required' });
      continue;
    }
    if (typeof value !== 'string' && typeof value !== 'number') {
      details.push({ field: field.path, message: 'must be a string or a number' });
      continue;
    }
    if (field.pattern && !new RegExp(field.pattern).test(String(value))) {
      const format = field.format ? ` (${field.format.en})` : '';
      details.push({ field: field.path, message: `does not match ${field.pattern}${format}` });
      continue;
    }
    const dateProblem = field.type === 'date' ? dateValueProblem(field.path, String(value), now) : undefined;
    if (dateProblem) {
      details.push({ field: field.path, message: dateProblem });
      continue;
    }
    accepted[field.path] = field.type === 'number' ? Number(value) : value;
  }
  if (details.length > 0) throw errors.validation(`invalid submission: ${details.map((d) => d.field).join(', ')}`, details);
  return accepted;
}
