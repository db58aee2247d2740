import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

const FORMAT_VERSION = 1;
const HEADER_LENGTH = 1 + 12 + 16;

/**
 * Seals each webhook's private signing key at rest with AES-256-GCM and a random 96-bit nonce, under a key derived
 * from WEBHOOKS_SIGNING_KEY. Layout: version (1) | nonce (12) | tag (16) | ciphertext. The webhook id is the
 * additional authenticated data, so a sealed key copied onto another webhook's row does not open.
 */
export class KeySealer {
  private readonly key: Buffer;

  constructor(masterKey: Buffer) {
    if (masterKey.length !== 32) throw new Error('the webhooks signing key must be 32 bytes');
    this.key = Buffer.from(hkdfSync('sha256', masterKey, Buffer.alloc(0), 'platform-webhooks:signing-key', 32));
  }

  seal(webhookId: string, privateKey: Buffer): Buffer {
    const nonce = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, nonce);
    cipher.setAAD(Buffer.from(webhookId));
    const body = Buffer.concat([cipher.update(privateKey), cipher.final()]);
    return Buffer.concat([Buffer.from([FORMAT_VERSION]), nonce, cipher.getAuthTag(), body]);
  }

  open(webhookId: string, sealed: Buffer): Buffer {
    if (sealed.length <= HEADER_LENGTH || sealed[0] !== FORMAT_VERSION) throw new Error('unknown sealed key format');
    const decipher = createDecipheriv('aes-256-gcm', this.key, sealed.subarray(1, 13));
    decipher.setAAD(Buffer.from(webhookId));
    decipher.setAuthTag(sealed.subarray(13, HEADER_LENGTH));
    return Buffer.concat([decipher.update(sealed.subarray(HEADER_LENGTH)), decipher.final()]);
  }
}
