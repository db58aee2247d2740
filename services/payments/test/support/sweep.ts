import type { Pool } from '@platform/kit';

/**
 * A CVV as something stored would show it: alone, not inside a longer run of letters or digits, a UUID or the
 * fraction of a timestamp.
 */
export function cvvPattern(cvv: string): RegExp {
  return new RegExp(`(^|[^0-9A-Za-z.-])${cvv}([^0-9A-Za-z.-]|$)`);
}

/**
 * What of a binary value could hold text written in clear: the whole value when every byte is printable, else its
 * printable runs of 8 bytes or more (as `strings -n 8` reads them). Random ciphertext holds three digits between two
 * non-alphanumeric bytes about once in 30 million places, which over a few hundred sealed values and CVVs would
 * report a CVV that is not there; a run of 8 printable bytes around them makes that chance negligible.
 */
export function printableTexts(bytes: Buffer): string[] {
  const text = bytes.toString('latin1');
  if (/^[\x20-\x7e\t\r\n]*$/.test(text)) return [text];
  return text.match(/[\x20-\x7e\t\r\n]{8,}/g) ?? [];
}

export interface Finding {
  table: string;
  column: string;
  what: string;
}

/** The columns every sweep must reach, or it proves nothing. */
const MUST_REACH = ['card_tokens.pan_encrypted', 'card_tokens.cvv_encrypted', 'cards.pan_encrypted', 'outbox.payload', 'idempotency_keys.request_hash', '_private_jobs.payload'];

/**
 * Reads every text, binary and JSON column of the service's tables and of the job queue's (graphile-worker keeps
 * its own schema), and reports where a card number, a CVV or one of `texts` shows in clear.
 */
export async function sweep(pool: Pool, needles: { numbers: string[]; cvvs: string[]; texts?: string[] }): Promise<Finding[]> {
  const { rows: columns } = await pool.query<{ table_schema: string; table_name: string; column_name: string; data_type: string }>(
    `SELECT table_schema, table_name, column_name, data_type FROM information_schema.columns
     WHERE table_schema IN ('public', 'graphile_worker') AND data_type IN ('text', 'character varying', 'character', 'bytea', 'jsonb', 'json', 'ARRAY')`,
  );
  const reached = new Set(columns.map((c) => `${c.table_name}.${c.column_name}`));
  const missed = MUST_REACH.filter((c) => !reached.has(c));
  if (missed.length > 0) throw new Error(`the sweep does not reach ${missed.join(', ')}`);
  const findings: Finding[] = [];
  for (const { table_schema: schema, table_name: table, column_name: column, data_type: type } of columns) {
    const { rows } = await pool.query<{ value: string | null }>(`SELECT "${column}"::text AS value FROM "${schema}"."${table}"`);
    for (const { value } of rows) {
      if (value === null) continue;
      const bytes = type === 'bytea' ? Buffer.from(value.slice(2), 'hex') : undefined;
      // A card number (16 digits) cannot appear in random bytes by chance, so it is looked for in the whole value;
      // a CVV only where text could be.
      const whole = bytes ? [value, bytes.toString('latin1')] : [value];
      const texts = bytes ? [value, ...printableTexts(bytes)] : [value];
      for (const text of whole) {
        for (const n of needles.numbers) if (text.includes(n)) findings.push({ table, column, what: `number ending ${n.slice(-4)}` });
        for (const t of needles.texts ?? []) if (text.includes(t)) findings.push({ table, column, what: t });
      }
      for (const text of texts) for (const c of needles.cvvs) if (cvvPattern(c).test(text)) findings.push({ table, column, what: 'a CVV' });
    }
  }
  return findings;
}
