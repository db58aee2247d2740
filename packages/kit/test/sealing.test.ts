import { randomBytes } from 'node:crypto';
import {
  deriveSealingKey,
  openBox,
  openVersioned,
  SEAL_OVERHEAD_BYTES,
  sealBox,
  SealingKeyRing,
  sealVersioned,
} from '../src';

const flip = (value: Buffer, index: number): Buffer => {
  const copy = Buffer.from(value);
  copy[index]! ^= 1;
  return copy;
};

describe('sealing at rest', () => {
  const key = randomBytes(32);

  it('opens what it sealed, under the same key and additional data, and hides the plaintext', () => {
    const box = sealBox(key, 'card-number', '4111111111111111');
    expect(box.length).toBe(SEAL_OVERHEAD_BYTES + 16);
    expect(box.includes(Buffer.from('4111111111111111'))).toBe(false);
    expect(openBox(key, 'card-number', box).toString('utf8')).toBe('4111111111111111');
    const bytes = randomBytes(48);
    expect(openBox(key, Buffer.from('wh_1'), sealBox(key, Buffer.from('wh_1'), bytes))).toEqual(bytes);
  });

  it('uses a fresh nonce each time', () => {
    expect(sealBox(key, 'a', 'same').equals(sealBox(key, 'a', 'same'))).toBe(false);
  });

  it('refuses a changed byte anywhere, a cut value, other additional data or another key', () => {
    const box = sealBox(key, 'card-cvv', '123');
    for (let index = 0; index < box.length; index += 1) expect(() => openBox(key, 'card-cvv', flip(box, index))).toThrow();
    for (let length = 0; length < box.length; length += 1) expect(() => openBox(key, 'card-cvv', box.subarray(0, length))).toThrow();
    expect(() => openBox(key, 'card-number', box)).toThrow();
    expect(() => openBox(randomBytes(32), 'card-cvv', box)).toThrow();
    expect(() => sealBox(randomBytes(16), 'a', 'b')).toThrow(/32 bytes/);
  });

  it('puts the version first and opens only that version', () => {
    const sealed = sealVersioned(2, key, 'wh_1', 'secret');
    expect(sealed[0]).toBe(2);
    expect(openVersioned(2, key, 'wh_1', sealed).toString()).toBe('secret');
    expect(() => openVersioned(1, key, 'wh_1', sealed)).toThrow(/unknown sealed value format/);
    expect(() => openVersioned(2, key, 'wh_1', Buffer.alloc(0))).toThrow(/unknown sealed value format/);
    expect(() => openVersioned(2, key, 'wh_2', sealed)).toThrow();
  });

  it('derives one key per use of a master key, the same every time (HKDF-SHA256)', () => {
    const master = Buffer.alloc(32, 7);
    // RFC 5869 HKDF-SHA256 of this master, no salt, info "use-a" (computed apart from Node): fixed, so stored values keep opening.
    expect(deriveSealingKey(master, 'use-a').toString('hex')).toBe('c42228f5185cfb166bea884b186335df43b29227724d8395b86fe9f943132c34');
    expect(deriveSealingKey(master, 'use-a').equals(deriveSealingKey(master, 'use-b'))).toBe(false);
    expect(deriveSealingKey(master, 'use-a')).toHaveLength(32);
  });
});

describe('a sealing key ring', () => {
  const k1 = { id: 'k1', key: randomBytes(32) };
  const k2 = { id: 'arn:aws:kms:eu-west-1:1:key/abc', key: randomBytes(32) };

  it('seals with its first key and opens with any of its keys, by id', () => {
    const ring = new SealingKeyRing([k2, k1]);
    expect(ring.sealingKeyId).toBe(k2.id);
    expect(ring.keyIds).toEqual([k2.id, k1.id]);
    expect(ring.has('k1')).toBe(true);
    const old = sealBox(new SealingKeyRing([k1]).keyFor('k1', 'use'), 'aad', 'value');
    expect(openBox(ring.keyFor('k1', 'use'), 'aad', old).toString()).toBe('value');
    expect(ring.keyFor('k1', 'use').equals(deriveSealingKey(k1.key, 'use'))).toBe(true);
    expect(ring.keyFor('k1', 'use').equals(ring.keyFor('k1', 'other'))).toBe(false);
    expect(ring.keyFor('k1', 'use').equals(ring.keyFor(k2.id, 'use'))).toBe(false);
  });

  it('names a missing key by its id, never a key', () => {
    const ring = new SealingKeyRing([k1], 'card vault');
    expect(ring.has('k9')).toBe(false);
    expect(() => ring.keyFor('k9', 'use')).toThrow('card vault key k9 is not in the key ring');
  });

  it('refuses an empty ring, a short key, an id the format cannot hold and an id twice', () => {
    expect(() => new SealingKeyRing([])).toThrow(/at least one key/);
    let message = '';
    try {
      new SealingKeyRing([{ id: 'k1', key: Buffer.alloc(16, 9) }]);
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toBe('sealing ring key k1 must be 32 bytes');
    expect(() => new SealingKeyRing([{ id: 'a\\b', key: randomBytes(32) }])).toThrow(/printable/);
    expect(() => new SealingKeyRing([{ id: '', key: randomBytes(32) }])).toThrow(/printable/);
    expect(() => new SealingKeyRing([{ id: 'x'.repeat(256), key: randomBytes(32) }])).toThrow(/printable/);
    expect(() => new SealingKeyRing([k1, { id: 'k1', key: randomBytes(32) }])).toThrow(/twice/);
  });
});
