import { createDecipheriv, createHmac, createPrivateKey, constants, generateKeyPairSync, privateDecrypt, timingSafeEqual } from 'node:crypto';

/**
 * Adyen's client-side encrypted card fields as the Checkout API takes them (`encryptedCardNumber`, ...): a compact
 * JWE with `alg` RSA-OAEP-256 and `enc` A256CBC-HS512, over `{<field>: value, "generationtime": ISO 8601}`, made
 * with the merchant's client encryption public key (`exponent|modulus` in hexadecimal). The simulator holds the
 * private half and decrypts them.
 */

export interface ClientEncryptionKeys {
  /** PKCS#8 PEM: what the simulator decrypts with. */
  privateKey: string;
  /** Adyen's notation of the public key (`10001|<modulus hex>`), as the Customer Area shows it. */
  publicKey: string;
}

/** A fresh 2048-bit key pair for an account of the simulator. */
export function adyenClientEncryptionKeys(): ClientEncryptionKeys {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const jwk = publicKey.export({ format: 'jwk' });
  const hex = (value: string | undefined) => Buffer.from(value ?? '', 'base64url').toString('hex').toUpperCase();
  return { privateKey: privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(), publicKey: `${hex(jwk.e).replace(/^0+/, '')}|${hex(jwk.n)}` };
}

/** The value of `field` inside an encrypted field, with its generation time; undefined when it does not decrypt. */
export function decryptField(privateKeyPem: string, field: string, jwe: unknown): { value: string; generatedAt: Date } | undefined {
  if (typeof jwe !== 'string') return undefined;
  const parts = jwe.split('.');
  if (parts.length !== 5) return undefined;
  try {
    const [header, encryptedKey, iv, ciphertext, tag] = parts.map((part) => Buffer.from(part, 'base64url')) as [Buffer, Buffer, Buffer, Buffer, Buffer];
    const declared = JSON.parse(header.toString('utf8')) as { alg?: string; enc?: string };
    if (declared.alg !== 'RSA-OAEP-256' || declared.enc !== 'A256CBC-HS512') return undefined;
    const cek = privateDecrypt({ key: createPrivateKey(privateKeyPem), padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, encryptedKey);
    if (cek.length !== 64) return undefined;
    const aad = Buffer.from(parts[0]!, 'ascii');
    const bits = Buffer.alloc(8);
    bits.writeBigUInt64BE(BigInt(aad.length * 8));
    const expected = createHmac('sha512', cek.subarray(0, 32)).update(Buffer.concat([aad, iv, ciphertext, bits])).digest().subarray(0, 32);
    if (tag.length !== expected.length || !timingSafeEqual(tag, expected)) return undefined;
    const decipher = createDecipheriv('aes-256-cbc', cek.subarray(32), iv);
    const plain = JSON.parse(Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString('utf8')) as Record<string, unknown>;
    const value = plain[field];
    const generatedAt = new Date(String(plain.generationtime));
    if (typeof value !== 'string' || Number.isNaN(generatedAt.getTime())) return undefined;
    return { value, generatedAt };
  } catch {
    return undefined;
  }
}
