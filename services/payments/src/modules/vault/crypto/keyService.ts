import { openBox, SEAL_OVERHEAD_BYTES, SEALING_KEY_BYTES, sealBox, SealingKeyRing, type RingKey } from '@platform/kit';

export { STORED_KEY_ID, type RingKey } from '@platform/kit';

/** What a sealed value is for; it is bound to every layer of the value, so a card number cannot be opened as credentials. */
export type SealPurpose = 'card-number' | 'card-cvv' | 'provider-credentials';

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

/**
 * The key service of keys from configuration. Each master key wraps data keys under a key derived from it per
 * purpose (HKDF-SHA256), with AES-256-GCM, the purpose and the key id bound as additional data.
 * Wrapped layout: nonce (12) | tag (16) | encrypted data key (32).
 */
export class LocalKeyService implements KeyService {
  readonly sealingKeyId: string;
  readonly keyIds: readonly string[];
  private readonly ring: SealingKeyRing;

  constructor(ring: readonly RingKey[]) {
    this.ring = new SealingKeyRing(ring, 'card vault');
    this.sealingKeyId = this.ring.sealingKeyId;
    this.keyIds = this.ring.keyIds;
  }

  private wrapKey(keyId: string, purpose: SealPurpose): Buffer {
    return this.ring.keyFor(keyId, `platform-vault:wrap:${purpose}`);
  }

  async wrap(purpose: SealPurpose, dataKey: Buffer): Promise<{ keyId: string; wrapped: Buffer }> {
    const keyId = this.sealingKeyId;
    return { keyId, wrapped: sealBox(this.wrapKey(keyId, purpose), wrapAad(purpose, keyId), dataKey) };
  }

  async unwrap(keyId: string, purpose: SealPurpose, wrapped: Buffer): Promise<Buffer> {
    if (wrapped.length !== SEAL_OVERHEAD_BYTES + SEALING_KEY_BYTES) throw new Error('wrapped data key has the wrong length');
    return openBox(this.wrapKey(keyId, purpose), wrapAad(purpose, keyId), wrapped);
  }
}

function wrapAad(purpose: SealPurpose, keyId: string): Buffer {
  return Buffer.from(`platform-vault:${purpose}:${keyId}`);
}
