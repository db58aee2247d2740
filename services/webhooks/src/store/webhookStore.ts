import { errors, isUuid, withConstraintErrors, type ConstraintErrors, type Page, type Queryable } from '@platform/kit';
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

/** The unique indexes are the rules; a write that breaks one becomes the conflict a client can act on. */
const UNIQUE_RULES: ConstraintErrors = {
  webhooks_client_event: () => errors.conflict('A webhook for this event already exists', 'webhook_event_exists'),
  webhooks_client_endpoint: () => errors.conflict('A webhook with this endpoint already exists', 'webhook_endpoint_exists'),
};

/** SQL for webhook registrations. Every query is scoped by client id. */
export interface WebhookStore {
  insert(tx: Queryable, webhook: Webhook, sealedPrivateKey: Buffer): Promise<Webhook>;
  findById(db: Queryable, clientId: string, id: string, options?: { forUpdate?: boolean }): Promise<Webhook | null>;
  list(db: Queryable, clientId: string, page: Page): Promise<{ items: Webhook[]; totalItems: number }>;
  update(tx: Queryable, webhook: Webhook): Promise<Webhook | null>;
  delete(tx: Queryable, clientId: string, id: string): Promise<Webhook | null>;
  disable(tx: Queryable, clientId: string, id: string, at: Date): Promise<Webhook | null>;
  /** Active webhooks of the client that take `event` (by name or `*`) and already existed when it happened. */
  listeners(db: Queryable, clientId: string, event: string, occurredAt: Date): Promise<Webhook[]>;
  /** The active webhooks of these clients that listen to any of these events (or to every one), in creation order. */
  listenersOfAny(db: Queryable, clientIds: readonly string[], events: readonly string[]): Promise<Webhook[]>;
}

export function createWebhookStore(): WebhookStore {
  return {
    async insert(tx, w, sealedPrivateKey) {
      const { rows } = await withConstraintErrors(
        () =>
          tx.query<WebhookRow>(
            `INSERT INTO webhooks (id, client_id, event, endpoint, version, active, public_key, sealed_private_key, created_at, updated_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
             RETURNING ${COLUMNS}`,
            [w.id, w.clientId, w.event, w.endpoint, w.version, w.active, w.publicKey, sealedPrivateKey, w.createdAt, w.updatedAt],
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
  };
}
