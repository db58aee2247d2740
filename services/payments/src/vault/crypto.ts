import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';

/** What a sealed value is for; each purpose gets its own key derived from the master key, and binds the ciphertext. */
export type SealPurpose = 'card-number' | 'card-cvv' | 'provider-credentials';

const FORMAT_VERSION = 1;

/**
 * AES-256-GCM with a random 96-bit nonce. Layout: version (1) | nonce (12) | tag (16) | ciphertext.
 * The purpose is the additional authenticated data, so a card number cannot be decrypted as credentials.
 */
export class Vault {
  private readonly keys = new Map<SealPurpose, Buffer>();

  constructor(
    private readonly masterKey: Buffer,
    private readonly fingerprintKey: Buffer,
  ) {
    if (masterKey.length !== 32 || fingerprintKey.length !== 32) throw new Error('vault keys must be 32 bytes');
  }

  private keyFor(purpose: SealPurpose): Buffer {
    let key = this.keys.get(purpose);
    if (!key) {
      key = Buffer.from(hkdfSync('sha256', this.masterKey, Buffer.alloc(0), `platform-vault:${purpose}`, 32));
      this.keys.set(purpose, key);
    }
    return key;
  }

  seal(purpose: SealPurpose, plaintext: string): Buffer {
    const nonce = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.keyFor(purpose), nonce);
    cipher.setAAD(Buffer.from(purpose));
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return Buffer.concat([Buffer.from([FORMAT_VERSION]), nonce, cipher.getAuthTag(), body]);
  }

  open(purpose: SealPurpose, sealed: Buffer): string {
    if (sealed.length < 29 || sealed[0] !== FORMAT_VERSION) throw new Error('unknown sealed value format');
    const decipher = createDecipheriv('aes-256-gcm', this.keyFor(purpose), sealed.subarray(1, 13));
    decipher.setAAD(Buffer.from(purpose));
    decipher.setAuthTag(sealed.subarray(13, 29));
    return Buffer.concat([decipher.update(sealed.subarray(29)), decipher.final()]).toString('utf8');
  }

  /** Same card number, same fingerprint; the number cannot be recovered from it without the key. */
  fingerprint(cardNumber: string): string {
    return createHmac('sha256', this.fingerprintKey).update(cardNumber).digest('base64url');
  }
}
