import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

const FORMAT_VERSION = 1;
const HEADER_LENGTH = 1 + 12 + 16;

/**
 * HKDF info of each kind of sealed value: each kind has its own key, so a sealed Standard Webhooks secret never opens
 * as a private key, nor the reverse, even on the same webhook's row.
 */
const PURPOSES = { privateKey: 'platform-webhooks:signing-key', secret: 'platform-webhooks:standard-secret' } as const;

/**
 * Seals each webhook's private signing key and Standard Webhooks secret at rest with AES-256-GCM and a random 96-bit
 * nonce, under keys derived from WEBHOOKS_SIGNING_KEY. Layout: version (1) | nonce (12) | tag (16) | ciphertext. The
 * webhook id is the additional authenticated data, so a sealed value copied onto another webhook's row does not open.
 */
export class KeySealer {
  private readonly keys: Record<keyof typeof PURPOSES, Buffer>;

  constructor(masterKey: Buffer) {
    if (masterKey.length !== 32) throw new Error('the webhooks signing key must be 32 bytes');
    const derive = (info: string) => Buffer.from(hkdfSync('sha256', masterKey, Buffer.alloc(0), info, 32));
    this.keys = { privateKey: derive(PURPOSES.privateKey), secret: derive(PURPOSES.secret) };
  }

  seal(webhookId: string, privateKey: Buffer): Buffer {
    return sealWith(this.keys.privateKey, webhookId, privateKey);
  }

  open(webhookId: string, sealed: Buffer): Buffer {
    return openWith(this.keys.privateKey, webhookId, sealed);
  }

  /** Seals the raw bytes of a Standard Webhooks secret (what follows "whsec_", decoded). */
  sealSecret(webhookId: string, secretKey: Buffer): Buffer {
    return sealWith(this.keys.secret, webhookId, secretKey);
  }

  openSecret(webhookId: string, sealed: Buffer): Buffer {
    return openWith(this.keys.secret, webhookId, sealed);
  }
}

function sealWith(key: Buffer, webhookId: string, plain: Buffer): Buffer {
  const nonce = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, nonce);
  cipher.setAAD(Buffer.from(webhookId));
  const body = Buffer.concat([cipher.update(plain), cipher.final()]);
  return Buffer.concat([Buffer.from([FORMAT_VERSION]), nonce, cipher.getAuthTag(), body]);
}

function openWith(key: Buffer, webhookId: string, sealed: Buffer): Buffer {
  if (sealed.length <= HEADER_LENGTH || sealed[0] !== FORMAT_VERSION) throw new Error('unknown sealed key format');
  const decipher = createDecipheriv('aes-256-gcm', key, sealed.subarray(1, 13));
  decipher.setAAD(Buffer.from(webhookId));
  decipher.setAuthTag(sealed.subarray(13, HEADER_LENGTH));
  return Buffer.concat([decipher.update(sealed.subarray(HEADER_LENGTH)), decipher.final()]);
}
