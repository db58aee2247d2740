import { errors, withConstraintErrors, type Queryable } from '@platform/kit';
import { describeScope, type LinkSettings } from '../domain/linkSettings';

interface LinkSettingsRow {
  id: string;
  client_id: string;
  merchant_id: string | null;
  main_color: string | null;
  secondary_color: string | null;
  attention_color: string | null;
  error_color: string | null;
  success_color: string | null;
  background_color: string | null;
  company_url: string | null;
  logo_id: string | null;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = `id, client_id, merchant_id, main_color, secondary_color, attention_color, error_color, success_color,
  background_color, company_url, logo_id, created_at, updated_at`;

function toLinkSettings(row: LinkSettingsRow): LinkSettings {
  const settings: LinkSettings = {
    id: row.id,
    clientId: row.client_id,
    merchantId: row.merchant_id,
    logoId: row.logo_id,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
  const text: Array<[keyof LinkSettings, string | null]> = [
    ['mainColor', row.main_color],
    ['secondaryColor', row.secondary_color],
    ['attentionColor', row.attention_color],
    ['errorColor', row.error_color],
    ['successColor', row.success_color],
    ['backgroundColor', row.background_color],
    ['companyUrl', row.company_url],
  ];
  for (const [field, value] of text) if (value !== null) Object.assign(settings, { [field]: value });
  return settings;
}

function values(settings: LinkSettings): unknown[] {
  return [
    settings.id,
    settings.clientId,
    settings.merchantId,
    settings.mainColor ?? null,
    settings.secondaryColor ?? null,
    settings.attentionColor ?? null,
    settings.errorColor ?? null,
    settings.successColor ?? null,
    settings.backgroundColor ?? null,
    settings.companyUrl ?? null,
    settings.logoId,
    settings.createdAt,
    settings.updatedAt,
  ];
}

export interface LinkSettingsStore {
  /** A second row for a scope is a conflict (`link_settings_exist`); an unknown client is not_found. */
  insert(db: Queryable, settings: LinkSettings): Promise<void>;
  /** The row of exactly this scope (merchantId null = the client default). */
  findByClientIdScope(db: Queryable, clientId: string, merchantId: string | null, options?: { forUpdate?: boolean }): Promise<LinkSettings | undefined>;
  /** The merchant's row when it exists, else the client default. */
  findByClientIdMerchantIdOrDefault(db: Queryable, clientId: string, merchantId: string | null): Promise<LinkSettings | undefined>;
  update(db: Queryable, settings: LinkSettings): Promise<void>;
}

export function createLinkSettingsStore(): LinkSettingsStore {
  return {
    async insert(db, settings) {
      const exists = () => errors.conflict(`Payment-link settings already exist for ${describeScope(settings.merchantId)}`, 'link_settings_exist');
      await withConstraintErrors(
        () => db.query(`INSERT INTO link_settings (${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`, values(settings)),
        {
          link_settings_client_default: exists,
          link_settings_merchant: exists,
          link_settings_client_id_fkey: () => errors.notFound('Client', settings.clientId),
        },
      );
    },

    async findByClientIdScope(db, clientId, merchantId, options = {}) {
      const { rows } = await db.query<LinkSettingsRow>(
        `SELECT ${COLUMNS} FROM link_settings WHERE client_id = $1 AND merchant_id IS NOT DISTINCT FROM $2::uuid${options.forUpdate ? ' FOR UPDATE' : ''}`,
        [clientId, merchantId],
      );
      return rows[0] && toLinkSettings(rows[0]);
    },

    async findByClientIdMerchantIdOrDefault(db, clientId, merchantId) {
      const { rows } = await db.query<LinkSettingsRow>(
        `SELECT ${COLUMNS} FROM link_settings
         WHERE client_id = $1 AND (merchant_id IS NULL OR merchant_id = $2::uuid)
         ORDER BY merchant_id NULLS LAST LIMIT 1`,
        [clientId, merchantId],
      );
      return rows[0] && toLinkSettings(rows[0]);
    },

    async update(db, settings) {
      await db.query(
        `UPDATE link_settings SET main_color = $4, secondary_color = $5, attention_color = $6, error_color = $7, success_color = $8,
           background_color = $9, company_url = $10, logo_id = $11, updated_at = $12
         WHERE id = $1 AND client_id = $2 AND merchant_id IS NOT DISTINCT FROM $3::uuid`,
        [
          settings.id,
          settings.clientId,
          settings.merchantId,
          settings.mainColor ?? null,
          settings.secondaryColor ?? null,
          settings.attentionColor ?? null,
          settings.errorColor ?? null,
          settings.successColor ?? null,
          settings.backgroundColor ?? null,
          settings.companyUrl ?? null,
          settings.logoId,
          settings.updatedAt,
        ],
      );
    },
  };
}
