import type { sellers as contracts } from '@platform/contracts';
import { errors, pageMeta, requireClientId, toPage, type PageMeta } from '@platform/kit';
import { REVIEW_STATUSES, REVIEW_TYPES, type Review, type ReviewStatus, type ReviewType } from '../domain/review';
import type { SellerDeps } from './deps';

export async function listReviews(deps: SellerDeps, request: contracts.ListRegistrationReviewsRequest): Promise<{ items: Review[]; meta: PageMeta }> {
  const clientId = requireClientId(request.clientId);
  const statuses = request.statuses.filter((s) => s !== '');
  const bad = statuses.find((s) => !(REVIEW_STATUSES as readonly string[]).includes(s));
  if (bad !== undefined) throw errors.validation(`status ${bad} is unknown`, [{ field: 'status', message: `must be among ${REVIEW_STATUSES.join(', ')}` }]);
  if (request.reviewType !== undefined && !(REVIEW_TYPES as readonly string[]).includes(request.reviewType)) {
    throw errors.validation('reviewType must be acp or aci', [{ field: 'reviewType', message: 'must be acp or aci' }]);
  }
  if (request.sellerId !== undefined && !(await deps.store.findById(deps.pool, clientId, request.sellerId))) throw errors.notFound('seller', request.sellerId);
  const page = toPage(request.page, 100);
  const { items, totalItems } = await deps.reviews.list(
    deps.pool,
    clientId,
    { sellerId: request.sellerId, statuses: statuses as ReviewStatus[], reviewType: request.reviewType as ReviewType | undefined },
    page,
  );
  return { items, meta: pageMeta(page, items.length, totalItems) };
}
