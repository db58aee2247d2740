import type { Queryable } from '@platform/kit';
import type { SealPurpose } from '../crypto/keyService';

/** A column of sealed values and the stored key id beside it (migration 006). */
export interface SealedColumn {
  table: 'cards' | 'card_tokens' | 'providers';
  column: string;
  keyColumn: string;
  purpose: SealPurpose;
}

/** Every sealed column of the service. A new one is added here and in a migration like 006. */
export const SEALED_COLUMNS: readonly SealedColumn[] = [
  { table: 'cards', column: 'pan_encrypted', keyColumn: 'pan_key_id', purpose: 'card-number' },
  { table: 'card_tokens', column: 'pan_encrypted', keyColumn: 'pan_key_id', purpose: 'card-number' },
  { table: 'card_tokens', column: 'cvv_encrypted', keyColumn: 'cvv_key_id', purpose: 'card-cvv' },
  { table: 'providers', column: 'credentials_encrypted', keyColumn: 'credentials_key_id', purpose: 'provider-credentials' },
];

export const describeColumn = (c: SealedColumn) => `${c.table}.${c.column}`;

/** Values still in format 1, as the partial indexes of migration 006 select them. */
const format1 = (c: SealedColumn) => `substr(${c.column}, 1, 1) = '\\x01'::bytea`;

/** A value to move: the row's id and what is stored. */
export interface SealedRow {
  id: string;
  sealed: Buffer;
}

/** SQL over the sealed columns as a whole, by key id; never scoped by client (the vault's maintenance). */
export interface VaultKeyStore {
  /** The key ids stored values of a column are sealed with (one index probe per id). */
  keyIdsInUse(db: Queryable, column: SealedColumn): Promise<string[]>;
  /** How many values each key id seals, over every sealed column; only the ids asked for. */
  countByKey(db: Queryable, keyIds: readonly string[]): Promise<Map<string, number>>;
  /** Whether a column still holds values in format 1. */
  hasFormat1(db: Queryable, column: SealedColumn): Promise<boolean>;
  /** A few values of a column sealed with `keyId`, to check the configured key opens them. */
  samples(db: Queryable, column: SealedColumn, keyId: string, limit: number): Promise<Buffer[]>;
  /**
   * Locks up to `limit` rows whose value is sealed with one of `keyIds` or in format 1, skipping rows other
   * transactions hold (a charge using its token) and the ids in `skip`; in the caller's transaction.
   */
  lockToMove(tx: Queryable, column: SealedColumn, keyIds: readonly string[], limit: number, skip: readonly string[]): Promise<SealedRow[]>;
  /** Writes the values back, in the transaction that locked them. */
  replace(tx: Queryable, column: SealedColumn, rows: readonly SealedRow[]): Promise<void>;
  /** How many values are still sealed with one of `keyIds` or in format 1, over every sealed column. */
  countToMove(db: Queryable, keyIds: readonly string[]): Promise<number>;
}

export function createVaultKeyStore(): VaultKeyStore {
  return {
    async keyIdsInUse(db, c) {
      // A loose index scan: each step jumps to the next id in the index, so the cost follows the number of ids.
      const { rows } = await db.query<{ id: string }>(
        `WITH RECURSIVE ids(id) AS (
           SELECT min(${c.keyColumn}) FROM ${c.table}
           UNION ALL
           SELECT (SELECT min(${c.keyColumn}) FROM ${c.table} WHERE ${c.keyColumn} > ids.id) FROM ids WHERE ids.id IS NOT NULL
         )
         SELECT id FROM ids WHERE id IS NOT NULL`,
      );
      return rows.map((r) => r.id);
    },

    async countByKey(db, keyIds) {
      const counts = new Map<string, number>(keyIds.map((id) => [id, 0]));
      if (keyIds.length === 0) return counts;
      for (const c of SEALED_COLUMNS) {
        const { rows } = await db.query<{ id: string; n: number }>(
          `SELECT ${c.keyColumn} AS id, count(*)::int AS n FROM ${c.table} WHERE ${c.keyColumn} = ANY($1::text[]) GROUP BY 1`,
          [keyIds],
        );
        for (const row of rows) counts.set(row.id, (counts.get(row.id) ?? 0) + row.n);
      }
      return counts;
    },

    async hasFormat1(db, c) {
      const { rows } = await db.query<{ found: boolean }>(`SELECT EXISTS (SELECT 1 FROM ${c.table} WHERE ${format1(c)}) AS found`);
      return rows[0]!.found;
    },

    async samples(db, c, keyId, limit) {
      const { rows } = await db.query<{ sealed: Buffer }>(`SELECT ${c.column} AS sealed FROM ${c.table} WHERE ${c.keyColumn} = $1 LIMIT $2`, [keyId, limit]);
      return rows.map((r) => r.sealed);
    },

    async lockToMove(tx, c, keyIds, limit, skip) {
      const { rows } = await tx.query<SealedRow>(
        `SELECT id, ${c.column} AS sealed FROM ${c.table}
         WHERE (${c.keyColumn} = ANY($1::text[]) OR ${format1(c)}) AND id <> ALL($3::uuid[])
         LIMIT $2 FOR UPDATE SKIP LOCKED`,
        [keyIds, limit, skip],
      );
      return rows;
    },

    async replace(tx, c, rows) {
      if (rows.length === 0) return;
      await tx.query(
        `UPDATE ${c.table} t SET ${c.column} = v.sealed
         FROM unnest($1::uuid[], $2::bytea[]) AS v(id, sealed) WHERE t.id = v.id`,
        [rows.map((r) => r.id), rows.map((r) => r.sealed)],
      );
    },

    async countToMove(db, keyIds) {
      let total = 0;
      for (const c of SEALED_COLUMNS) {
        const { rows } = await db.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM ${c.table} WHERE ${c.keyColumn} = ANY($1::text[]) OR ${format1(c)}`,
          [keyIds],
        );
        total += rows[0]!.n;
      }
      return total;
    },
  };
}
