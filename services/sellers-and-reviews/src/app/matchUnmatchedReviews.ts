import { stepReview } from '../domain/review';
import { sellerDocuments } from '../domain/seller';
import type { SellerDeps } from './deps';
import type { SellerCreatedHook } from './sellerChanges';

/** A new seller takes the client's unmatched processes for its documents: they become pending. */
export function matchUnmatchedReviews(deps: SellerDeps): SellerCreatedHook {
  return async (tx, seller, now) => {
    for (const review of await deps.reviews.unmatchedFor(tx, seller.clientId, sellerDocuments(seller))) {
      const link = seller.providers[0];
      await deps.reviews.update(tx, {
        ...review,
        sellerId: seller.id,
        provider: link?.providerType ?? review.provider,
        providerId: link?.providerId ?? null,
        status: stepReview(review.status, 'match'),
        updatedAt: now,
      });
    }
  };
}
