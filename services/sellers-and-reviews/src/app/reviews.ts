import { randomUUID } from 'node:crypto';
import type { sellers as contracts } from '@platform/contracts';
import { errors, jsonCodec, pageMeta, requireClientId, scheduleJob, toPage, withIdempotency, withTransaction, type JobHandler, type PageMeta, type Queryable } from '@platform/kit';
import { onlyDigits } from '../domain/documents';
import { canStep, defaultExpiry, openingDatesProblems, REVIEW_STATUSES, REVIEW_TYPES, stepReview, validateSubmission, type Review, type ReviewStatus, type ReviewType } from '../domain/review';
import { nextSellerStatus, sellerDocuments, type JsonObject, type Seller } from '../domain/seller';
import { translateRawFields } from '../domain/vocabulary';
import { recordReviewEvent, REVIEW_EVENTS, type ReviewEventType } from '../events/reviewEvents';
import type { SellerDeps } from './deps';
import { applySellerChange, withChanges, type SellerCreatedHook } from './sellers';

export const REVIEW_JOBS = {
  overdue: 'sellers.registration_review.overdue',
  expire: 'sellers.registration_review.expire',
  answer: 'sellers.registration_review.answer',
} as const;

const MAX_RAW_FIELDS = 200;

function parseRaw(raw: readonly string[]): string[] {
  if (raw.length > MAX_RAW_FIELDS) throw errors.validation(`raw has more than ${MAX_RAW_FIELDS} fields`, [{ field: 'raw', message: `must have at most ${MAX_RAW_FIELDS} entries` }]);
  const bad = raw.findIndex((r) => typeof r !== 'string' || r.trim() === '' || r.length > 200);
  if (bad >= 0) throw errors.validation('raw entries must be non-empty paths', [{ field: `raw.${bad}`, message: 'must be a non-empty path of at most 200 characters' }]);
  return raw.map((r) => r.trim());
}

async function store(deps: SellerDeps, tx: Queryable, review: Review, event: ReviewEventType | null, isNew = false): Promise<Review> {
  const saved = isNew ? await deps.reviews.insert(tx, review) : await deps.reviews.update(tx, review);
  if (event) await recordReviewEvent(tx, event, saved, deps.clock);
  return saved;
}

async function loadForUpdate(deps: SellerDeps, tx: Queryable, clientId: string, processId: string): Promise<Review> {
  const review = await deps.reviews.findById(tx, clientId, processId, { forUpdate: true });
  if (!review) throw errors.notFound('registration review', processId);
  return review;
}

async function scheduleDeadlines(tx: Queryable, review: Review): Promise<void> {
  const payload = { clientId: review.clientId, processId: review.processId };
  await scheduleJob(tx, { kind: REVIEW_JOBS.overdue, runAt: review.deadlineAt, payload, dedupeKey: review.processId });
  await scheduleJob(tx, { kind: REVIEW_JOBS.expire, runAt: review.expiresAt, payload, dedupeKey: review.processId });
}

const reviewCodec = jsonCodec<Review>();

export const REVIEW_OPERATIONS = { open: 'reviews.open', sendFields: 'reviews.send_fields', submit: 'reviews.submit' } as const;

/** The provider opens a process, for a seller or for a document (unmatched when no seller of the client has it). */
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
      status: seller ? 'pending' : 'unmatched',
      deadlineAt,
      expiresAt,
      raw,
      fields: raw ? translateRawFields(raw) : null,
      submitted: null,
      failureReason: '',
      createdAt: now,
      updatedAt: now,
    };
    const saved = await store(deps, tx, review, REVIEW_EVENTS.opened, true);
    if (raw) await recordReviewEvent(tx, REVIEW_EVENTS.fieldsRequested, saved, deps.clock);
    await scheduleDeadlines(tx, saved);
    return saved;
  });
  deps.outbox?.kick();
  return opened;
}

