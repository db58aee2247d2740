import { createCipheriv, createHmac, createPublicKey, constants, publicEncrypt, randomBytes, type KeyObject } from 'node:crypto';

/**
 * Adyen's client-side encryption of card fields, for merchant accounts that take encrypted fields instead of raw
 * card data ("Client-side encryption"; the format Adyen's own Android and iOS card encrypters produce): each field
 * is a compact JWE (RFC 7516) with the header `{"alg":"RSA-OAEP-256","enc":"A256CBC-HS512","version":"1"}`,
 * encrypted to the merchant's client encryption public key (Customer Area, the API credential's "Client-side
 * encryption" key, written `exponent|modulus` in hexadecimal), over the JSON `{<field>: value, "generationtime":
 * ISO 8601 UTC with milliseconds}`. Adyen refuses fields generated more than a day before they reach it, so they
 * are made for each request, never stored.
 */

const HEADER = Buffer.from(JSON.stringify({ alg: 'RSA-OAEP-256', enc: 'A256CBC-HS512', version: '1' })).toString('base64url');

/** The merchant's key (`10001|C4F4...`) as a public key; undefined when it is not one. */
export function clientEncryptionKey(text: unknown): KeyObject | undefined {
  if (typeof text !== 'string') return undefined;
  const match = /^([0-9A-Fa-f]{1,8})\|([0-9A-Fa-f]{256,1024})$/.exec(text.trim());
  if (!match) return undefined;
  const hex = (value: string) => Buffer.from(value.length % 2 === 0 ? value : `0${value}`, 'hex').toString('base64url');
  try {
    return createPublicKey({ key: { kty: 'RSA', e: hex(match[1]!), n: hex(match[2]!) }, format: 'jwk' });
  } catch {
    return undefined;
  }
}

/** One field as Adyen's client-side encryption writes it. */
export function encryptField(key: KeyObject, field: string, value: string, generatedAt: Date): string {
  const plain = Buffer.from(JSON.stringify({ [field]: value, generationtime: generatedAt.toISOString() }), 'utf8');
  // A256CBC-HS512 (RFC 7518 5.2.5): a 64-byte key, the first half for the HMAC-SHA-512, the second for AES-256-CBC.
  const cek = randomBytes(64);
  const iv = randomBytes(16);
  const cipher = createCipheriv('aes-256-cbc', cek.subarray(32), iv);
  const ciphertext = Buffer.concat([cipher.update(plain), cipher.final()]);
  const aad = Buffer.from(HEADER, 'ascii');
  const aadBits = Buffer.alloc(8);
  aadBits.writeBigUInt64BE(BigInt(aad.length * 8));
  const tag = createHmac('sha512', cek.subarray(0, 32)).update(Buffer.concat([aad, iv, ciphertext, aadBits])).digest().subarray(0, 32);
  const encryptedKey = publicEncrypt({ key, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, cek);
  return [HEADER, encryptedKey.toString('base64url'), iv.toString('base64url'), ciphertext.toString('base64url'), tag.toString('base64url')].join('.');
}
