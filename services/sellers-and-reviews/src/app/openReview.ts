import { randomUUID } from 'node:crypto';
import type { sellers as contracts } from '@platform/contracts';
import { errors, requireClientId, withIdempotency } from '@platform/kit';
import { onlyDigits } from '../domain/documents';
import { defaultExpiry, openingDatesProblems, openingStatus, REVIEW_TYPES, type Review, type ReviewType } from '../domain/review';
import { sellerDocuments, type Seller } from '../domain/seller';
import { translateRawFields } from '../domain/vocabulary';
import { recordReviewEvent, REVIEW_EVENTS } from '../events/reviewEvents';
import type { SellerDeps } from './deps';
import { parseRaw, saveReview, scheduleDeadlines, reviewCodec, REVIEW_OPERATIONS } from './reviewChanges';

/**
 * The provider opens a process, for a seller or for a document (unmatched when no seller of the client has it). A
 * process opened past its deadline is `overdue` at once (its `overdue` event follows `opened`); its expiry is still
 * the durable job's, at `expiresAt`.
 */
export async function openReview(deps: SellerDeps, request: contracts.OpenRegistrationReviewRequest, idempotencyKey?: string): Promise<Review> {
  const clientId = requireClientId(request.clientId);
  if (!(REVIEW_TYPES as readonly string[]).includes(request.reviewType)) {
    throw errors.validation('reviewType must be acp or aci', [{ field: 'reviewType', message: 'must be acp or aci' }]);
  }
  const deadlineAt = request.deadlineAt;
  if (!deadlineAt) throw errors.validation('deadlineAt is required', [{ field: 'deadlineAt', message: 'is required' }]);
  const problems = openingDatesProblems(deadlineAt, request.expiresAt, deps.clock.now());
  if (problems.length > 0) throw errors.validation(`invalid opening: ${problems.map((p) => `${p.field} ${p.message}`).join('; ')}`, problems);
  const expiresAt = request.expiresAt ?? defaultExpiry(deadlineAt);
  const raw = request.rawGiven ? parseRaw(request.raw) : null;
  const idempotency = { clientId, key: idempotencyKey, operation: REVIEW_OPERATIONS.open, request, codec: reviewCodec };
  const opened = await withIdempotency(deps.pool, idempotency, async (tx) => {
    let seller: Seller | null = null;
    let document = onlyDigits(request.documentNumber);
    if (request.sellerId !== undefined) {
      seller = await deps.store.findById(tx, clientId, request.sellerId);
      if (!seller) throw errors.notFound('seller', request.sellerId);
      document = sellerDocuments(seller)[0] ?? '';
    } else {
      if (!document) throw errors.validation('document.number is required', [{ field: 'document.number', message: 'is required' }]);
      seller = (await deps.store.findByDocument(tx, clientId, document))[0] ?? null;
    }
    const link = seller?.providers[0];
    const now = deps.clock.now();
    const review: Review = {
      processId: randomUUID(),
      clientId,
      sellerId: seller?.id ?? null,
      document,
      provider: link?.providerType ?? 'SANDBOX',
      providerId: link?.providerId ?? null,
      reviewType: request.reviewType as ReviewType,
      status: openingStatus(seller !== null, deadlineAt, now),
      deadlineAt,
      expiresAt,
      raw,
      fields: raw ? translateRawFields(raw) : null,
      submitted: null,
      failureReason: '',
      createdAt: now,
      updatedAt: now,
    };
    const saved = await saveReview(deps, tx, review, REVIEW_EVENTS.opened, true);
    if (raw) await recordReviewEvent(tx, REVIEW_EVENTS.fieldsRequested, saved, deps.clock);
    if (saved.status === 'overdue') await recordReviewEvent(tx, REVIEW_EVENTS.overdue, saved, deps.clock);
    await scheduleDeadlines(tx, saved);
    return saved;
  });
  deps.outbox?.kick();
  return opened;
}
