import { createHmac, createPublicKey, randomBytes, verify } from 'node:crypto';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import {
  deliveryHeaders,
  newSigningKeyPair,
  newWebhookSecret,
  privateKeyOf,
  rotateSecrets,
  SECRET_OVERLAP_MS,
  secretKeyOf,
  signingSecretsAt,
  type SecretSlots,
} from '../../src/domain/signatures';
import { KeySealer } from '../../src/signing/keySealer';

const body = JSON.stringify({ id: '8d0b4bb5-6a57-4f9e-9f8a-2f1c7f3f9d10', createdAt: '2026-01-01T00:00:00.000Z', object: 'transaction', event: 'authorized', apiVersion: 1.1, data: { amount: 1000 } });
const eventId = '8d0b4bb5-6a57-4f9e-9f8a-2f1c7f3f9d10';
const at = new Date('2026-05-01T12:00:00.123Z');

describe('delivery signatures', () => {
  const keys = newSigningKeyPair();
  const headers = deliveryHeaders({ eventId, body, privateKey: privateKeyOf(keys.privateKey), secrets: [], at });

  it('gives the public key as SPKI PEM that createPublicKey takes as it is', () => {
    expect(keys.publicKey).toMatch(/^-----BEGIN PUBLIC KEY-----\n[A-Za-z0-9+/=\n]+-----END PUBLIC KEY-----\n$/);
    const key = createPublicKey(keys.publicKey);
    expect(key.asymmetricKeyType).toBe('ed25519');
  });

  it('sets the date, idempotency and Standard Webhooks headers from the event id and the attempt time', () => {
    expect(headers).toMatchObject({
      'content-type': 'application/json',
      'x-plug-date': '1777636800123',
      'x-idempotency-key': eventId,
      'webhook-id': eventId,
      'webhook-timestamp': '1777636800',
    });
    expect(headers['x-plug-signature']).toMatch(/^[0-9a-f]{128}$/);
    expect(headers['webhook-signature']).toMatch(/^v1a,[A-Za-z0-9+/]{86}==$/);
  });

  it('signs X-Plug-Signature (hex Ed25519 over "<X-Plug-Date>\\n<body>") verifiably with the public key', () => {
    const key = createPublicKey(keys.publicKey);
    const content = Buffer.from(`${headers['x-plug-date']}\n${body}`);
    expect(verify(null, content, key, Buffer.from(headers['x-plug-signature']!, 'hex'))).toBe(true);
    expect(verify(null, Buffer.from(`${headers['x-plug-date']}\n${body} `), key, Buffer.from(headers['x-plug-signature']!, 'hex'))).toBe(false);
  });

  it('signs webhook-signature (v1a alone for a webhook without a secret, base64 Ed25519 over "<id>.<timestamp>.<body>") verifiably with the public key', () => {
    const key = createPublicKey(keys.publicKey);
    const [scheme, signature] = headers['webhook-signature']!.split(',');
    expect(scheme).toBe('v1a');
    const content = Buffer.from(`${headers['webhook-id']}.${headers['webhook-timestamp']}.${body}`);
    expect(verify(null, content, key, Buffer.from(signature!, 'base64'))).toBe(true);
    const otherTimestamp = Buffer.from(`${headers['webhook-id']}.${Number(headers['webhook-timestamp']) + 1}.${body}`);
    expect(verify(null, otherTimestamp, key, Buffer.from(signature!, 'base64'))).toBe(false);
  });

  it('does not verify with another webhook key', () => {
    const other = createPublicKey(newSigningKeyPair().publicKey);
    expect(verify(null, Buffer.from(`${headers['x-plug-date']}\n${body}`), other, Buffer.from(headers['x-plug-signature']!, 'hex'))).toBe(false);
  });
});

describe('KeySealer', () => {
  const sealer = new KeySealer(randomBytes(32));
  const { privateKey } = newSigningKeyPair();

  it('seals a private key so that only the same webhook id opens it', () => {
    const sealed = sealer.seal('webhook-a', privateKey);
    expect(sealed.includes(privateKey)).toBe(false);
    expect(sealer.open('webhook-a', sealed)).toEqual(privateKey);
    expect(() => sealer.open('webhook-b', sealed)).toThrow();
  });

  it('seals a secret under a key of its own: a sealed secret never opens as a private key, nor the reverse', () => {
    const secretKey = secretKeyOf(newWebhookSecret());
    const sealed = sealer.sealSecret('webhook-a', secretKey);
    expect(sealed.includes(secretKey)).toBe(false);
    expect(sealer.openSecret('webhook-a', sealed)).toEqual(secretKey);
    expect(() => sealer.openSecret('webhook-b', sealed)).toThrow();
    expect(() => sealer.open('webhook-a', sealed)).toThrow();
    expect(() => sealer.openSecret('webhook-a', sealer.seal('webhook-a', privateKey))).toThrow();
  });

  it('uses a fresh nonce each time and refuses tampering or another master key', () => {
    const a = sealer.seal('webhook-a', privateKey);
    const b = sealer.seal('webhook-a', privateKey);
    expect(a.equals(b)).toBe(false);
    const tampered = Buffer.from(a);
    tampered[tampered.length - 1]! ^= 1;
    expect(() => sealer.open('webhook-a', tampered)).toThrow();
    expect(() => new KeySealer(randomBytes(32)).open('webhook-a', a)).toThrow();
    expect(() => new KeySealer(randomBytes(16))).toThrow(/32 bytes/);
  });
});

/** The entries of webhook-signature, in order. */
const entriesOf = (header: string) => header.split(' ').map((entry) => entry.split(','));

