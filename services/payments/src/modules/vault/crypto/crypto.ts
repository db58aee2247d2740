import { createHmac, randomBytes } from 'node:crypto';
import { deriveSealingKey, openBox, SEAL_OVERHEAD_BYTES, SEALING_KEY_BYTES, sealBox } from '@platform/kit';
import { STORED_KEY_ID, type KeyService, type SealPurpose } from './keyService';

export type { SealPurpose } from './keyService';

/**
 * The key id of values in format 1, sealed before values carried one: the ring key `k0` opens them, and
 * `CARD_ENCRYPTION_KEY` (the variable of that time) is that key. Migration 006 derives the same id in SQL.
 */
export const FORMAT1_KEY_ID = 'k0';

const FORMAT1 = 1;
const FORMAT2 = 2;

/** The parts of a value in format 2. */
interface Envelope {
  keyId: string;
  wrapped: Buffer;
  /** nonce | tag | ciphertext, untouched by a re-wrap. */
  body: Buffer;
}

function header(keyId: string, wrapped: Buffer): Buffer {
  // What a key service answers must fit the format: an id of 1 to 255 printable characters, a wrapped key under 64 KiB.
  if (!STORED_KEY_ID.test(keyId)) throw new Error('the key service answered a key id the sealed format cannot hold');
  if (wrapped.length === 0 || wrapped.length > 0xffff) throw new Error('the key service answered a wrapped key the sealed format cannot hold');
  const id = Buffer.from(keyId, 'latin1');
  const length = Buffer.alloc(2);
  length.writeUInt16BE(wrapped.length);
  return Buffer.concat([Buffer.from([FORMAT2, id.length]), id, length, wrapped]);
}

function parseFormat2(sealed: Buffer): Envelope {
  const bad = () => new Error('malformed sealed value');
  if (sealed.length < 2) throw bad();
  const idEnd = 2 + sealed[1]!;
  if (sealed.length < idEnd + 2) throw bad();
  const keyId = sealed.subarray(2, idEnd).toString('latin1');
  if (!STORED_KEY_ID.test(keyId)) throw bad();
  const wrappedEnd = idEnd + 2 + sealed.readUInt16BE(idEnd);
  if (sealed.length < wrappedEnd + SEAL_OVERHEAD_BYTES) throw bad();
  return { keyId, wrapped: sealed.subarray(idEnd + 2, wrappedEnd), body: sealed.subarray(wrappedEnd) };
}

function decrypt(key: Buffer, purpose: SealPurpose, body: Buffer): string {
  return openBox(key, purpose, body).toString('utf8');
}

export interface VaultOptions {
  /** Wraps and unwraps the data keys: the master keys live there. */
  keys: KeyService;
  /** Key of the card fingerprint (HMAC-SHA256 of the number); not part of the ring (see the README). */
  fingerprintKey: Buffer;
  /** The master key `k0`, when the ring has it: values in format 1 are opened with keys derived from it directly. */
  format1Key?: Buffer;
}

/**
 * Envelope encryption of card numbers, token CVVs and provider credentials. Each value gets a fresh 256-bit data
 * key: the value is sealed under it by the kit's sealing (AES-256-GCM, random 96-bit nonce, the purpose as
 * additional data), and the data key is wrapped by the key service under the sealing master key of the ring.
 *
 * Format 2: version (1) = 2 | key id length (1) | key id (ASCII) | wrapped key length (2, big endian) |
 * wrapped data key | nonce (12) | tag (16) | ciphertext.
 *
 * Format 1 (before key ids): version (1) = 1 | nonce (12) | tag (16) | ciphertext, under a key derived per purpose
 * (HKDF-SHA256) from the master key `k0`. It still opens; the re-wrap job seals such values again in format 2.
 */
export class Vault {
  private readonly keys: KeyService;
  private readonly fingerprintKey: Buffer;
  private readonly format1Key?: Buffer;
  private readonly format1Keys = new Map<SealPurpose, Buffer>();

