import type { sellers as contracts } from '@platform/contracts';
import { errors, requireClientId, scheduleJob, withIdempotency } from '@platform/kit';
import { stepReview, validateSubmission, type Review } from '../domain/review';
import { REVIEW_EVENTS } from '../events/reviewEvents';
import type { SellerDeps } from './deps';
import { REVIEW_JOBS, saveReview, loadReviewForUpdate, reviewCodec, REVIEW_OPERATIONS } from './reviewChanges';

/** Validates every requested path, moves the process to `submitting` and asks the provider's answer by a job. */
export async function submitReview(deps: SellerDeps, request: contracts.SubmitRegistrationReviewRequest, idempotencyKey?: string): Promise<Review> {
  const clientId = requireClientId(request.clientId);
  const idempotency = { clientId, key: idempotencyKey, operation: REVIEW_OPERATIONS.submit, request, codec: reviewCodec };
  const submitted = await withIdempotency(deps.pool, idempotency, async (tx) => {
    const review = await loadReviewForUpdate(deps, tx, clientId, request.processId);
    const status = stepReview(review.status, 'submit');
    if (!review.fields) throw errors.businessRule('registration_review_not_open', 'the provider has not sent the field list yet');
    const values = validateSubmission(review.fields, (request.fields ?? {}) as Record<string, unknown>, deps.clock.now());
    const next = { ...review, status, submitted: values, failureReason: '', updatedAt: deps.clock.now() };
    const saved = await saveReview(deps, tx, next, REVIEW_EVENTS.submitted);
    await scheduleJob(tx, { kind: REVIEW_JOBS.answer, runAt: deps.clock.now(), payload: { clientId, processId: review.processId }, maxAttempts: 5 });
    return saved;
  });
  deps.outbox?.kick();
  return submitted;
}
