import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/** What a sealed value is for; it is bound to every layer of the value, so a card number cannot be opened as credentials. */
export type SealPurpose = 'card-number' | 'card-cvv' | 'provider-credentials';

/**
 * A key id as the sealed format stores it: 1 to 255 printable ASCII characters without a backslash, so an id of a
 * cloud KMS (an ARN, an alias) fits as well as `k2`. The database reads it back out of the value.
 */
export const STORED_KEY_ID = /^[!-[\]-~]{1,255}$/;

/**
 * Where the master keys of the vault live. The vault hands it a fresh data key to wrap under the sealing key, and a
 * wrapped data key (with the id of the key that wrapped it) to unwrap; the master keys themselves never leave it.
 * The local adapter below keeps them in memory from configuration (CARD_ENCRYPTION_KEYS). A cloud KMS or HSM
 * adapter makes one call each way: AWS KMS `Encrypt`/`Decrypt` (or `GenerateDataKey` for the wrap), Google Cloud
 * KMS `encrypt`/`decrypt`, Azure Key Vault `wrapKey`/`unwrapKey`, PKCS#11 `C_WrapKey`/`C_UnwrapKey`, with the
 * purpose as encryption context / additional data. See the payments README, "Card vault keys".
 */
export interface KeyService {
  /** The key new values are wrapped under. */
  readonly sealingKeyId: string;
  /** Every key it can unwrap with, the sealing key first. */
  readonly keyIds: readonly string[];
  /** Wraps a data key under the sealing key, bound to the purpose. */
  wrap(purpose: SealPurpose, dataKey: Buffer): Promise<{ keyId: string; wrapped: Buffer }>;
  /** Unwraps a data key wrapped by `wrap` under `keyId` for the same purpose; throws if it was changed or the key is not there. */
  unwrap(keyId: string, purpose: SealPurpose, wrapped: Buffer): Promise<Buffer>;
}

/** One master key of the ring: its id, as stored in every value sealed under it, and its 32 bytes. */
export interface RingKey {
  id: string;
  key: Buffer;
}

const NONCE = 12;
const TAG = 16;

/**
 * The key service of keys from configuration. Each master key wraps data keys under a key derived from it per
 * purpose (HKDF-SHA256), with AES-256-GCM, the purpose and the key id bound as additional data.
 * Wrapped layout: nonce (12) | tag (16) | encrypted data key (32).
 */
export class LocalKeyService implements KeyService {
  readonly sealingKeyId: string;
  readonly keyIds: readonly string[];
  private readonly masters = new Map<string, Buffer>();
  private readonly wrapKeys = new Map<string, Buffer>();

  constructor(ring: readonly RingKey[]) {
    if (ring.length === 0) throw new Error('the card vault needs at least one key');
    for (const { id, key } of ring) {
      if (!STORED_KEY_ID.test(id)) throw new Error(`card vault key id ${JSON.stringify(id)} is not 1 to 255 printable characters`);
      if (key.length !== 32) throw new Error(`card vault key ${id} must be 32 bytes`);
      if (this.masters.has(id)) throw new Error(`card vault key ${id} is in the ring twice`);
      this.masters.set(id, Buffer.from(key));
    }
    this.sealingKeyId = ring[0]!.id;
    this.keyIds = ring.map((k) => k.id);
  }

  private wrapKey(keyId: string, purpose: SealPurpose): Buffer {
    const name = `${keyId}\n${purpose}`;
    let key = this.wrapKeys.get(name);
    if (!key) {
      const master = this.masters.get(keyId);
      if (!master) throw new Error(`card vault key ${keyId} is not in the key ring`);
      key = Buffer.from(hkdfSync('sha256', master, Buffer.alloc(0), `platform-vault:wrap:${purpose}`, 32));
      this.wrapKeys.set(name, key);
    }
    return key;
  }

  async wrap(purpose: SealPurpose, dataKey: Buffer): Promise<{ keyId: string; wrapped: Buffer }> {
    const keyId = this.sealingKeyId;
    const nonce = randomBytes(NONCE);
    const cipher = createCipheriv('aes-256-gcm', this.wrapKey(keyId, purpose), nonce);
    cipher.setAAD(wrapAad(purpose, keyId));
    const body = Buffer.concat([cipher.update(dataKey), cipher.final()]);
    return { keyId, wrapped: Buffer.concat([nonce, cipher.getAuthTag(), body]) };
  }

  async unwrap(keyId: string, purpose: SealPurpose, wrapped: Buffer): Promise<Buffer> {
    if (wrapped.length !== NONCE + TAG + 32) throw new Error('wrapped data key has the wrong length');
    const decipher = createDecipheriv('aes-256-gcm', this.wrapKey(keyId, purpose), wrapped.subarray(0, NONCE));
    decipher.setAAD(wrapAad(purpose, keyId));
    decipher.setAuthTag(wrapped.subarray(NONCE, NONCE + TAG));
    return Buffer.concat([decipher.update(wrapped.subarray(NONCE + TAG)), decipher.final()]);
  }
}

function wrapAad(purpose: SealPurpose, keyId: string): Buffer {
  return Buffer.from(`platform-vault:${purpose}:${keyId}`);
}
