import type { sellers } from '@platform/contracts';
import { requiredTimestamp, textOrNull } from './json';

/** A registration review process: the answer of /v1/sellers/registration-reviews. */
export interface RegistrationReviewJson {
  processId: string;
  sellerId: string | null;
  provider: string;
  providerId: string | null;
  reviewType: string;
  status: string;
  deadlineAt: string;
  expiresAt: string;
  daysRemaining: number;
  requestedFieldsPending: boolean;
  requestedFields?: { raw: string[]; fields: Array<{ [key: string]: unknown }> };
  failureReason: string | null;
  createdAt: string;
  updatedAt: string;
}

export function toRegistrationReviewJson(review: sellers.RegistrationReview): RegistrationReviewJson {
  return {
    processId: review.processId,
    sellerId: textOrNull(review.sellerId),
    provider: review.provider,
    providerId: textOrNull(review.providerId),
    reviewType: review.reviewType,
    status: review.status,
    deadlineAt: requiredTimestamp(review.deadlineAt, 'deadlineAt'),
    expiresAt: requiredTimestamp(review.expiresAt, 'expiresAt'),
    daysRemaining: review.daysRemaining,
    requestedFieldsPending: review.requestedFieldsPending,
    ...(review.requestedFieldsPending ? {} : { requestedFields: { raw: review.raw, fields: review.fields } }),
    failureReason: textOrNull(review.failureReason),
    createdAt: requiredTimestamp(review.createdAt, 'createdAt'),
    updatedAt: requiredTimestamp(review.updatedAt, 'updatedAt'),
  };
}
