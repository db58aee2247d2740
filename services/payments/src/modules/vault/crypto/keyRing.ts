import { FORMAT1_KEY_ID, Vault } from './crypto';
import { LocalKeyService, type RingKey } from './keyService';

/** A key id in CARD_ENCRYPTION_KEYS: `k2`, `2025-06`, `primary.v3`. */
const CONFIG_KEY_ID = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

/** 32 bytes from 64 hex characters or 44 base64 characters; undefined otherwise. */
function key32(text: string): Buffer | undefined {
  const bytes = /^[0-9a-fA-F]{64}$/.test(text) ? Buffer.from(text, 'hex') : /^[A-Za-z0-9+/]{43}=$/.test(text) ? Buffer.from(text, 'base64') : undefined;
  return bytes?.length === 32 ? bytes : undefined;
}

/**
 * Reads CARD_ENCRYPTION_KEYS: `id:key` entries separated by commas, the first the one that seals (put a new key
 * first to seal with it at once, last to have every process know it before it seals). Each key is 32 random bytes,
 * hex or base64. An entry without an id is the key `k0`, the one values sealed before key ids were sealed with.
 * Errors name the variable and the entry's position, never a key.
 */
export function parseKeyRing(value: string, variable = 'CARD_ENCRYPTION_KEYS'): RingKey[] {
  const entries = value
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  if (entries.length === 0) throw new Error(`${variable} has no key`);
  const ring: RingKey[] = [];
  for (const [index, entry] of entries.entries()) {
    const colon = entry.indexOf(':');
    const id = colon < 0 ? FORMAT1_KEY_ID : entry.slice(0, colon).trim();
    const key = key32(colon < 0 ? entry : entry.slice(colon + 1).trim());
    const where = `${variable}, entry ${index + 1}`;
    if (!CONFIG_KEY_ID.test(id)) throw new Error(`${where}: the key id must be letters, digits, '.', '_' or '-' (at most 64)`);
    if (!key) throw new Error(`${where}: the key must be 32 bytes, 64 hex or 44 base64 characters`);
    if (ring.some((k) => k.id === id)) throw new Error(`${where}: the key id ${id} is there twice`);
    ring.push({ id, key });
  }
  return ring;
}

/**
 * The vault's key ring from configuration: CARD_ENCRYPTION_KEYS, and CARD_ENCRYPTION_KEY (the single key of
 * earlier versions) as the key `k0` after them. Either alone is a ring; neither is a configuration error.
 */
export function cardKeyRing(config: { CARD_ENCRYPTION_KEYS?: RingKey[] | undefined; CARD_ENCRYPTION_KEY?: Buffer | undefined }): RingKey[] {
  const ring = [...(config.CARD_ENCRYPTION_KEYS ?? [])];
  const single = config.CARD_ENCRYPTION_KEY;
  if (single) {
    const k0 = ring.find((k) => k.id === FORMAT1_KEY_ID);
    if (!k0) ring.push({ id: FORMAT1_KEY_ID, key: single });
    else if (!k0.key.equals(single)) {
      throw new Error(`Invalid configuration: CARD_ENCRYPTION_KEY is the key ${FORMAT1_KEY_ID}, and CARD_ENCRYPTION_KEYS has another key ${FORMAT1_KEY_ID}`);
    }
  }
  if (ring.length === 0) {
    throw new Error(
      'Invalid configuration: CARD_ENCRYPTION_KEYS is required: the card vault key ring, "id:key" entries separated by commas (32 random bytes each, hex or base64), the first seals',
    );
  }
  return ring;
}

/** The vault over the local key service of the configured ring. */
export function vaultFromConfig(config: {
  CARD_ENCRYPTION_KEYS?: RingKey[] | undefined;
  CARD_ENCRYPTION_KEY?: Buffer | undefined;
  CARD_FINGERPRINT_KEY: Buffer;
}): Vault {
  const ring = cardKeyRing(config);
  const format1Key = ring.find((k) => k.id === FORMAT1_KEY_ID)?.key;
  return new Vault({ keys: new LocalKeyService(ring), fingerprintKey: config.CARD_FINGERPRINT_KEY, ...(format1Key ? { format1Key } : {}) });
}
