import { errors, requireClientId } from '@platform/kit';
import type { Review } from '../domain/review';
import type { SellerDeps } from './deps';

export async function getReview(deps: SellerDeps, request: { clientId: string; processId: string }): Promise<Review> {
  const clientId = requireClientId(request.clientId);
  const review = await deps.reviews.findById(deps.pool, clientId, request.processId);
  if (!review) throw errors.notFound('registration review', request.processId);
  return review;
}
