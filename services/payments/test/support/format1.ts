import { createCipheriv, hkdfSync, randomBytes } from 'node:crypto';
import type { SealPurpose } from '../../src/modules/vault/crypto/keyService';

/** A value as the vault sealed it before key ids (format 1): version | nonce | tag | ciphertext under HKDF(master, purpose). */
export function sealFormat1(master: Buffer, purpose: SealPurpose, plaintext: string): Buffer {
  const key = Buffer.from(hkdfSync('sha256', master, Buffer.alloc(0), `platform-vault:${purpose}`, 32));
  const nonce = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, nonce);
  cipher.setAAD(Buffer.from(purpose));
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return Buffer.concat([Buffer.from([1]), nonce, cipher.getAuthTag(), body]);
}
