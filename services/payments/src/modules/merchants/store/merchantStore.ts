import { isUuid, withConstraintErrors, type Page, type Queryable } from '@platform/kit';
import type { FlowRule } from '../../flows/domain/flow';
import { priorityTaken, type Merchant, type PlatformFeeRule, type Provider } from '../domain/merchant';

/** Two payment providers of one merchant never share a priority. */
const PRIORITY_CONSTRAINT = 'providers_payment_priority';

interface MerchantRow {
  id: string;
  client_id: string;
  mcc: string;
  name: string;
  merchant_name: string;
  merchant_url: string;
  status: string;
  platform_fee_enabled: boolean;
  platform_fee_rules: PlatformFeeRule[];
  created_at: Date;
  updated_at: Date;
}

interface ProviderRow {
  id: string;
  client_id: string;
  merchant_id: string;
  name: string;
  priority: number;
  credentials_type: string;
  options: Record<string, unknown>;
  created_at: Date;
  updated_at: Date;
}

const MERCHANT_COLUMNS = `id, client_id, mcc, name, merchant_name, merchant_url, status, platform_fee_enabled, platform_fee_rules,
  created_at, updated_at`;
const PROVIDER_COLUMNS = 'id, client_id, merchant_id, name, priority, credentials_type, options, created_at, updated_at';

