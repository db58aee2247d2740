import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from 'pg';
import { serviceByName } from '@platform/catalog';
import { postgresUrl, startPostgres } from '@platform/testkit';
import { writeFileAtomic } from './files';

/**
 * `npm run rotate-card-key`: rotates the card vault's master key of a local platform (`npm start`), kept in
 * DATA_DIR/keys.json as CARD_ENCRYPTION_KEYS, `id:key` entries with the sealing key first (see the payments README).
 *
 *   npm run rotate-card-key                   puts a new key first; the next `npm start` seals with it, and the
 *                                             payments service re-wraps every stored value under it in the background
 *   npm run rotate-card-key -- --remove-old   removes the keys after the first, once no stored value needs them
 *                                             (it asks the payments database; the keys stay if one does)
 *
 * Keys are never printed, only their ids.
 */

const RING_VARIABLE = 'CARD_ENCRYPTION_KEYS';
/** The single card key of key files from before key rings: the ring's key k0. */
const LEGACY_VARIABLE = 'CARD_ENCRYPTION_KEY';
/** The id of a ring entry without one, and of the single key of earlier versions. */
const BARE_KEY_ID = 'k0';

export interface RingEntry {
  id: string;
  /** As written: hex or base64. */
  key: string;
}

/** The entries of a ring value (`k2:<key>,k1:<key>`; an entry without an id is k0), in order. */
export function parseRing(value: string): RingEntry[] {
  return value
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '')
    .map((entry) => {
      const colon = entry.indexOf(':');
      return colon < 0 ? { id: BARE_KEY_ID, key: entry } : { id: entry.slice(0, colon).trim(), key: entry.slice(colon + 1).trim() };
    });
}

export function ringValue(ring: readonly RingEntry[]): string {
  return ring.map((entry) => `${entry.id}:${entry.key}`).join(',');
}

/**
 * A key file as this version reads it: the single card key of an older file becomes the ring of that one key, so
 * the cards it sealed still open. `changed` says whether the file should be written again.
 */
export function carryCardKey<K extends Record<string, string | undefined>>(stored: K): { keys: K; changed: boolean } {
  const legacy = stored[LEGACY_VARIABLE];
  if (legacy === undefined) return { keys: stored, changed: false };
  const { [LEGACY_VARIABLE]: _dropped, ...rest } = stored;
  const ring = rest[RING_VARIABLE] ? parseRing(rest[RING_VARIABLE]) : [];
  if (!ring.some((entry) => entry.id === BARE_KEY_ID)) ring.push({ id: BARE_KEY_ID, key: legacy });
  return { keys: { ...rest, [RING_VARIABLE]: ringValue(ring) } as unknown as K, changed: true };
}

/** `k<n+1>` after the highest `k<n>` of the ring. */
export function nextKeyId(ring: readonly RingEntry[]): string {
  const numbers = ring.map((entry) => /^k(\d+)$/.exec(entry.id)).map((match) => (match ? Number(match[1]) : -1));
  return `k${Math.max(-1, ...numbers) + 1}`;
}

/** The ring with a fresh key first: the key new values are sealed with from the next start on. */
export function withNewKey(ring: readonly RingEntry[], key: string = randomBytes(32).toString('hex')): { ring: RingEntry[]; id: string } {
  const id = nextKeyId(ring);
  return { ring: [{ id, key }, ...ring], id };
}

/** Every sealed column of the payments database and the key id the database derives beside it (its migration 006). */
const KEY_COLUMNS = [
  ['cards', 'pan_key_id'],
  ['card_tokens', 'pan_key_id'],
  ['card_tokens', 'cvv_key_id'],
  ['providers', 'credentials_key_id'],
] as const;

