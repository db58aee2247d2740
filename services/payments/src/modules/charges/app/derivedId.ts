import { createHash } from 'node:crypto';
import { requestHash } from '@platform/kit';

/**
 * A UUID derived from the client, its idempotency key and the request: the retry that takes over an attempt
 * which died half way computes the same id, and so finds what that attempt left or sends the providers the same
 * keys again.
 */
export function derivedId(clientId: string, key: string, operation: string, request: unknown): string {
  const hash = createHash('sha256').update(`${clientId}\0${key}\0${requestHash(operation, request)}`).digest();
  hash[6] = (hash[6]! & 0x0f) | 0x80;
  hash[8] = (hash[8]! & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}