describe('Standard Webhooks secrets and v1 signatures', () => {
  const keys = newSigningKeyPair();
  const privateKey = privateKeyOf(keys.privateKey);
  const current = newWebhookSecret();
  const previous = newWebhookSecret();

  it('makes secrets "whsec_" + base64 of 32 random bytes, different each time, and refuses anything else as one', () => {
    expect(current).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(secretKeyOf(current)).toHaveLength(32);
    expect(Buffer.from(current.slice('whsec_'.length), 'base64').equals(secretKeyOf(current))).toBe(true);
    expect(new Set(Array.from({ length: 50 }, () => newWebhookSecret())).size).toBe(50);
    for (const bad of ['', 'whsec_', current.slice('whsec_'.length), `whsec_${randomBytes(16).toString('base64')}`, `${current}=`, `whsec_${'!'.repeat(44)}`]) {
      expect(() => secretKeyOf(bad)).toThrow('not a webhook secret');
    }
  });

  it('puts a v1 (base64 HMAC-SHA256 of "<id>.<timestamp>.<body>" under the decoded secret) before v1a, space-separated', () => {
    const headers = deliveryHeaders({ eventId, body, privateKey, secrets: [current], at });
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}= v1a,[A-Za-z0-9+/]{86}==$/);
    const [[v1, hmac], [v1a, ed25519]] = entriesOf(headers['webhook-signature']!) as [[string, string], [string, string]];
    expect([v1, v1a]).toEqual(['v1', 'v1a']);
    const content = `${eventId}.${headers['webhook-timestamp']}.${body}`;
    expect(hmac).toBe(createHmac('sha256', secretKeyOf(current)).update(content).digest('base64'));
    // The standard's own library signs the same message identically.
    expect(new StandardWebhook(current).sign(eventId, at, body)).toBe(`v1,${hmac}`);
    expect(verify(null, Buffer.from(content), createPublicKey(keys.publicKey), Buffer.from(ed25519, 'base64'))).toBe(true);
    // The Ed25519 signatures do not depend on the secrets.
    const without = deliveryHeaders({ eventId, body, privateKey, secrets: [], at });
    expect(headers['x-plug-signature']).toBe(without['x-plug-signature']);
    expect(`v1a,${ed25519}`).toBe(without['webhook-signature']);
  });

  it('during a rotation carries a v1 for each secret, the current one first, then v1a', () => {
    const headers = deliveryHeaders({ eventId, body, privateKey, secrets: [current, previous], at });
    const entries = entriesOf(headers['webhook-signature']!);
    expect(entries.map(([scheme]) => scheme)).toEqual(['v1', 'v1', 'v1a']);
    expect(entries[0]![1]).toBe(new StandardWebhook(current).sign(eventId, at, body).slice(3));
    expect(entries[1]![1]).toBe(new StandardWebhook(previous).sign(eventId, at, body).slice(3));
    expect(entries[0]![1]).not.toBe(entries[1]![1]);
  });

  it('verifies with the standardwebhooks library under either secret, and under no other or with a changed body', () => {
    const now = new Date();
    const headers = deliveryHeaders({ eventId, body, privateKey, secrets: [current, previous], at: now });
    expect(new StandardWebhook(current).verify(body, headers)).toEqual(JSON.parse(body));
    expect(new StandardWebhook(previous).verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => new StandardWebhook(newWebhookSecret()).verify(body, headers)).toThrow('No matching signature found');
    expect(() => new StandardWebhook(current).verify(body.replace('1000', '1001'), headers)).toThrow('No matching signature found');
    const single = deliveryHeaders({ eventId, body, privateKey, secrets: [current], at: now });
    expect(() => new StandardWebhook(previous).verify(body, single)).toThrow('No matching signature found');
  });
});

describe('secret rotation', () => {
  const t0 = new Date('2026-05-01T12:00:00.000Z');
  const later = (ms: number) => new Date(t0.getTime() + ms);

  it('makes the new secret current and keeps the replaced one signing for 24 hours, not a millisecond more', () => {
    const rotated = rotateSecrets<string>({ current: 'a', previous: null, previousExpiresAt: null }, 'b', t0);
    expect(rotated).toEqual({ current: 'b', previous: 'a', previousExpiresAt: later(SECRET_OVERLAP_MS) });
    expect(SECRET_OVERLAP_MS).toBe(24 * 3600_000);
    expect(signingSecretsAt(rotated, t0)).toEqual(['b', 'a']);
    expect(signingSecretsAt(rotated, later(SECRET_OVERLAP_MS - 1))).toEqual(['b', 'a']);
    expect(signingSecretsAt(rotated, later(SECRET_OVERLAP_MS))).toEqual(['b']);
    expect(signingSecretsAt(rotated, later(7 * SECRET_OVERLAP_MS))).toEqual(['b']);
  });

  it('during a rotation: the newest replaces the current one, which becomes the previous for 24 hours; the one before stops at once', () => {
    const first = rotateSecrets<string>({ current: 'a', previous: null, previousExpiresAt: null }, 'b', t0);
    const second = rotateSecrets(first, 'c', later(3600_000));
    expect(second).toEqual({ current: 'c', previous: 'b', previousExpiresAt: later(3600_000 + SECRET_OVERLAP_MS) });
    expect(signingSecretsAt(second, later(3600_000))).toEqual(['c', 'b']);
    expect(signingSecretsAt(second, later(3600_000 + SECRET_OVERLAP_MS))).toEqual(['c']);
  });

  it('gives a webhook without a secret (from before secrets) one with nothing to overlap, and signs with none before', () => {
    const none: SecretSlots<string> = { current: null, previous: null, previousExpiresAt: null };
    expect(signingSecretsAt(none, t0)).toEqual([]);
    expect(rotateSecrets(none, 'a', t0)).toEqual({ current: 'a', previous: null, previousExpiresAt: null });
  });
});
