import { RegistrationReviewSchema } from '@platform/api-model';
import { dateTime as instant, queryInt32 } from '../../http/fields';
import { listSchema } from '../../http/pagination';
import { z } from '../../openapi/zod';

export const REVIEW_STATUS_VALUES = ['unmatched', 'pending', 'overdue', 'submitting', 'submit_failed', 'expired', 'finished', 'canceled'] as const;
const REVIEW_TYPE_VALUES = ['acp', 'aci'] as const;

export const ListReviewsQuery = z.object({
  status: z
    .string()
    .optional()
    .transform((v) => (v ? v.split(',').map((s) => s.trim()) : []))
    .pipe(z.array(z.enum(REVIEW_STATUS_VALUES, { error: `must be among ${REVIEW_STATUS_VALUES.join(', ')}` })))
    .openapi({ type: 'string', description: `One or more of ${REVIEW_STATUS_VALUES.join(', ')}, comma-separated` }),
  reviewType: z.enum(REVIEW_TYPE_VALUES, { error: 'must be acp or aci' }).optional(),
  page: queryInt32().min(1, 'must be at least 1').default(1),
  limit: queryInt32().min(1, 'must be at least 1').max(100, 'must be at most 100').default(100),
});

export const ReviewParams = z.object({ processId: z.string().min(1).max(200) });
export const SellerReviewParams = z.object({ id: z.string().min(1).max(200) });

const dateTime = instant();
const raw = z.array(z.string().min(1, 'must not be empty').max(200), { error: 'must be an array of strings' }).max(200, 'must have at most 200 entries');

const opening = {
  reviewType: z.enum(REVIEW_TYPE_VALUES, { error: 'must be acp or aci' }),
  deadlineAt: dateTime.openapi({ description: 'When the seller must answer; a past one opens the process overdue at once' }),
  expiresAt: dateTime.optional().openapi({ description: 'Not before deadlineAt and in the future (seconds ahead shows the expiry soon); deadlineAt + 5 days when absent' }),
  raw: raw.optional().openapi({ description: 'The provider field list; absent: requestedFieldsPending' }),
};

export const OpenSellerReviewBody = z.object(opening).openapi('OpenSellerRegistrationReviewRequest');
export const OpenDocumentReviewBody = z
  .object({ document: z.object({ type: z.string().min(1).max(20), number: z.string().min(1).max(40) }), ...opening })
  .openapi('OpenRegistrationReviewByDocumentRequest');
export const RequestedFieldsBody = z.object({ raw }).openapi('RequestedFieldsRequest');
export const SubmissionBody = z
  .object({ fields: z.record(z.string(), z.union([z.string(), z.number()]), { error: 'must be an object of path: value' }) })
  .openapi('RegistrationReviewSubmission');

/** The review answer is the API model's schema. */
export const ReviewSchema = RegistrationReviewSchema;

export const ReviewListSchema = listSchema(ReviewSchema, 'RegistrationReviewList');
