import { isUuid, type Page, type Queryable } from '@platform/kit';
import type { Review, ReviewStatus, ReviewType } from '../domain/review';
import type { RequestedField } from '../domain/vocabulary';

interface ReviewRow {
  process_id: string;
  client_id: string;
  seller_id: string | null;
  document: string;
  provider: string;
  provider_id: string | null;
  review_type: ReviewType;
  status: ReviewStatus;
  deadline_at: Date;
  expires_at: Date;
  raw: string[] | null;
  fields: RequestedField[] | null;
  submitted: Record<string, unknown> | null;
  failure_reason: string;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS =
  'process_id, client_id, seller_id, document, provider, provider_id, review_type, status, deadline_at, expires_at, raw, fields, submitted, failure_reason, created_at, updated_at';

function toReview(r: ReviewRow): Review {
  return {
    processId: r.process_id,
    clientId: r.client_id,
    sellerId: r.seller_id,
    document: r.document,
    provider: r.provider,
    providerId: r.provider_id,
    reviewType: r.review_type,
    status: r.status,
    deadlineAt: r.deadline_at,
    expiresAt: r.expires_at,
    raw: r.raw,
    fields: r.fields,
    submitted: r.submitted,
    failureReason: r.failure_reason,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

function params(v: Review): unknown[] {
  return [
    v.processId,
    v.clientId,
    v.sellerId,
    v.document,
    v.provider,
    v.providerId,
    v.reviewType,
    v.status,
    v.deadlineAt,
    v.expiresAt,
    v.raw ? JSON.stringify(v.raw) : null,
    v.fields ? JSON.stringify(v.fields) : null,
    v.submitted ? JSON.stringify(v.submitted) : null,
    v.failureReason,
    v.createdAt,
    v.updatedAt,
  ];
}

export interface ReviewFilters {
  sellerId?: string;
  statuses: ReviewStatus[];
  reviewType?: ReviewType;
}

/** SQL for registration reviews. Every query is scoped by client id. */
export interface ReviewStore {
  insert(db: Queryable, review: Review): Promise<Review>;
  update(db: Queryable, review: Review): Promise<Review>;
  findById(db: Queryable, clientId: string, processId: string, options?: { forUpdate?: boolean }): Promise<Review | null>;
  list(db: Queryable, clientId: string, filters: ReviewFilters, page: Page): Promise<{ items: Review[]; totalItems: number }>;
  /** The client's unmatched processes for any of these document numbers, locked. */
  unmatchedFor(db: Queryable, clientId: string, documents: string[]): Promise<Review[]>;
  /** Whether another process of the seller is expired (then the seller stays blocked). */
  hasExpired(db: Queryable, clientId: string, sellerId: string): Promise<boolean>;
}

export function createReviewStore(): ReviewStore {
  return {
    async insert(db, review) {
      const { rows } = await db.query<ReviewRow>(
        `INSERT INTO registration_reviews (${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16) RETURNING ${COLUMNS}`,
        params(review),
      );
      return toReview(rows[0]!);
    },
    async update(db, review) {
      const { rows } = await db.query<ReviewRow>(
        `UPDATE registration_reviews SET seller_id = $3, document = $4, provider = $5, provider_id = $6, review_type = $7, status = $8,
           deadline_at = $9, expires_at = $10, raw = $11, fields = $12, submitted = $13, failure_reason = $14, created_at = $15, updated_at = $16
         WHERE process_id = $1 AND client_id = $2 RETURNING ${COLUMNS}`,
        params(review),
      );
      return toReview(rows[0]!);
    },
    async findById(db, clientId, processId, options = {}) {
      if (!isUuid(processId)) return null;
      const { rows } = await db.query<ReviewRow>(
        `SELECT ${COLUMNS} FROM registration_reviews WHERE client_id = $1 AND process_id = $2${options.forUpdate ? ' FOR UPDATE' : ''}`,
        [clientId, processId],
      );
      return rows[0] ? toReview(rows[0]) : null;
    },
    async list(db, clientId, filters, page) {
      const where = ['client_id = $1'];
      const values: unknown[] = [clientId];
      if (filters.sellerId !== undefined) {
        if (!isUuid(filters.sellerId)) return { items: [], totalItems: 0 };
        values.push(filters.sellerId);
        where.push(`seller_id = $${values.length}`);
      }
      if (filters.statuses.length > 0) {
        values.push(filters.statuses);
        where.push(`status = ANY($${values.length})`);
      }
      if (filters.reviewType !== undefined) {
        values.push(filters.reviewType);
        where.push(`review_type = $${values.length}`);
      }
      const count = await db.query<{ n: string }>(`SELECT count(*) AS n FROM registration_reviews WHERE ${where.join(' AND ')}`, values);
      values.push(page.limit, page.offset);
      const { rows } = await db.query<ReviewRow>(
        `SELECT ${COLUMNS} FROM registration_reviews WHERE ${where.join(' AND ')}
         ORDER BY created_at DESC, seq DESC LIMIT $${values.length - 1} OFFSET $${values.length}`,
        values,
      );
      return { items: rows.map(toReview), totalItems: Number(count.rows[0]?.n ?? 0) };
    },
    async unmatchedFor(db, clientId, documents) {
      if (documents.length === 0) return [];
      const { rows } = await db.query<ReviewRow>(
        `SELECT ${COLUMNS} FROM registration_reviews WHERE client_id = $1 AND status = 'unmatched' AND document = ANY($2) ORDER BY created_at FOR UPDATE`,
        [clientId, documents],
      );
      return rows.map(toReview);
    },
    async hasExpired(db, clientId, sellerId) {
      const { rows } = await db.query(`SELECT 1 FROM registration_reviews WHERE client_id = $1 AND seller_id = $2 AND status = 'expired' LIMIT 1`, [clientId, sellerId]);
      return rows.length > 0;
    },
  };
}
