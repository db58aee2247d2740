import { createPublicKey, randomBytes, verify } from 'node:crypto';
import { deliveryHeaders, newSigningKeyPair, privateKeyOf } from '../../src/domain/signatures';
import { KeySealer } from '../../src/signing/keySealer';

const body = JSON.stringify({ id: '8d0b4bb5-6a57-4f9e-9f8a-2f1c7f3f9d10', createdAt: '2026-01-01T00:00:00.000Z', object: 'transaction', event: 'authorized', apiVersion: 1.1, data: { amount: 1000 } });
const eventId = '8d0b4bb5-6a57-4f9e-9f8a-2f1c7f3f9d10';
const at = new Date('2026-05-01T12:00:00.123Z');

describe('delivery signatures', () => {
  const keys = newSigningKeyPair();
  const headers = deliveryHeaders({ eventId, body, privateKey: privateKeyOf(keys.privateKey), at });

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

  it('signs webhook-signature (v1a, base64 Ed25519 over "<id>.<timestamp>.<body>") verifiably with the public key', () => {
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
