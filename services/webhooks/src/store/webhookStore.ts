import { errors, isUuid, withConstraintErrors, type ConstraintErrors, type Page, type Queryable } from '@platform/kit';
import type { SecretSlots } from '../domain/signatures';
import type { Webhook } from '../domain/webhook';

interface WebhookRow {
  id: string;
  client_id: string;
  event: string;
  endpoint: string;
  version: number;
  active: boolean;
  public_key: string;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = 'id, client_id, event, endpoint, version, active, public_key, created_at, updated_at';

function toWebhook(row: WebhookRow): Webhook {
  return {
    id: row.id,
    clientId: row.client_id,
    event: row.event,
    endpoint: row.endpoint,
    version: row.version,
    active: row.active,
    publicKey: row.public_key,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** A webhook's secret columns. */
export interface SecretsRow {
  sealed_secret: Buffer | null;
  sealed_previous_secret: Buffer | null;
  previous_secret_expires_at: Date | null;
}

export function secretSlotsOf(row: SecretsRow): SecretSlots<Buffer> {
  return { current: row.sealed_secret, previous: row.sealed_previous_secret, previousExpiresAt: row.previous_secret_expires_at };
}

/** The unique indexes are the rules; a write that breaks one becomes the conflict a client can act on. */
const UNIQUE_RULES: ConstraintErrors = {
  webhooks_client_event: () => errors.conflict('A webhook for this event already exists', 'webhook_event_exists'),
  webhooks_client_endpoint: () => errors.conflict('A webhook with this endpoint already exists', 'webhook_endpoint_exists'),
};

/** SQL for webhook registrations. Every query is scoped by client id. */
export interface WebhookStore {
  /** With its sealed private key and sealed Standard Webhooks secret. */
  insert(tx: Queryable, webhook: Webhook, sealed: { privateKey: Buffer; secret: Buffer }): Promise<Webhook>;
  findById(db: Queryable, clientId: string, id: string, options?: { forUpdate?: boolean }): Promise<Webhook | null>;
  list(db: Queryable, clientId: string, page: Page): Promise<{ items: Webhook[]; totalItems: number }>;
  update(tx: Queryable, webhook: Webhook): Promise<Webhook | null>;
  delete(tx: Queryable, clientId: string, id: string): Promise<Webhook | null>;
  disable(tx: Queryable, clientId: string, id: string, at: Date): Promise<Webhook | null>;
  /** Active webhooks of the client that take `event` (by name or `*`) and already existed when it happened. */
  listeners(db: Queryable, clientId: string, event: string, occurredAt: Date): Promise<Webhook[]>;
  /** The active webhooks of these clients that listen to any of these events (or to every one), in creation order. */
  listenersOfAny(db: Queryable, clientIds: readonly string[], events: readonly string[]): Promise<Webhook[]>;
  /** The webhook's sealed secrets; null for a webhook the client does not have. */
  secrets(db: Queryable, clientId: string, id: string): Promise<SecretSlots<Buffer> | null>;
  /** Replaces the webhook's sealed secrets (a rotation); false for a webhook the client does not have. */
  setSecrets(tx: Queryable, clientId: string, id: string, slots: SecretSlots<Buffer>): Promise<boolean>;
  /**
   * Webhooks that have no secret yet (registered before secrets existed), oldest first. The one query across
   * clients: the start-up backfill's, and it answers ids only.
   */
  withoutSecret(db: Queryable, limit: number): Promise<Array<{ clientId: string; id: string }>>;
  /** Gives each of these webhooks its sealed secret unless it has one already; answers how many it gave. */
  giveSecrets(tx: Queryable, secrets: ReadonlyArray<{ clientId: string; id: string; sealed: Buffer }>): Promise<number>;
}

export function createWebhookStore(): WebhookStore {
  return {
    async insert(tx, w, sealed) {
      const { rows } = await withConstraintErrors(
        () =>
          tx.query<WebhookRow>(
            `INSERT INTO webhooks (id, client_id, event, endpoint, version, active, public_key, sealed_private_key, sealed_secret, created_at, updated_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
             RETURNING ${COLUMNS}`,
            [w.id, w.clientId, w.event, w.endpoint, w.version, w.active, w.publicKey, sealed.privateKey, sealed.secret, w.createdAt, w.updatedAt],
          ),
        UNIQUE_RULES,
      );
      return toWebhook(rows[0]!);
    },

    async findById(db, clientId, id, options = {}) {
      if (!isUuid(id)) return null;
      const { rows } = await db.query<WebhookRow>(
        `SELECT ${COLUMNS} FROM webhooks WHERE client_id = $1 AND id = $2${options.forUpdate ? ' FOR UPDATE' : ''}`,
        [clientId, id],
      );
      return rows[0] ? toWebhook(rows[0]) : null;
    },

    async list(db, clientId, page) {
      const counted = await db.query<{ total: number }>('SELECT count(*)::int AS total FROM webhooks WHERE client_id = $1', [clientId]);
      const direction = page.direction === 'ASC' ? 'ASC' : 'DESC';
      const { rows } = await db.query<WebhookRow>(
        `SELECT ${COLUMNS} FROM webhooks WHERE client_id = $1 ORDER BY created_at ${direction}, seq ${direction} LIMIT $2 OFFSET $3`,
        [clientId, page.limit, page.offset],
      );
      return { items: rows.map(toWebhook), totalItems: counted.rows[0]?.total ?? 0 };
    },

    async update(tx, w) {
      const { rows } = await withConstraintErrors(
        () =>
          tx.query<WebhookRow>(
            `UPDATE webhooks SET event = $3, endpoint = $4, version = $5, active = $6, updated_at = $7
             WHERE client_id = $1 AND id = $2
             RETURNING ${COLUMNS}`,
            [w.clientId, w.id, w.event, w.endpoint, w.version, w.active, w.updatedAt],
          ),
        UNIQUE_RULES,
      );
      return rows[0] ? toWebhook(rows[0]) : null;
    },

    async delete(tx, clientId, id) {
      if (!isUuid(id)) return null;
      const { rows } = await tx.query<WebhookRow>(`DELETE FROM webhooks WHERE client_id = $1 AND id = $2 RETURNING ${COLUMNS}`, [clientId, id]);
      return rows[0] ? toWebhook(rows[0]) : null;
    },

    async disable(tx, clientId, id, at) {
      const { rows } = await tx.query<WebhookRow>(
        `UPDATE webhooks SET active = false, updated_at = $3 WHERE client_id = $1 AND id = $2 AND active RETURNING ${COLUMNS}`,
        [clientId, id, at],
      );
      return rows[0] ? toWebhook(rows[0]) : null;
    },

    async listenersOfAny(db, clientIds, events) {
      if (clientIds.length === 0) return [];
      const { rows } = await db.query<WebhookRow>(
        `SELECT ${COLUMNS} FROM webhooks
         WHERE client_id = ANY($1::uuid[]) AND active AND (event = ANY($2::text[]) OR event = '*')
         ORDER BY seq`,
        [clientIds, events],
      );
      return rows.map(toWebhook);
    },

    async listeners(db, clientId, event, occurredAt) {
      const { rows } = await db.query<WebhookRow>(
        `SELECT ${COLUMNS} FROM webhooks
         WHERE client_id = $1 AND active AND event IN ($2, '*') AND created_at <= $3
         ORDER BY seq`,
        [clientId, event, occurredAt],
      );
      return rows.map(toWebhook);
    },

    async secrets(db, clientId, id) {
      if (!isUuid(id)) return null;
      const { rows } = await db.query<SecretsRow>(`SELECT sealed_secret, sealed_previous_secret, previous_secret_expires_at FROM webhooks WHERE client_id = $1 AND id = $2`, [clientId, id]);
      const row = rows[0];
      return row ? secretSlotsOf(row) : null;
    },

    async setSecrets(tx, clientId, id, slots) {
      if (!isUuid(id)) return false;
      const result = await tx.query(
        `UPDATE webhooks SET sealed_secret = $3, sealed_previous_secret = $4, previous_secret_expires_at = $5
         WHERE client_id = $1 AND id = $2`,
        [clientId, id, slots.current, slots.previous, slots.previousExpiresAt],
      );
      return (result.rowCount ?? 0) > 0;
    },

    async withoutSecret(db, limit) {
      const { rows } = await db.query<{ client_id: string; id: string }>(
        'SELECT client_id, id FROM webhooks WHERE sealed_secret IS NULL ORDER BY seq LIMIT $1',
        [limit],
      );
      return rows.map((r) => ({ clientId: r.client_id, id: r.id }));
    },

    async giveSecrets(tx, secrets) {
      if (secrets.length === 0) return 0;
      // Only where none is set: a replica starting at the same time, or a rotation meanwhile, keeps what it wrote.
      const result = await tx.query(
        `UPDATE webhooks w SET sealed_secret = s.sealed
         FROM unnest($1::uuid[], $2::uuid[], $3::bytea[]) AS s(client_id, id, sealed)
         WHERE w.client_id = s.client_id AND w.id = s.id AND w.sealed_secret IS NULL`,
        [secrets.map((s) => s.clientId), secrets.map((s) => s.id), secrets.map((s) => s.sealed)],
      );
      return result.rowCount ?? 0;
    },
  };
}
