import type { sellers } from '@platform/contracts';
import { daysRemaining, type Review } from '../domain/review';

/** The review as the API shows it; `daysRemaining` computed at `now`. */
export function toReviewMessage(review: Review, now: Date): sellers.RegistrationReview {
  return {
    processId: review.processId,
    clientId: review.clientId,
    sellerId: review.sellerId ?? '',
    provider: review.provider,
    providerId: review.providerId ?? '',
    reviewType: review.reviewType,
    status: review.status,
    deadlineAt: review.deadlineAt,
    expiresAt: review.expiresAt,
    daysRemaining: daysRemaining(review.deadlineAt, now),
    requestedFieldsPending: review.raw === null,
    raw: review.raw ?? [],
    fields: (review.fields ?? []).map((f) => ({ ...f })),
    failureReason: review.failureReason,
    createdAt: review.createdAt,
    updatedAt: review.updatedAt,
  };
}

/** The event data of a review (the public shape). */
export function toReviewJson(review: Review, now: Date): Record<string, unknown> {
  return {
    processId: review.processId,
    sellerId: review.sellerId,
    provider: review.provider,
    providerId: review.providerId,
    reviewType: review.reviewType,
    status: review.status,
    deadlineAt: review.deadlineAt.toISOString(),
    expiresAt: review.expiresAt.toISOString(),
    daysRemaining: daysRemaining(review.deadlineAt, now),
    requestedFieldsPending: review.raw === null,
    ...(review.raw ? { requestedFields: { raw: review.raw, fields: review.fields ?? [] } } : {}),
    createdAt: review.createdAt.toISOString(),
  };
}
