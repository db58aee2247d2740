import { errors, withConstraintErrors, type Queryable } from '@platform/kit';
import type { RetryStep, SubscriptionSettings, SubscriptionSettingsChanges, SubscriptionSettingsValues } from '../domain/subscriptionSettings';

interface SubscriptionSettingsRow {
  client_id: string;
  retry_policy: RetryStep[];
  cancel_after_all_retries: boolean;
  statement_descriptor: string;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = 'client_id, retry_policy, cancel_after_all_retries, statement_descriptor, created_at, updated_at';

function toSubscriptionSettings(row: SubscriptionSettingsRow): SubscriptionSettings {
  return {
    clientId: row.client_id,
    retryPolicy: row.retry_policy.map((step) => ({ daysAfterLastAttempt: step.daysAfterLastAttempt })),
    cancelAfterAllRetries: row.cancel_after_all_retries,
    statementDescriptor: row.statement_descriptor,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export interface SubscriptionSettingsStore {
  findByClientId(db: Queryable, clientId: string): Promise<SubscriptionSettings | undefined>;
  /**
   * Applies the changes in one statement: onto the stored row, or onto `base` when the client has none yet, so
   * two first updates at once cannot overwrite each other's fields. An unknown client is not_found.
   */
  upsert(db: Queryable, clientId: string, changes: SubscriptionSettingsChanges, base: SubscriptionSettingsValues, now: Date): Promise<SubscriptionSettings>;
}

export function createSubscriptionSettingsStore(): SubscriptionSettingsStore {
  return {
    async findByClientId(db, clientId) {
      const { rows } = await db.query<SubscriptionSettingsRow>(`SELECT ${COLUMNS} FROM subscription_settings WHERE client_id = $1`, [clientId]);
      return rows[0] && toSubscriptionSettings(rows[0]);
    },

    async upsert(db, clientId, changes, base, now) {
      const retryPolicy = changes.retryPolicy === undefined ? null : JSON.stringify(changes.retryPolicy);
      const write = () =>
        db.query<SubscriptionSettingsRow>(
        `INSERT INTO subscription_settings AS s (${COLUMNS})
         VALUES ($1, COALESCE($2::jsonb, $5::jsonb), COALESCE($3::boolean, $6::boolean), COALESCE($4::text, $7::text), $8, $8)
         ON CONFLICT (client_id) DO UPDATE SET
           retry_policy = COALESCE($2::jsonb, s.retry_policy),
           cancel_after_all_retries = COALESCE($3::boolean, s.cancel_after_all_retries),
           statement_descriptor = COALESCE($4::text, s.statement_descriptor),
           updated_at = $8
         RETURNING ${COLUMNS}`,
        [
          clientId,
          retryPolicy,
          changes.cancelAfterAllRetries ?? null,
          changes.statementDescriptor ?? null,
          JSON.stringify(base.retryPolicy),
          base.cancelAfterAllRetries,
          base.statementDescriptor,
          now,
        ],
      );
      const { rows } = await withConstraintErrors(write, { subscription_settings_client_id_fkey: () => errors.notFound('Client', clientId) });
      return toSubscriptionSettings(rows[0]!);
    },
  };
}