/** How many stored values of the payments database at `url` are sealed with one of `keyIds` (0 when it does not exist yet). */
export async function countSealedWith(url: string, keyIds: readonly string[]): Promise<number> {
  const client = new Client({ connectionString: url });
  client.on('error', () => undefined);
  try {
    await client.connect();
  } catch (error) {
    // No payments database yet: nothing is sealed.
    if ((error as { code?: string }).code === '3D000') return 0;
    throw error;
  }
  try {
    let total = 0;
    for (const [table, column] of KEY_COLUMNS) {
      const { rows } = await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table} WHERE ${column} = ANY($1::text[])`, [keyIds]);
      total += rows[0]!.n;
    }
    return total;
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === '42P01') return 0;
    if (code === '42703') throw new Error('the payments database predates key ids: start the platform once (npm start) so it is migrated', { cause: error });
    throw error;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** The port of the PostgreSQL that `npm start` runs on this data folder, when it is running. */
function runningPostgresPort(postgresDir: string): number | undefined {
  const pidFile = path.join(postgresDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return undefined;
  const [pid, , , port] = readFileSync(pidFile, 'utf8').split('\n');
  try {
    process.kill(Number(pid), 0);
  } catch (error) {
    if ((error as { code?: string }).code === 'ESRCH') return undefined;
  }
  return Number(port);
}

/** Runs `use` with the URL of the local payments database: on the running PostgreSQL, or on one started for it. */
async function withPaymentsDatabase<T>(dataDir: string, use: (url: string) => Promise<T>): Promise<T> {
  const database = serviceByName('payments')?.database ?? 'payments';
  const postgresDir = path.join(dataDir, 'postgres');
  const port = runningPostgresPort(postgresDir);
  if (port) return use(postgresUrl(port, database));
  if (!existsSync(path.join(postgresDir, 'PG_VERSION'))) return use('');
  const server = await startPostgres({ dataDir: postgresDir });
  try {
    return await use(server.url(database));
  } finally {
    await server.stop();
  }
}

function say(line: string): void {
  process.stdout.write(`${line}\n`);
}

async function main(args: string[]): Promise<number> {
  const repoRoot = path.resolve(__dirname, '..', '..', '..');
  const dataDir = path.resolve(process.env.DATA_DIR ?? path.join(repoRoot, '.data'));
  const keysFile = path.join(dataDir, 'keys.json');
  const remove = args.includes('--remove-old');
  if (args.some((arg) => arg !== '--remove-old')) {
    say('usage: npm run rotate-card-key [-- --remove-old]');
    return 2;
  }
  if (!existsSync(keysFile)) {
    say(`no key file in ${dataDir} yet: npm start makes one at its first start`);
    return 1;
  }
  const { keys } = carryCardKey(JSON.parse(readFileSync(keysFile, 'utf8')) as Record<string, string>);
  const ring = parseRing(keys[RING_VARIABLE] ?? '');
  if (ring.length === 0) {
    say(`${keysFile} has no card key: npm start makes one`);
    return 1;
  }
  const write = (next: RingEntry[]) => writeFileAtomic(keysFile, `${JSON.stringify({ ...keys, [RING_VARIABLE]: ringValue(next) }, null, 2)}\n`);

  if (!remove) {
    const added = withNewKey(ring);
    write(added.ring);
    say(`card vault key ring: ${added.ring.map((entry) => entry.id).join(', ')} (${added.id} seals from the next start on)`);
    say(`(re)start the platform with npm start: payments seals with ${added.id} at once and re-wraps the stored card data in the background;`);
    say(`once its log says "every stored value is sealed with the sealing key", npm run rotate-card-key -- --remove-old removes ${ring.map((e) => e.id).join(', ')}`);
    return 0;
  }

  if (ring.length === 1) {
    say(`card vault key ring: ${ring[0]!.id} only; nothing to remove`);
    return 0;
  }
  const [sealing, ...older] = ring as [RingEntry, ...RingEntry[]];
  const olderIds = older.map((entry) => entry.id);
  const left = await withPaymentsDatabase(dataDir, (url) => (url ? countSealedWith(url, olderIds) : Promise.resolve(0)));
  if (left > 0) {
    const verb = olderIds.length === 1 ? 'seals' : 'seal';
    say(`${olderIds.join(', ')} still ${verb} ${left} stored values: the keys stay. Start the platform (npm start) and let payments re-wrap them first.`);
    return 1;
  }
  write([sealing]);
  say(`card vault key ring: ${sealing.id} (removed ${olderIds.join(', ')}: no stored value needs ${olderIds.length === 1 ? 'it' : 'them'}); the next npm start uses it`);
  return 0;
}

if (require.main === module) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error: unknown) => {
      process.stderr.write(`rotate-card-key: ${(error as Error).message}\n`);
      process.exit(1);
    },
  );
}
