import type { sellers } from '@platform/contracts';
import { z } from '../zod';
import { requiredTimestamp, textOrNull } from './json';

/** A registration review process: the answer of /v1/sellers/registration-reviews. */
export const RegistrationReviewSchema = z
  .object({
    processId: z.string(),
    sellerId: z.string().nullable(),
    provider: z.string(),
    providerId: z.string().nullable(),
    reviewType: z.string(),
    status: z.string(),
    deadlineAt: z.string().openapi({ format: 'date-time' }),
    expiresAt: z.string().openapi({ format: 'date-time' }),
    daysRemaining: z.int(),
    requestedFieldsPending: z.boolean(),
    requestedFields: z
      .object({
        raw: z.array(z.string()),
        fields: z.array(z.record(z.string(), z.unknown())).openapi({
          description:
            'Each requested field: path, type (string, enum, date, number), required, label and format ({pt-br, en}), providerField, pattern, allowedValues, note, unmapped',
        }),
      })
      .optional(),
    failureReason: z.string().nullable(),
    createdAt: z.string().openapi({ format: 'date-time' }),
    updatedAt: z.string().openapi({ format: 'date-time' }),
  })
  .openapi('RegistrationReview');

export type RegistrationReviewJson = z.infer<typeof RegistrationReviewSchema>;

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
