import { requireClientId, withTransaction } from '@platform/kit';
import { stepReview, type Review } from '../domain/review';
import { REVIEW_EVENTS } from '../events/reviewEvents';
import type { SellerDeps } from './deps';
import { saveReview, loadReviewForUpdate } from './reviewChanges';

export async function cancelReview(deps: SellerDeps, request: { clientId: string; processId: string }): Promise<Review> {
  const clientId = requireClientId(request.clientId);
  const canceled = await withTransaction(deps.pool, async (tx) => {
    const review = await loadReviewForUpdate(deps, tx, clientId, request.processId);
    const next = { ...review, status: stepReview(review.status, 'cancel'), updatedAt: deps.clock.now() };
    return saveReview(deps, tx, next, REVIEW_EVENTS.canceled);
  });
  deps.outbox?.kick();
  return canceled;
}