/** The provider sends (or replaces) the field list of an open process. */
export async function sendRequestedFields(deps: SellerDeps, request: contracts.SendRequestedFieldsRequest, idempotencyKey?: string): Promise<Review> {
  const clientId = requireClientId(request.clientId);
  const raw = parseRaw(request.raw);
  const idempotency = { clientId, key: idempotencyKey, operation: REVIEW_OPERATIONS.sendFields, request, codec: reviewCodec };
  const updated = await withIdempotency(deps.pool, idempotency, async (tx) => {
    const review = await loadForUpdate(deps, tx, clientId, request.processId);
    if (!['unmatched', 'pending', 'overdue', 'submit_failed'].includes(review.status)) {
      throw errors.businessRule('registration_review_not_open', `a registration review in ${review.status} takes no field list`);
    }
    const next = { ...review, raw, fields: translateRawFields(raw), updatedAt: deps.clock.now() };
    return store(deps, tx, next, REVIEW_EVENTS.fieldsRequested);
  });
  deps.outbox?.kick();
  return updated;
}

export async function cancelReview(deps: SellerDeps, request: { clientId: string; processId: string }): Promise<Review> {
  const clientId = requireClientId(request.clientId);
  const canceled = await withTransaction(deps.pool, async (tx) => {
    const review = await loadForUpdate(deps, tx, clientId, request.processId);
    const next = { ...review, status: stepReview(review.status, 'cancel'), updatedAt: deps.clock.now() };
    return store(deps, tx, next, REVIEW_EVENTS.canceled);
  });
  deps.outbox?.kick();
  return canceled;
}

export async function getReview(deps: SellerDeps, request: { clientId: string; processId: string }): Promise<Review> {
  const clientId = requireClientId(request.clientId);
  const review = await deps.reviews.findById(deps.pool, clientId, request.processId);
  if (!review) throw errors.notFound('registration review', request.processId);
  return review;
}

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

/** Validates every requested path, moves the process to `submitting` and asks the provider's answer by a job. */
export async function submitReview(deps: SellerDeps, request: contracts.SubmitRegistrationReviewRequest, idempotencyKey?: string): Promise<Review> {
  const clientId = requireClientId(request.clientId);
  const idempotency = { clientId, key: idempotencyKey, operation: REVIEW_OPERATIONS.submit, request, codec: reviewCodec };
  const submitted = await withIdempotency(deps.pool, idempotency, async (tx) => {
    const review = await loadForUpdate(deps, tx, clientId, request.processId);
    const status = stepReview(review.status, 'submit');
    if (!review.fields) throw errors.businessRule('registration_review_not_open', 'the provider has not sent the field list yet');
    const values = validateSubmission(review.fields, (request.fields ?? {}) as Record<string, unknown>, deps.clock.now());
    const next = { ...review, status, submitted: values, failureReason: '', updatedAt: deps.clock.now() };
    const saved = await store(deps, tx, next, REVIEW_EVENTS.submitted);
    await scheduleJob(tx, { kind: REVIEW_JOBS.answer, runAt: deps.clock.now(), payload: { clientId, processId: review.processId }, maxAttempts: 5 });
    return saved;
  });
  deps.outbox?.kick();
  return submitted;
}

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
        await store(deps, tx, { ...review, status: stepReview(review.status, 'overdue'), updatedAt: deps.clock.now() }, REVIEW_EVENTS.overdue);
      });
      deps.outbox?.kick();
    },
    [REVIEW_JOBS.expire]: async (job) => {
      const { clientId, processId } = payloadOf(job);
      await withTransaction(deps.pool, async (tx) => {
        const review = await deps.reviews.findById(tx, clientId, processId, { forUpdate: true });
        if (!review || !canStep(review.status, 'expire')) return;
        const expired = await store(deps, tx, { ...review, status: stepReview(review.status, 'expire'), updatedAt: deps.clock.now() }, REVIEW_EVENTS.expired);
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
          await store(deps, tx, { ...review, status: stepReview(review.status, 'fail'), failureReason: answer.reason, updatedAt: now }, REVIEW_EVENTS.submitFailed);
          return;
        }
        const finished = await store(deps, tx, { ...review, status: stepReview(review.status, 'finish'), updatedAt: now }, REVIEW_EVENTS.finished);
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
