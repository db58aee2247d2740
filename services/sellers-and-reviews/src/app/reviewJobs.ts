import { withTransaction, type JobHandler } from '@platform/kit';
import { canStep, stepReview, type Review } from '../domain/review';
import { nextSellerStatus, type JsonObject, type Seller } from '../domain/seller';
import { REVIEW_EVENTS } from '../events/reviewEvents';
import type { SellerDeps } from './deps';
import { REVIEW_JOBS, saveReview } from './reviewChanges';
import { withChanges, applySellerChange } from './sellerChanges';

/** The submitted values by service path as a seller PATCH (unmapped provider paths are not seller fields). */
export function changesOf(review: Review): JsonObject {
  const changes: JsonObject = {};
  for (const field of review.fields ?? []) {
    if (field.unmapped || review.submitted?.[field.path] === undefined) continue;
    const parts = field.path.split('.');
    let node = changes;
    for (const part of parts.slice(0, -1)) node = (node[part] ??= {}) as JsonObject;
    node[parts[parts.length - 1]!] = review.submitted[field.path];
  }
  return changes;
}

function payloadOf(job: { payload: Record<string, unknown> }): { clientId: string; processId: string } {
  return { clientId: String(job.payload.clientId), processId: String(job.payload.processId) };
}

/** Moves the seller's link(s) at the review's provider and the seller's status accordingly. */
function withLinks(seller: Seller, review: Review, status: 'blocked' | 'active', now: Date): Seller {
  const providers = seller.providers.map((l) =>
    (review.providerId === null || l.providerId === review.providerId) && l.status !== 'inactive' ? { ...l, status, updatedAt: now } : l,
  );
  return { ...seller, providers, status: nextSellerStatus(seller.status, providers) };
}

export function reviewJobs(deps: SellerDeps): Record<string, JobHandler> {
  return {
    [REVIEW_JOBS.overdue]: async (job) => {
      const { clientId, processId } = payloadOf(job);
      await withTransaction(deps.pool, async (tx) => {
        const review = await deps.reviews.findById(tx, clientId, processId, { forUpdate: true });
        if (!review || !canStep(review.status, 'overdue')) return;
        await saveReview(deps, tx, { ...review, status: stepReview(review.status, 'overdue'), updatedAt: deps.clock.now() }, REVIEW_EVENTS.overdue);
      });
      deps.outbox?.kick();
    },
    [REVIEW_JOBS.expire]: async (job) => {
      const { clientId, processId } = payloadOf(job);
      await withTransaction(deps.pool, async (tx) => {
        const review = await deps.reviews.findById(tx, clientId, processId, { forUpdate: true });
        if (!review || !canStep(review.status, 'expire')) return;
        const expired = await saveReview(deps, tx, { ...review, status: stepReview(review.status, 'expire'), updatedAt: deps.clock.now() }, REVIEW_EVENTS.expired);
        if (expired.sellerId) {
          await applySellerChange(deps, clientId, expired.sellerId, (seller, now) => (seller.status === 'inactive' ? seller : withLinks(seller, expired, 'blocked', now)), tx);
        }
      });
      deps.outbox?.kick();
    },
    [REVIEW_JOBS.answer]: async (job) => {
      const { clientId, processId } = payloadOf(job);
      const current = await deps.reviews.findById(deps.pool, clientId, processId);
      if (!current || current.status !== 'submitting') return;
      const adapter = deps.adapters[current.provider];
      const answer = adapter ? await adapter.submitReview(processId, current.submitted ?? {}) : { accepted: false, reason: `no adapter for ${current.provider}` };
      await withTransaction(deps.pool, async (tx) => {
        const review = await deps.reviews.findById(tx, clientId, processId, { forUpdate: true });
        if (!review || review.status !== 'submitting') return;
        const now = deps.clock.now();
        if (!answer.accepted) {
          await saveReview(deps, tx, { ...review, status: stepReview(review.status, 'fail'), failureReason: answer.reason, updatedAt: now }, REVIEW_EVENTS.submitFailed);
          return;
        }
        const finished = await saveReview(deps, tx, { ...review, status: stepReview(review.status, 'finish'), updatedAt: now }, REVIEW_EVENTS.finished);
        if (!finished.sellerId) return;
        const stillExpired = await deps.reviews.hasExpired(tx, clientId, finished.sellerId);
        await applySellerChange(
          deps,
          clientId,
          finished.sellerId,
          (seller, at) => {
            const changed = withChanges(seller, changesOf(finished), at);
            return seller.status === 'blocked' && !stillExpired ? withLinks(changed, { ...finished, providerId: null }, 'active', at) : changed;
          },
          tx,
        );
      });
      deps.outbox?.kick();
    },
  };
}
