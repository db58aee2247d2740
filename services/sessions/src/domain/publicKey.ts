import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

export const SESSION_KEY_PREFIX = 'sk_session_';
const PREFIX = SESSION_KEY_PREFIX;

/**
 * A session's public key: an HMAC of its id under the service's secret, so it can be shown again on every read
 * without being stored; the table keeps only its SHA-256.
 */
export function sessionPublicKey(secret: Buffer, sessionId: string): string {
  return PREFIX + createHmac('sha256', secret).update(`session:${sessionId}`).digest('base64url');
}

export function hashPublicKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/** Compares in constant time. */
export function publicKeyMatches(storedHash: string, key: string): boolean {
  if (!key.startsWith(PREFIX)) return false;
  const a = Buffer.from(storedHash, 'hex');
  const b = Buffer.from(hashPublicKey(key), 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}
