import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/**
 * Sealing at rest: AES-256-GCM with a random 96-bit nonce and additional authenticated data that binds a value to
 * what it is for (a purpose, a row's id), so a sealed value copied elsewhere does not open. Every service that
 * keeps secrets in its database seals them with this module; the formats stored today are built from its parts:
 *
 * - a box: nonce (12) | tag (16) | ciphertext;
 * - a versioned box: version (1) | box;
 * - keys derived from a master key per use with HKDF-SHA256 (no salt, 32 bytes, the use as info);
 * - a key ring: master keys with ids, the first one seals, every one opens.
 */

/** Bytes of an AES-256 key. */
export const SEALING_KEY_BYTES = 32;
/** Bytes of the GCM nonce at the start of a box. */
export const SEAL_NONCE_BYTES = 12;
/** Bytes of the GCM tag after the nonce. */
export const SEAL_TAG_BYTES = 16;
/** Bytes a box adds to its plaintext. */
export const SEAL_OVERHEAD_BYTES = SEAL_NONCE_BYTES + SEAL_TAG_BYTES;

type Bytes = Buffer | string;

const bytes = (value: Bytes): Buffer => (typeof value === 'string' ? Buffer.from(value, 'utf8') : value);

function assertKey(key: Buffer): void {
  if (key.length !== SEALING_KEY_BYTES) throw new Error('a sealing key must be 32 bytes');
}

/** The 32-byte key of one use of a master key: HKDF-SHA256, no salt, the use as info. */
export function deriveSealingKey(master: Buffer, info: string): Buffer {
  return Buffer.from(hkdfSync('sha256', master, Buffer.alloc(0), info, SEALING_KEY_BYTES));
}

/** Seals `plaintext` under `key`, bound to `aad`: nonce (12) | tag (16) | ciphertext. */
export function sealBox(key: Buffer, aad: Bytes, plaintext: Bytes): Buffer {
  assertKey(key);
  const nonce = randomBytes(SEAL_NONCE_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, nonce);
  cipher.setAAD(bytes(aad));
  const body = Buffer.concat([cipher.update(bytes(plaintext)), cipher.final()]);
  return Buffer.concat([nonce, cipher.getAuthTag(), body]);
}

/** Opens a box sealed by `sealBox` under the same key and `aad`; throws if it is malformed, changed or not theirs. */
export function openBox(key: Buffer, aad: Bytes, box: Buffer): Buffer {
  assertKey(key);
  if (box.length < SEAL_OVERHEAD_BYTES) throw new Error('malformed sealed value');
  const decipher = createDecipheriv('aes-256-gcm', key, box.subarray(0, SEAL_NONCE_BYTES));
  decipher.setAAD(bytes(aad));
  decipher.setAuthTag(box.subarray(SEAL_NONCE_BYTES, SEAL_OVERHEAD_BYTES));
  return Buffer.concat([decipher.update(box.subarray(SEAL_OVERHEAD_BYTES)), decipher.final()]);
}

/** A box behind one version byte: version (1) | nonce (12) | tag (16) | ciphertext. */
export function sealVersioned(version: number, key: Buffer, aad: Bytes, plaintext: Bytes): Buffer {
  return Buffer.concat([Buffer.from([version]), sealBox(key, aad, plaintext)]);
}

/** Opens a versioned box; throws if its first byte is not `version`. */
export function openVersioned(version: number, key: Buffer, aad: Bytes, sealed: Buffer): Buffer {
  if (sealed.length === 0 || sealed[0] !== version) throw new Error('unknown sealed value format');
  return openBox(key, aad, sealed.subarray(1));
}

/**
 * A key id as sealed values store it: 1 to 255 printable ASCII characters without a backslash, so an id of a cloud
 * KMS (an ARN, an alias) fits as well as `k2`.
 */
export const STORED_KEY_ID = /^[!-[\]-~]{1,255}$/;

/** One master key of a ring: its id, as stored in every value sealed under it, and its 32 bytes. */
export interface RingKey {
  id: string;
  key: Buffer;
}

/**
 * Master keys with ids: the first seals, every one opens (a new key goes first to seal with it, an old one stays
 * until nothing sealed under it is left). Keys derived from a master key are kept, one per id and use. Errors name
 * the ring (`what`) and the key id, never a key.
 */
export class SealingKeyRing {
  /** The key new values are sealed under. */
  readonly sealingKeyId: string;
  /** Every key id of the ring, the sealing key first. */
  readonly keyIds: readonly string[];
  private readonly what: string;
  private readonly masters = new Map<string, Buffer>();
  private readonly derived = new Map<string, Buffer>();

  constructor(ring: readonly RingKey[], what = 'sealing ring') {
    this.what = what;
    if (ring.length === 0) throw new Error(`the ${what} needs at least one key`);
    for (const { id, key } of ring) {
      if (!STORED_KEY_ID.test(id)) throw new Error(`${what} key id ${JSON.stringify(id)} is not 1 to 255 printable characters`);
      if (key.length !== SEALING_KEY_BYTES) throw new Error(`${what} key ${id} must be 32 bytes`);
      if (this.masters.has(id)) throw new Error(`${what} key ${id} is in the ring twice`);
      this.masters.set(id, Buffer.from(key));
    }
    this.sealingKeyId = ring[0]!.id;
    this.keyIds = ring.map((k) => k.id);
  }

  has(keyId: string): boolean {
    return this.masters.has(keyId);
  }

  /** The key derived from the master key `keyId` for one use (see `deriveSealingKey`). */
  keyFor(keyId: string, info: string): Buffer {
    const name = `${keyId}\n${info}`;
    let key = this.derived.get(name);
    if (!key) {
      const master = this.masters.get(keyId);
      if (!master) throw new Error(`${this.what} key ${keyId} is not in the key ring`);
      key = deriveSealingKey(master, info);
      this.derived.set(name, key);
    }
    return key;
  }
}
