import { deriveSealingKey, openVersioned, SEAL_OVERHEAD_BYTES, sealVersioned } from '@platform/kit';

const FORMAT_VERSION = 1;

/**
 * HKDF info of each kind of sealed value: each kind has its own key, so a sealed Standard Webhooks secret never opens
 * as a private key, nor the reverse, even on the same webhook's row.
 */
const PURPOSES = { privateKey: 'platform-webhooks:signing-key', secret: 'platform-webhooks:standard-secret' } as const;

/**
 * Seals each webhook's private signing key and Standard Webhooks secret at rest with the kit's sealing (AES-256-GCM,
 * a random 96-bit nonce), under keys derived from WEBHOOKS_SIGNING_KEY. Layout: version (1) | nonce (12) | tag (16) |
 * ciphertext. The webhook id is the additional authenticated data, so a sealed value copied onto another webhook's
 * row does not open.
 */
export class KeySealer {
  private readonly keys: Record<keyof typeof PURPOSES, Buffer>;

  constructor(masterKey: Buffer) {
    if (masterKey.length !== 32) throw new Error('the webhooks signing key must be 32 bytes');
    this.keys = { privateKey: deriveSealingKey(masterKey, PURPOSES.privateKey), secret: deriveSealingKey(masterKey, PURPOSES.secret) };
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
  return sealVersioned(FORMAT_VERSION, key, webhookId, plain);
}

function openWith(key: Buffer, webhookId: string, sealed: Buffer): Buffer {
  if (sealed.length <= 1 + SEAL_OVERHEAD_BYTES || sealed[0] !== FORMAT_VERSION) throw new Error('unknown sealed key format');
  return openVersioned(FORMAT_VERSION, key, webhookId, sealed);
}
