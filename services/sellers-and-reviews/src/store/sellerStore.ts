import { isUuid, type Page, type Queryable } from '@platform/kit';
import { sellerDocuments, type JsonObject, type LinkStatus, type ProviderLink, type Seller, type SellerMetadata, type SellerStatus } from '../domain/seller';

interface SellerRow {
  id: string;
  client_id: string;
  merchant_id: string;
  mcc: string;
  status: SellerStatus;
  owner: JsonObject;
  business: JsonObject | null;
  bank_account: JsonObject;
  transfer_policy: JsonObject | null;
  metadata: SellerMetadata | null;
  rate_agreements: JsonObject[];
  sales_plan_id: string;
  plan_id: string;
  providers: Array<Omit<ProviderLink, 'createdAt' | 'updatedAt' | 'status'> & { status: LinkStatus; createdAt: string; updatedAt: string }>;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS =
  'id, client_id, merchant_id, mcc, status, owner, business, bank_account, transfer_policy, metadata, rate_agreements, sales_plan_id, plan_id, providers, created_at, updated_at';

function toSeller(row: SellerRow): Seller {
  return {
    id: row.id,
    clientId: row.client_id,
    merchantId: row.merchant_id,
    mcc: row.mcc,
    status: row.status,
    owner: row.owner,
    business: row.business,
    bankAccount: row.bank_account,
    transferPolicy: row.transfer_policy,
    metadata: row.metadata,
    rateAgreements: row.rate_agreements,
    salesPlanId: row.sales_plan_id,
    planId: row.plan_id,
    providers: row.providers.map((p) => ({ ...p, createdAt: new Date(p.createdAt), updatedAt: new Date(p.updatedAt) })),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

function params(s: Seller): unknown[] {
  const businessName = s.business ? String(s.business.name ?? s.business.corporateReason ?? '') : null;
  return [
    s.id,
    s.clientId,
    s.merchantId,
    s.mcc,
    s.status,
    JSON.stringify(s.owner),
    s.business ? JSON.stringify(s.business) : null,
    JSON.stringify(s.bankAccount),
    s.transferPolicy ? JSON.stringify(s.transferPolicy) : null,
    s.metadata ? JSON.stringify(s.metadata) : null,
    JSON.stringify(s.rateAgreements),
    s.salesPlanId,
    s.planId,
    JSON.stringify(s.providers.map((p) => ({ ...p, createdAt: p.createdAt.toISOString(), updatedAt: p.updatedAt.toISOString() }))),
    String(s.owner.email ?? '').toLowerCase(),
    businessName,
    sellerDocuments(s),
    s.createdAt,
    s.updatedAt,
  ];
}

export interface SellerFilters {
  id?: string;
  email?: string;
  statuses?: string[];
  businessName?: string;
  merchantId?: string;
}

/** SQL for sellers. Every query is scoped by client id. */
export interface SellerStore {
  insert(db: Queryable, seller: Seller): Promise<Seller>;
  update(db: Queryable, seller: Seller): Promise<Seller>;
  findById(db: Queryable, clientId: string, id: string, options?: { forUpdate?: boolean }): Promise<Seller | null>;
  list(db: Queryable, clientId: string, filters: SellerFilters, page: Page): Promise<{ items: Seller[]; totalItems: number }>;
  /** The client's sellers (not inactive) known by this document number (digits only). */
  findByDocument(db: Queryable, clientId: string, documentDigits: string): Promise<Seller[]>;
}

export function createSellerStore(): SellerStore {
  return {
    async insert(db, seller) {
      const { rows } = await db.query<SellerRow>(
        `INSERT INTO sellers (id, client_id, merchant_id, mcc, status, owner, business, bank_account, transfer_policy, metadata,
           rate_agreements, sales_plan_id, plan_id, providers, email, business_name, documents, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19)
         RETURNING ${COLUMNS}`,
        params(seller),
      );
      return toSeller(rows[0]!);
    },
    async update(db, seller) {
      const { rows } = await db.query<SellerRow>(
        `UPDATE sellers SET merchant_id = $3, mcc = $4, status = $5, owner = $6, business = $7, bank_account = $8,
           transfer_policy = $9, metadata = $10, rate_agreements = $11, sales_plan_id = $12, plan_id = $13, providers = $14,
           email = $15, business_name = $16, documents = $17, created_at = $18, updated_at = $19
         WHERE id = $1 AND client_id = $2
         RETURNING ${COLUMNS}`,
        params(seller),
      );
      return toSeller(rows[0]!);
    },
    async findById(db, clientId, id, options = {}) {
      if (!isUuid(id)) return null;
      const { rows } = await db.query<SellerRow>(
        `SELECT ${COLUMNS} FROM sellers WHERE client_id = $1 AND id = $2${options.forUpdate ? ' FOR UPDATE' : ''}`,
        [clientId, id],
      );
      return rows[0] ? toSeller(rows[0]) : null;
    },
    async list(db, clientId, filters, page) {
      const where = ['client_id = $1'];
      const values: unknown[] = [clientId];
      const add = (sql: string, value: unknown) => {
        values.push(value);
        where.push(sql.replace('?', `$${values.length}`));
      };
      if (filters.id !== undefined) {
        if (!isUuid(filters.id)) return { items: [], totalItems: 0 };
        add('id = ?', filters.id);
      }
      if (filters.email !== undefined) add('email = ?', filters.email.toLowerCase());
      if (filters.statuses && filters.statuses.length > 0) add('status = ANY(?)', filters.statuses);
      if (filters.businessName !== undefined) add("business_name ILIKE '%' || ? || '%'", filters.businessName.replace(/[\\%_]/g, (c) => `\\${c}`));
      if (filters.merchantId !== undefined) add('merchant_id = ?', filters.merchantId);
      values.push(page.limit, page.offset);
      const { rows } = await db.query<SellerRow & { total: string }>(
        `SELECT ${COLUMNS}, count(*) OVER () AS total FROM sellers WHERE ${where.join(' AND ')}
         ORDER BY created_at ${page.direction}, seq ${page.direction} LIMIT $${values.length - 1} OFFSET $${values.length}`,
        values,
      );
      let totalItems = Number(rows[0]?.total ?? 0);
      if (rows.length === 0 && page.offset > 0) {
        const count = await db.query<{ n: string }>(`SELECT count(*) AS n FROM sellers WHERE ${where.join(' AND ')}`, values.slice(0, -2));
        totalItems = Number(count.rows[0]?.n ?? 0);
      }
      return { items: rows.map(toSeller), totalItems };
    },
    async findByDocument(db, clientId, documentDigits) {
      const { rows } = await db.query<SellerRow>(
        `SELECT ${COLUMNS} FROM sellers WHERE client_id = $1 AND $2 = ANY(documents) AND status <> 'inactive' ORDER BY created_at`,
        [clientId, documentDigits],
      );
      return rows.map(toSeller);
    },
  };
}
