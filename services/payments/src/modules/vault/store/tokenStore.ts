import type { Queryable } from '@platform/kit';
import type { CardBrand } from '../domain/card';
import { isUuid } from '@platform/kit';

interface TokenRow {
  id: string;
  client_id: string;
  pan_encrypted: Buffer;
  cvv_encrypted: Buffer | null;
  holder_name: string;
  exp_month: number;
  exp_year: number;
  brand: string;
  first6: string;
  last4: string;
  fingerprint: string;
  expires_at: Date;
  used_at: Date | null;
  created_at: Date;
  session_id: string | null;
}

/** A card token as stored: number and CVV sealed by the vault. */
export interface StoredToken {
  id: string;
  clientId: string;
  panSealed: Buffer;
  /** Null once the token was used or expired. */
  cvvSealed: Buffer | null;
  holderName: string;
  expirationMonth: number;
  expirationYear: number;
  brand: CardBrand;
  first6: string;
  last4: string;
  fingerprint: string;
  expiresAt: Date;
  usedAt: Date | null;
  createdAt: Date;
  /** The session whose public key made the token; null for a token made with a client key. */
  sessionId: string | null;
}

/** A token to store: one made with a client key needs no session. */
export type NewToken = Omit<StoredToken, 'sessionId'> & { sessionId?: string | null };

const COLUMNS = `id, client_id, pan_encrypted, cvv_encrypted, holder_name, exp_month, exp_year, brand, first6, last4, fingerprint,
  expires_at, used_at, created_at, session_id`;

function toToken(row: TokenRow): StoredToken {
  return {
    id: row.id,
    clientId: row.client_id,
    panSealed: row.pan_encrypted,
    cvvSealed: row.cvv_encrypted,
    holderName: row.holder_name,
    expirationMonth: row.exp_month,
    expirationYear: row.exp_year,
    brand: row.brand as CardBrand,
    first6: row.first6,
    last4: row.last4,
    fingerprint: row.fingerprint,
    expiresAt: row.expires_at,
    usedAt: row.used_at,
    createdAt: row.created_at,
    sessionId: row.session_id,
  };
}

/** SQL for single-use card tokens; every query is scoped by client id. */
export interface TokenStore {
  insert(tx: Queryable, token: NewToken): Promise<void>;
  /**
   * Marks an unused, unexpired token used and erases its CVV, in the caller's transaction; answers the token as
   * it was before, CVV included, or null when there is no such token to use. Of two concurrent consumers only
   * one gets the row: the other waits on its lock and then finds it used. A token used by a charge opens again
   * for that same charge id (a retry of that charge), without its CVV. Only a token made for `sessionId` is used:
   * one made with a client key when it is null (the default).
   */
  consume(tx: Queryable, clientId: string, id: string, now: Date, chargeId?: string, sessionId?: string | null): Promise<StoredToken | null>;
  /** The session a token of the client was made for (null: made with a client key), or undefined when there is no such token. */
  sessionOf(db: Queryable, clientId: string, id: string): Promise<string | null | undefined>;
  /** An unused, unexpired token, without using it. */
  findUsable(db: Queryable, clientId: string, id: string, now: Date): Promise<StoredToken | null>;
  /** Erases the CVV of every token that expired unused; answers how many. */
  eraseExpiredCvvs(db: Queryable, now: Date): Promise<number>;
}

export function createTokenStore(): TokenStore {
  return {
    async insert(tx, t) {
      await tx.query(
        `INSERT INTO card_tokens (id, client_id, pan_encrypted, cvv_encrypted, holder_name, exp_month, exp_year, brand, first6, last4,
           fingerprint, expires_at, used_at, created_at, session_id)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)`,
        [
          t.id,
          t.clientId,
          t.panSealed,
          t.cvvSealed,
          t.holderName,
          t.expirationMonth,
          t.expirationYear,
          t.brand,
          t.first6,
          t.last4,
          t.fingerprint,
          t.expiresAt,
          t.usedAt,
          t.createdAt,
          t.sessionId ?? null,
        ],
      );
    },

    async consume(tx, clientId, id, now, chargeId, sessionId = null) {
      if (!isUuid(id)) return null;
      const claimed = await tx.query<TokenRow>(
        `UPDATE card_tokens SET used_at = COALESCE(used_at, $3), used_by_charge_id = $4
         WHERE client_id = $1 AND id = $2 AND ((used_at IS NULL AND expires_at > $3) OR used_by_charge_id = $4)
           AND session_id IS NOT DISTINCT FROM $5
         RETURNING ${COLUMNS}`,
        [clientId, id, now, chargeId ?? null, sessionId],
      );
      const row = claimed.rows[0];
      if (!row) return null;
      await tx.query('UPDATE card_tokens SET cvv_encrypted = NULL WHERE id = $1', [row.id]);
      return toToken(row);
    },

    async sessionOf(db, clientId, id) {
      if (!isUuid(id)) return undefined;
      const { rows } = await db.query<{ session_id: string | null }>('SELECT session_id FROM card_tokens WHERE client_id = $1 AND id = $2', [clientId, id]);
      return rows[0] ? rows[0].session_id : undefined;
    },

    async findUsable(db, clientId, id, now) {
      if (!isUuid(id)) return null;
      const { rows } = await db.query<TokenRow>(
        `SELECT ${COLUMNS} FROM card_tokens WHERE client_id = $1 AND id = $2 AND used_at IS NULL AND expires_at > $3`,
        [clientId, id, now],
      );
      return rows[0] ? toToken(rows[0]) : null;
    },

    async eraseExpiredCvvs(db, now) {
      const result = await db.query('UPDATE card_tokens SET cvv_encrypted = NULL WHERE cvv_encrypted IS NOT NULL AND expires_at <= $1', [now]);
      return result.rowCount ?? 0;
    },
  };
}
