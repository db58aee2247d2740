import { createPrivateKey, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';

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

/**
 * The headers of one attempt. Both signatures cover the body exactly as sent and a time taken at the attempt, so a
 * receiver can refuse stale replays; the event id is the same on every attempt.
 */
export function deliveryHeaders(input: { eventId: string; body: string; privateKey: KeyObject; at: Date }): Record<string, string> {
  const date = String(input.at.getTime());
  const timestamp = String(Math.floor(input.at.getTime() / 1000));
  const plug = sign(null, Buffer.from(plugSignedContent(date, input.body)), input.privateKey).toString('hex');
  const standard = sign(null, Buffer.from(standardSignedContent(input.eventId, timestamp, input.body)), input.privateKey).toString('base64');
  return {
    'content-type': 'application/json',
    'x-plug-date': date,
    'x-plug-signature': plug,
    'x-idempotency-key': input.eventId,
    'webhook-id': input.eventId,
    'webhook-timestamp': timestamp,
    'webhook-signature': `v1a,${standard}`,
  };
}
