import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Environment } from './clients';

export type KeyKind = 'secret' | 'public';

export interface ApiKey {
  id: string;
  clientId: string;
  kind: KeyKind;
  /** Resources a public key reaches; empty for a secret key, which reaches everything. */
  scopes: string[];
  expiresAt: Date | null;
  revokedAt: Date | null;
  createdAt: Date;
}

const KEY_BYTES = 32;
const KEY_FORMAT = /^(sk|pk)_(sandbox|live)_[A-Za-z0-9_-]{43}$/;

/** `sk_live_...` for a secret key, `pk_sandbox_...` for a public one: recognisable in a leak scan or a support ticket. */
export function generateApiKey(kind: KeyKind, environment: Environment): string {
  return `${kind === 'secret' ? 'sk' : 'pk'}_${environment}_${randomBytes(KEY_BYTES).toString('base64url')}`;
}

export function looksLikeApiKey(value: string): boolean {
  return KEY_FORMAT.test(value);
}

/**
 * A plain SHA-256 is enough here: the key is 256 random bits, so no guess list or rainbow table reaches it, and
 * a slow password hash (bcrypt, scrypt) would only add latency to every request without adding security.
 */
export function hashApiKey(key: string): Buffer {
  return createHash('sha256').update(key, 'utf8').digest();
}

export function sameHash(stored: Buffer, presented: Buffer): boolean {
  return stored.length === presented.length && timingSafeEqual(stored, presented);
}

export function isKeyUsable(key: Pick<ApiKey, 'revokedAt' | 'expiresAt'>, now: Date): boolean {
  if (key.revokedAt !== null) return false;
  return key.expiresAt === null || key.expiresAt.getTime() > now.getTime();
}