  constructor(options: VaultOptions) {
    if (options.fingerprintKey.length !== 32) throw new Error('the card fingerprint key must be 32 bytes');
    if (options.format1Key && options.format1Key.length !== 32) throw new Error('vault keys must be 32 bytes');
    this.keys = options.keys;
    this.fingerprintKey = options.fingerprintKey;
    this.format1Key = options.format1Key;
  }

  /** The key new values are sealed under: the first of the ring. */
  get sealingKeyId(): string {
    return this.keys.sealingKeyId;
  }

  /** Every key id the vault can open with, the sealing key first. */
  get keyIds(): readonly string[] {
    return this.keys.keyIds;
  }

  async seal(purpose: SealPurpose, plaintext: string): Promise<Buffer> {
    const dataKey = randomBytes(SEALING_KEY_BYTES);
    try {
      const { keyId, wrapped } = await this.keys.wrap(purpose, dataKey);
      return Buffer.concat([header(keyId, wrapped), sealBox(dataKey, purpose, plaintext)]);
    } finally {
      dataKey.fill(0);
    }
  }

  async open(purpose: SealPurpose, sealed: Buffer): Promise<string> {
    if (sealed[0] === FORMAT1) {
      if (sealed.length < 1 + SEAL_OVERHEAD_BYTES) throw new Error('malformed sealed value');
      return decrypt(this.format1KeyFor(purpose), purpose, sealed.subarray(1));
    }
    if (sealed[0] !== FORMAT2) throw new Error('unknown sealed value format');
    const { keyId, wrapped, body } = parseFormat2(sealed);
    const dataKey = await this.keys.unwrap(keyId, purpose, wrapped);
    try {
      return decrypt(dataKey, purpose, body);
    } finally {
      dataKey.fill(0);
    }
  }

  /**
   * The value under the sealing key, or null when it already is. A value in format 2 keeps its nonce, tag and
   * ciphertext: only its data key is unwrapped and wrapped again. A value in format 1 is opened and sealed again.
   */
  async rewrap(purpose: SealPurpose, sealed: Buffer): Promise<Buffer | null> {
    if (sealed[0] === FORMAT1) return this.seal(purpose, await this.open(purpose, sealed));
    if (sealed[0] !== FORMAT2) throw new Error('unknown sealed value format');
    const { keyId, wrapped, body } = parseFormat2(sealed);
    if (keyId === this.keys.sealingKeyId) return null;
    const dataKey = await this.keys.unwrap(keyId, purpose, wrapped);
    try {
      // The card data is never decrypted here: its ciphertext is carried over under the same data key.
      const next = await this.keys.wrap(purpose, dataKey);
      return Buffer.concat([header(next.keyId, next.wrapped), body]);
    } finally {
      dataKey.fill(0);
    }
  }

  /** Same card number, same fingerprint; the number cannot be recovered from it without the key. */
  fingerprint(cardNumber: string): string {
    return createHmac('sha256', this.fingerprintKey).update(cardNumber).digest('base64url');
  }

  private format1KeyFor(purpose: SealPurpose): Buffer {
    if (!this.format1Key) throw new Error(`a value sealed before key ids needs the key ${FORMAT1_KEY_ID}, which the key ring lacks`);
    let key = this.format1Keys.get(purpose);
    if (!key) {
      key = deriveSealingKey(this.format1Key, `platform-vault:${purpose}`);
      this.format1Keys.set(purpose, key);
    }
    return key;
  }
}

/** The key id a sealed value names (`k0` for format 1), as migration 006 derives it in the database. */
export function keyIdOf(sealed: Buffer): string {
  if (sealed[0] === FORMAT1) return FORMAT1_KEY_ID;
  if (sealed[0] === FORMAT2) return parseFormat2(sealed).keyId;
  throw new Error('unknown sealed value format');
}
