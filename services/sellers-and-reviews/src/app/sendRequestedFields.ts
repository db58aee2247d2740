import type { sellers as contracts } from '@platform/contracts';
import { errors, requireClientId, withIdempotency } from '@platform/kit';
import type { Review } from '../domain/review';
import { translateRawFields } from '../domain/vocabulary';
import { REVIEW_EVENTS } from '../events/reviewEvents';
import type { SellerDeps } from './deps';
import { parseRaw, saveReview, loadReviewForUpdate, reviewCodec, REVIEW_OPERATIONS } from './reviewChanges';

/** The provider sends (or replaces) the field list of an open process. */
export async function sendRequestedFields(deps: SellerDeps, request: contracts.SendRequestedFieldsRequest, idempotencyKey?: string): Promise<Review> {
  const clientId = requireClientId(request.clientId);
  const raw = parseRaw(request.raw);
  const idempotency = { clientId, key: idempotencyKey, operation: REVIEW_OPERATIONS.sendFields, request, codec: reviewCodec };
  const updated = await withIdempotency(deps.pool, idempotency, async (tx) => {
    const review = await loadReviewForUpdate(deps, tx, clientId, request.processId);
    if (!['unmatched', 'pending', 'overdue', 'submit_failed'].includes(review.status)) {
      throw errors.businessRule('registration_review_not_open', `a registration review in ${review.status} takes no field list`);
    }
    const next = { ...review, raw, fields: translateRawFields(raw), updatedAt: deps.clock.now() };
    return saveReview(deps, tx, next, REVIEW_EVENTS.fieldsRequested);
  });
  deps.outbox?.kick();
  return updated;
}