function toProvider(row: ProviderRow): Provider {
  return {
    id: row.id,
    clientId: row.client_id,
    merchantId: row.merchant_id,
    name: row.name,
    priority: row.priority,
    credentialsType: row.credentials_type,
    options: row.options ?? {},
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

function toMerchant(row: MerchantRow, providers: Provider[]): Merchant {
  return {
    id: row.id,
    clientId: row.client_id,
    mcc: row.mcc,
    name: row.name,
    merchantName: row.merchant_name,
    merchantUrl: row.merchant_url,
    status: row.status,
    platformFeeEnabled: row.platform_fee_enabled,
    platformFeeRules: row.platform_fee_rules ?? [],
    providers,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export interface NewMerchantRow {
  id: string;
  clientId: string;
  mcc: string;
  name: string;
  merchantName: string;
  merchantUrl: string;
  createdAt: Date;
}

export interface NewProviderRow {
  id: string;
  clientId: string;
  merchantId: string;
  name: string;
  priority: number;
  credentialsType: string;
  credentialsSealed: Buffer;
  options: Record<string, unknown>;
  createdAt: Date;
}

/** A provider with what routing needs: its credentials still sealed. */
export interface SealedProvider extends Provider {
  credentialsSealed: Buffer;
}

/** Everything a charge needs of its merchant, read in two indexed queries. */
export interface MerchantChargeRecord {
  id: string;
  clientId: string;
  mcc: string;
  platformFeeEnabled: boolean;
  platformFeeRules: PlatformFeeRule[];
  providers: SealedProvider[];
  flow?: { id: string; rules: FlowRule[]; defaultRoute: string[] };
}

export interface MerchantPage {
  items: Merchant[];
  totalItems: number;
}

/**
 * SQL for merchants and their providers. Every query is scoped by client id, and a deleted merchant, with its
 * providers, is never found.
 */
export interface MerchantStore {
  insertMerchant(tx: Queryable, merchant: NewMerchantRow): Promise<void>;
  insertProvider(tx: Queryable, provider: NewProviderRow): Promise<Provider>;
  findMerchant(db: Queryable, clientId: string, id: string, options?: { forUpdate?: boolean }): Promise<Merchant | null>;
  listMerchants(db: Queryable, clientId: string, page: Page): Promise<MerchantPage>;
  /** Writes mcc, names and URL. */
  updateMerchant(tx: Queryable, merchant: Merchant): Promise<Merchant | null>;
  setPlatformFee(tx: Queryable, clientId: string, id: string, fee: { enabled?: boolean; rules?: PlatformFeeRule[] }, at: Date): Promise<Merchant | null>;
  softDeleteMerchant(tx: Queryable, clientId: string, id: string, at: Date): Promise<Merchant | null>;
  findProvider(db: Queryable, clientId: string, id: string): Promise<Provider | null>;
  updateProvider(tx: Queryable, provider: Provider, credentialsSealed?: Buffer): Promise<Provider | null>;
  /** Whether another active payment provider of the merchant has this priority. */
  paymentPriorityTaken(db: Queryable, merchantId: string, priority: number, exceptProviderId: string): Promise<boolean>;
  /** Whether a routing flow of the merchant names the provider. */
  providerInFlow(db: Queryable, clientId: string, merchantId: string, providerId: string): Promise<boolean>;
  findForCharge(db: Queryable, clientId: string, merchantId: string, paymentMethod: string): Promise<MerchantChargeRecord | null>;
}

async function providersOf(db: Queryable, clientId: string, merchantIds: string[]): Promise<Map<string, Provider[]>> {
  const byMerchant = new Map<string, Provider[]>(merchantIds.map((id) => [id, []]));
  if (merchantIds.length === 0) return byMerchant;
  const { rows } = await db.query<ProviderRow>(
    `SELECT ${PROVIDER_COLUMNS} FROM providers
     WHERE client_id = $1 AND merchant_id = ANY($2::uuid[]) AND deleted_at IS NULL
     ORDER BY priority, seq`,
    [clientId, merchantIds],
  );
  for (const row of rows) byMerchant.get(row.merchant_id)?.push(toProvider(row));
  return byMerchant;
}

async function withProviders(db: Queryable, row: MerchantRow | undefined): Promise<Merchant | null> {
  if (!row) return null;
  const providers = await providersOf(db, row.client_id, [row.id]);
  return toMerchant(row, providers.get(row.id) ?? []);
}

export function createMerchantStore(): MerchantStore {
  return {
    async insertMerchant(tx, m) {
      await tx.query(
        `INSERT INTO merchants (id, client_id, mcc, name, merchant_name, merchant_url, status, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, 'active', $7, $7)`,
        [m.id, m.clientId, m.mcc, m.name, m.merchantName, m.merchantUrl, m.createdAt],
      );
    },

    async insertProvider(tx, p) {
      const { rows } = await tx.query<ProviderRow>(
        `INSERT INTO providers (id, client_id, merchant_id, name, priority, credentials_type, credentials_encrypted, options, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9)
         RETURNING ${PROVIDER_COLUMNS}`,
        [p.id, p.clientId, p.merchantId, p.name, p.priority, p.credentialsType, p.credentialsSealed, JSON.stringify(p.options), p.createdAt],
      );
      return toProvider(rows[0]!);
    },

    async findMerchant(db, clientId, id, options = {}) {
      if (!isUuid(id)) return null;
      const { rows } = await db.query<MerchantRow>(
        `SELECT ${MERCHANT_COLUMNS} FROM merchants WHERE client_id = $1 AND id = $2 AND deleted_at IS NULL${options.forUpdate ? ' FOR UPDATE' : ''}`,
        [clientId, id],
      );
      return withProviders(db, rows[0]);
    },

    async listMerchants(db, clientId, page) {
      const counted = await db.query<{ total: number }>(
        'SELECT count(*)::int AS total FROM merchants WHERE client_id = $1 AND deleted_at IS NULL',
        [clientId],
      );
      const direction = page.direction === 'ASC' ? 'ASC' : 'DESC';
      const { rows } = await db.query<MerchantRow>(
        `SELECT ${MERCHANT_COLUMNS} FROM merchants WHERE client_id = $1 AND deleted_at IS NULL
         ORDER BY created_at ${direction}, seq ${direction} LIMIT $2 OFFSET $3`,
        [clientId, page.limit, page.offset],
      );
      const providers = await providersOf(db, clientId, rows.map((r) => r.id));
      return { items: rows.map((r) => toMerchant(r, providers.get(r.id) ?? [])), totalItems: counted.rows[0]?.total ?? 0 };
    },

    async updateMerchant(tx, m) {
      const { rows } = await tx.query<MerchantRow>(
        `UPDATE merchants SET mcc = $3, name = $4, merchant_name = $5, merchant_url = $6, updated_at = $7
         WHERE client_id = $1 AND id = $2 AND deleted_at IS NULL
         RETURNING ${MERCHANT_COLUMNS}`,
        [m.clientId, m.id, m.mcc, m.name, m.merchantName, m.merchantUrl, m.updatedAt],
      );
      return withProviders(tx, rows[0]);
    },

    async setPlatformFee(tx, clientId, id, fee, at) {
      if (!isUuid(id)) return null;
      const { rows } = await tx.query<MerchantRow>(
        `UPDATE merchants SET platform_fee_enabled = COALESCE($3, platform_fee_enabled),
           platform_fee_rules = COALESCE($4::jsonb, platform_fee_rules), updated_at = $5
         WHERE client_id = $1 AND id = $2 AND deleted_at IS NULL
         RETURNING ${MERCHANT_COLUMNS}`,
        [clientId, id, fee.enabled ?? null, fee.rules ? JSON.stringify(fee.rules) : null, at],
      );
      return withProviders(tx, rows[0]);
    },

    async softDeleteMerchant(tx, clientId, id, at) {
      if (!isUuid(id)) return null;
      const { rows } = await tx.query<MerchantRow>(
        `UPDATE merchants SET status = 'deleted', deleted_at = $3, updated_at = $3
         WHERE client_id = $1 AND id = $2 AND deleted_at IS NULL
         RETURNING ${MERCHANT_COLUMNS}`,
        [clientId, id, at],
      );
      return withProviders(tx, rows[0]);
    },

    async findProvider(db, clientId, id) {
      if (!isUuid(id)) return null;
      const { rows } = await db.query<ProviderRow>(
        `SELECT p.id, p.client_id, p.merchant_id, p.name, p.priority, p.credentials_type, p.options, p.created_at, p.updated_at
         FROM providers p JOIN merchants m ON m.id = p.merchant_id AND m.client_id = p.client_id
         WHERE p.client_id = $1 AND p.id = $2 AND p.deleted_at IS NULL AND m.deleted_at IS NULL`,
        [clientId, id],
      );
      return rows[0] ? toProvider(rows[0]) : null;
    },

    async updateProvider(tx, p, credentialsSealed) {
      const write = () => tx.query<ProviderRow>(
        `UPDATE providers SET name = $3, priority = $4, credentials_type = $5, options = $6,
           credentials_encrypted = COALESCE($7, credentials_encrypted), updated_at = $8
         WHERE client_id = $1 AND id = $2 AND deleted_at IS NULL
         RETURNING ${PROVIDER_COLUMNS}`,
        [p.clientId, p.id, p.name, p.priority, p.credentialsType, JSON.stringify(p.options), credentialsSealed ?? null, p.updatedAt],
      );
      const { rows } = await withConstraintErrors(write, { [PRIORITY_CONSTRAINT]: () => priorityTaken(p.priority) });
      return rows[0] ? toProvider(rows[0]) : null;
    },

    async paymentPriorityTaken(db, merchantId, priority, exceptProviderId) {
      const { rows } = await db.query(
        `SELECT 1 FROM providers
         WHERE merchant_id = $1 AND priority = $2 AND id <> $3 AND deleted_at IS NULL AND credentials_type <> 'SANDBOX_ANTIFRAUD'
         LIMIT 1`,
        [merchantId, priority, exceptProviderId],
      );
      return rows.length > 0;
    },

    async providerInFlow(db, clientId, merchantId, providerId) {
      const { rows } = await db.query(
        `SELECT 1 FROM flows
         WHERE client_id = $1 AND merchant_id = $2
           AND (default_route @> jsonb_build_array($3::text)
                OR EXISTS (SELECT 1 FROM jsonb_array_elements(rules) r
                            WHERE r->'route' @> jsonb_build_array($3::text)
                               OR EXISTS (SELECT 1 FROM jsonb_array_elements(COALESCE(r->'split', '[]'::jsonb)) b
                                           WHERE b->'route' @> jsonb_build_array($3::text))))
         LIMIT 1`,
        [clientId, merchantId, providerId],
      );
      return rows.length > 0;
    },

    async findForCharge(db, clientId, merchantId, paymentMethod) {
      if (!isUuid(merchantId)) return null;
      // One statement: a row per provider (one row with no provider when it has none), the merchant and flow on each.
      const { rows } = await db.query<{
        id: string;
        client_id: string;
        mcc: string;
        platform_fee_enabled: boolean;
        platform_fee_rules: PlatformFeeRule[];
        flow_id: string | null;
        flow_rules: FlowRule[] | null;
        flow_default_route: string[] | null;
        provider: (Omit<ProviderRow, 'created_at' | 'updated_at'> & { created_at: string; updated_at: string; credentials_encrypted: string }) | null;
      }>(
        `SELECT m.id, m.client_id, m.mcc, m.platform_fee_enabled, m.platform_fee_rules,
           f.id AS flow_id, f.rules AS flow_rules, f.default_route AS flow_default_route,
           CASE WHEN p.id IS NULL THEN NULL ELSE json_build_object(
             'id', p.id, 'client_id', p.client_id, 'merchant_id', p.merchant_id, 'name', p.name, 'priority', p.priority,
             'credentials_type', p.credentials_type, 'options', p.options, 'created_at', p.created_at, 'updated_at', p.updated_at,
             'credentials_encrypted', encode(p.credentials_encrypted, 'base64')) END AS provider
         FROM merchants m
         LEFT JOIN flows f ON f.client_id = m.client_id AND f.merchant_id = m.id AND f.payment_method = $3
         LEFT JOIN providers p ON p.client_id = m.client_id AND p.merchant_id = m.id AND p.deleted_at IS NULL
         WHERE m.client_id = $1 AND m.id = $2 AND m.deleted_at IS NULL
         ORDER BY p.priority, p.seq`,
        [clientId, merchantId, paymentMethod],
      );
      const row = rows[0];
      if (!row) return null;
      const providers = rows.flatMap((r) => (r.provider ? [r.provider] : []));
      return {
        id: row.id,
        clientId: row.client_id,
        mcc: row.mcc,
        platformFeeEnabled: row.platform_fee_enabled,
        platformFeeRules: row.platform_fee_rules ?? [],
        providers: providers.map((p) => ({
          ...toProvider({ ...p, created_at: new Date(p.created_at), updated_at: new Date(p.updated_at) }),
          credentialsSealed: Buffer.from(p.credentials_encrypted, 'base64'),
        })),
        ...(row.flow_id ? { flow: { id: row.flow_id, rules: row.flow_rules ?? [], defaultRoute: row.flow_default_route ?? [] } } : {}),
      };
    },
  };
}
