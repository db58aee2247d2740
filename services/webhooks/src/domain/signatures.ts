import { createHmac, createPrivateKey, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';

/** A new Ed25519 key pair: the public key as SPKI PEM (what clients get), the private key as PKCS#8 DER (sealed). */
export function newSigningKeyPair(): { publicKey: string; privateKey: Buffer } {
  const pair = generateKeyPairSync('ed25519');
  return {
    publicKey: pair.publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    privateKey: pair.privateKey.export({ type: 'pkcs8', format: 'der' }),
  };
}

export function privateKeyOf(pkcs8Der: Buffer): KeyObject {
  return createPrivateKey({ key: pkcs8Der, format: 'der', type: 'pkcs8' });
}

/** What X-Plug-Signature signs. */
export function plugSignedContent(date: string, body: string): string {
  return `${date}\n${body}`;
}

/** What webhook-signature signs (Standard Webhooks). */
export function standardSignedContent(id: string, timestamp: string, body: string): string {
  return `${id}.${timestamp}.${body}`;
}

/** Standard Webhooks symmetric secrets: "whsec_" and the base64 of the key's bytes. */
export const SECRET_PREFIX = 'whsec_';
const SECRET_BYTES = 32;
/** How long the secret a rotation replaced still signs deliveries beside the new one. */
export const SECRET_OVERLAP_MS = 24 * 3600_000;

/** A new Standard Webhooks secret, of 32 random bytes. */
export function newWebhookSecret(): string {
  return secretOfKey(randomBytes(SECRET_BYTES));
}

export function secretOfKey(key: Buffer): string {
  return `${SECRET_PREFIX}${key.toString('base64')}`;
}

/** The HMAC key of a secret: the bytes after "whsec_", as the standard's libraries decode them. */
export function secretKeyOf(secret: string): Buffer {
  const key = secret.startsWith(SECRET_PREFIX) ? Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64') : Buffer.alloc(0);
  if (key.length !== SECRET_BYTES || secretOfKey(key) !== secret) throw new Error('not a webhook secret');
  return key;
}

/**
 * A webhook's secrets: the current one, and the one the last rotation replaced with the end of its overlap. The
 * values are secrets ("whsec_...") in memory and sealed bytes in the database.
 */
export interface SecretSlots<T> {
  current: T | null;
  previous: T | null;
  previousExpiresAt: Date | null;
}

/**
 * A rotation at `at`: the new secret becomes the current one and the current one the previous one, for 24 hours from
 * now. A rotation during the overlap of an earlier one drops that earlier secret at once: at most two sign a delivery.
 */
export function rotateSecrets<T>(slots: SecretSlots<T>, next: T, at: Date): SecretSlots<T> {
  if (slots.current === null) return { current: next, previous: null, previousExpiresAt: null };
  return { current: next, previous: slots.current, previousExpiresAt: new Date(at.getTime() + SECRET_OVERLAP_MS) };
}

/** The secrets an attempt at `at` is signed with, the current one first; the previous one only while its overlap lasts. */
export function signingSecretsAt<T>(slots: SecretSlots<T>, at: Date): T[] {
  const secrets: T[] = [];
  if (slots.current !== null) secrets.push(slots.current);
  if (slots.previous !== null && slots.previousExpiresAt !== null && at.getTime() < slots.previousExpiresAt.getTime()) secrets.push(slots.previous);
  return secrets;
}

/** `v1` of Standard Webhooks: base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>" under the secret's key. */
export function standardHmacSignature(secret: string, id: string, timestamp: string, body: string): string {
  return createHmac('sha256', secretKeyOf(secret)).update(standardSignedContent(id, timestamp, body)).digest('base64');
}

/**
 * The headers of one attempt. Every signature covers the body exactly as sent and a time taken at the attempt, so a
 * receiver can refuse stale replays; the event id is the same on every attempt. `webhook-signature` is the standard's
 * space-separated list: a `v1` (HMAC) per secret in `secrets` (current first), then `v1a` (Ed25519), so the standard's
 * libraries, which skip the schemes they do not know, find theirs.
 */
export function deliveryHeaders(input: {
  eventId: string;
  body: string;
  privateKey: KeyObject;
  secrets: readonly string[];
  at: Date;
}): Record<string, string> {
  const date = String(input.at.getTime());
  const timestamp = String(Math.floor(input.at.getTime() / 1000));
  const plug = sign(null, Buffer.from(plugSignedContent(date, input.body)), input.privateKey).toString('hex');
  const asymmetric = sign(null, Buffer.from(standardSignedContent(input.eventId, timestamp, input.body)), input.privateKey).toString('base64');
  const symmetric = input.secrets.map((secret) => `v1,${standardHmacSignature(secret, input.eventId, timestamp, input.body)}`);
  return {
    'content-type': 'application/json',
    'x-plug-date': date,
    'x-plug-signature': plug,
    'x-idempotency-key': input.eventId,
    'webhook-id': input.eventId,
    'webhook-timestamp': timestamp,
    'webhook-signature': [...symmetric, `v1a,${asymmetric}`].join(' '),
  };
}
