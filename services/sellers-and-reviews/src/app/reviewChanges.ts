import { errors, jsonCodec, scheduleJob, type Queryable } from '@platform/kit';
import type { Review } from '../domain/review';
import { recordReviewEvent, type ReviewEventType } from '../events/reviewEvents';
import type { SellerDeps } from './deps';

export const REVIEW_JOBS = {
  overdue: 'sellers.registration_review.overdue',
  expire: 'sellers.registration_review.expire',
  answer: 'sellers.registration_review.answer',
} as const;

const MAX_RAW_FIELDS = 200;

export function parseRaw(raw: readonly string[]): string[] {
  if (raw.length > MAX_RAW_FIELDS) throw errors.validation(`raw has more than ${MAX_RAW_FIELDS} fields`, [{ field: 'raw', message: `must have at most ${MAX_RAW_FIELDS} entries` }]);
  const bad = raw.findIndex((r) => typeof r !== 'string' || r.trim() === '' || r.length > 200);
  if (bad >= 0) throw errors.validation('raw entries must be non-empty paths', [{ field: `raw.${bad}`, message: 'must be a non-empty path of at most 200 characters' }]);
  return raw.map((r) => r.trim());
}

export async function saveReview(deps: SellerDeps, tx: Queryable, review: Review, event: ReviewEventType | null, isNew = false): Promise<Review> {
  const saved = isNew ? await deps.reviews.insert(tx, review) : await deps.reviews.update(tx, review);
  if (event) await recordReviewEvent(tx, event, saved, deps.clock);
  return saved;
}

export async function loadReviewForUpdate(deps: SellerDeps, tx: Queryable, clientId: string, processId: string): Promise<Review> {
  const review = await deps.reviews.findById(tx, clientId, processId, { forUpdate: true });
  if (!review) throw errors.notFound('registration review', processId);
  return review;
}

export async function scheduleDeadlines(tx: Queryable, review: Review): Promise<void> {
  const payload = { clientId: review.clientId, processId: review.processId };
  await scheduleJob(tx, { kind: REVIEW_JOBS.overdue, runAt: review.deadlineAt, payload, dedupeKey: review.processId });
  await scheduleJob(tx, { kind: REVIEW_JOBS.expire, runAt: review.expiresAt, payload, dedupeKey: review.processId });
}

export const reviewCodec = jsonCodec<Review>();

export const REVIEW_OPERATIONS = { open: 'reviews.open', sendFields: 'reviews.send_fields', submit: 'reviews.submit' } as const;
