import { enqueueEvent, type Clock, type Queryable } from '@platform/kit';
import type { Review } from '../domain/review';
import { toReviewJson } from '../wire/reviewMessages';

/** Events of registration reviews (subject `sellers.registration_review.<what happened>`); listed in docs/events.md. */
export const REVIEW_EVENTS = {
  opened: 'sellers.registration_review.opened',
  fieldsRequested: 'sellers.registration_review.fields_requested',
  overdue: 'sellers.registration_review.overdue',
  submitted: 'sellers.registration_review.submitted',
  finished: 'sellers.registration_review.finished',
  submitFailed: 'sellers.registration_review.submit_failed',
  expired: 'sellers.registration_review.expired',
  canceled: 'sellers.registration_review.canceled',
} as const;

export type ReviewEventType = (typeof REVIEW_EVENTS)[keyof typeof REVIEW_EVENTS];

export async function recordReviewEvent(tx: Queryable, type: ReviewEventType, review: Review, clock: Clock): Promise<void> {
  const now = clock.now();
  await enqueueEvent(tx, { type, clientId: review.clientId, data: toReviewJson(review, now), occurredAt: now });
}
