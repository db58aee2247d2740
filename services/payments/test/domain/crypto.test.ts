import { randomBytes } from 'node:crypto';
import { FORMAT1_KEY_ID, keyIdOf, Vault } from '../../src/modules/vault/crypto/crypto';
import { cardKeyRing, parseKeyRing, vaultFromConfig } from '../../src/modules/vault/crypto/keyRing';
import { LocalKeyService, type RingKey } from '../../src/modules/vault/crypto/keyService';
import { sealFormat1 } from '../support/format1';

const fingerprintKey = randomBytes(32);
const k1: RingKey = { id: 'k1', key: randomBytes(32) };
const k2: RingKey = { id: 'k2', key: randomBytes(32) };

function vaultOf(...ring: RingKey[]): Vault {
  const format1Key = ring.find((k) => k.id === FORMAT1_KEY_ID)?.key;
  return new Vault({ keys: new LocalKeyService(ring), fingerprintKey, ...(format1Key ? { format1Key } : {}) });
}

const vault = vaultOf(k1);

function flipByte(sealed: Buffer, index: number): Buffer {
  const copy = Buffer.from(sealed);
  copy[index] = copy[index]! ^ 0x01;
  return copy;
}

/** Bytes inside each part of a format-2 value under `k1`: version 0, id length 1, id 2-3, wrapped length 4-5, wrapped 6-65, nonce 66-77, tag 78-93. */
const LAYOUT = { 'key id length': 1, 'key id': 2, 'wrapped key length': 5, 'wrapped key': 10, nonce: 70, tag: 85, ciphertext: 100 };

describe('Vault.seal and Vault.open', () => {
  it('opens what it sealed', async () => {
    const sealed = await vault.seal('card-number', '4111111111111111');
    expect(await vault.open('card-number', sealed)).toBe('4111111111111111');
    const credentials = '{"type":"SANDBOX","key":"ção"}';
    expect(await vault.open('provider-credentials', await vault.seal('provider-credentials', credentials))).toBe(credentials);
  });

  it('writes format 2: the key id, the wrapped data key, then nonce, tag and ciphertext', async () => {
    const sealed = await vault.seal('card-cvv', '123');
    expect(sealed[0]).toBe(2);
    expect(sealed[1]).toBe(2);
    expect(sealed.subarray(2, 4).toString('latin1')).toBe('k1');
    expect(sealed.readUInt16BE(4)).toBe(60);
    expect(sealed.length).toBe(6 + 60 + 12 + 16 + 3);
    expect(keyIdOf(sealed)).toBe('k1');
  });

  it('never contains the plaintext, and seals the same value differently each time', async () => {
    const a = await vault.seal('card-number', '4111111111111111');
    const b = await vault.seal('card-number', '4111111111111111');
    expect(a.equals(b)).toBe(false);
    // A fresh data key each time: even the wrapped keys differ.
    expect(a.subarray(6, 66).equals(b.subarray(6, 66))).toBe(false);
    expect(a.includes(Buffer.from('4111111111111111'))).toBe(false);
    expect(a.toString('hex')).not.toContain(Buffer.from('4111111111111111').toString('hex'));
  });

  it.each(Object.entries({ version: 0, ...LAYOUT }))('refuses a value whose %s was changed', async (_part, index) => {
    const sealed = await vault.seal('card-number', '4111111111111111');
    await expect(vault.open('card-number', flipByte(sealed, index))).rejects.toThrow();
  });

  it('refuses a truncated value', async () => {
    const sealed = await vault.seal('card-cvv', '123');
    for (const length of [0, 1, 3, 5, 40, 66 + 27, sealed.length - 1]) {
      await expect(vault.open('card-cvv', sealed.subarray(0, length))).rejects.toThrow();
    }
  });

  it('binds a value to its purpose: a card number does not open as credentials or a CVV', async () => {
    const sealed = await vault.seal('card-number', '4111111111111111');
    await expect(vault.open('provider-credentials', sealed)).rejects.toThrow();
    await expect(vault.open('card-cvv', sealed)).rejects.toThrow();
  });

  it('binds the wrapped data key to its key id: naming another key of the ring does not open it', async () => {
    const ring = vaultOf({ id: 'k1', key: k1.key }, { id: 'k9', key: k1.key });
    const sealed = await ring.seal('card-number', '4111111111111111');
    const renamed = Buffer.from(sealed);
    renamed.write('k9', 2, 'latin1');
    expect(keyIdOf(renamed)).toBe('k9');
    await expect(ring.open('card-number', renamed)).rejects.toThrow();
  });

  it('binds a value to its master key', async () => {
    const other = vaultOf({ id: 'k1', key: randomBytes(32) });
    await expect(other.open('card-number', await vault.seal('card-number', '4111111111111111'))).rejects.toThrow();
  });

  it('opens values of every key of the ring and seals with the first', async () => {
    const old = await vaultOf(k1).seal('card-number', '4111111111111111');
    const ring = vaultOf(k2, k1);
    expect(ring.sealingKeyId).toBe('k2');
    expect(ring.keyIds).toEqual(['k2', 'k1']);
    expect(await ring.open('card-number', old)).toBe('4111111111111111');
    expect(keyIdOf(await ring.seal('card-number', '4111111111111111'))).toBe('k2');
    await expect(vaultOf(k2).open('card-number', old)).rejects.toThrow(/k1 is not in the key ring/);
  });
});

describe('format 1, from before key ids', () => {
  const k0: RingKey = { id: 'k0', key: randomBytes(32) };
  const format1 = sealFormat1(k0.key, 'card-number', '4111111111111111');

  it('opens with the key k0 of the ring, and names k0 as its key', async () => {
    expect(keyIdOf(format1)).toBe('k0');
    expect(await vaultOf(k0).open('card-number', format1)).toBe('4111111111111111');
    expect(await vaultOf(k2, k0).open('card-number', format1)).toBe('4111111111111111');
    await expect(vaultOf(k0).open('card-cvv', format1)).rejects.toThrow();
  });

  it('needs k0: without it the value does not open', async () => {
    await expect(vaultOf(k2).open('card-number', format1)).rejects.toThrow(/needs the key k0/);
  });

  it('is what CARD_ENCRYPTION_KEY alone sealed, and still opens under it', async () => {
    const fromConfig = vaultFromConfig({ CARD_ENCRYPTION_KEY: k0.key, CARD_FINGERPRINT_KEY: fingerprintKey });
    expect(fromConfig.keyIds).toEqual(['k0']);
    expect(await fromConfig.open('card-number', format1)).toBe('4111111111111111');
  });
});

describe('Vault.rewrap', () => {
  it('moves a value to the sealing key by re-wrapping its data key only: nonce, tag and ciphertext stay', async () => {
    const old = await vaultOf(k1).seal('card-number', '4111111111111111');
    const rewrapped = await vaultOf(k2, k1).rewrap('card-number', old);
    expect(rewrapped).not.toBeNull();
    expect(keyIdOf(rewrapped!)).toBe('k2');
    // nonce (12), tag (16) and the 16 bytes of ciphertext
    expect(rewrapped!.subarray(66).equals(old.subarray(66))).toBe(true);
    expect(rewrapped!.length).toBe(old.length);
    expect(rewrapped!.subarray(6, 66).equals(old.subarray(6, 66))).toBe(false);
    // It opens without k1.
    expect(await vaultOf(k2).open('card-number', rewrapped!)).toBe('4111111111111111');
  });

  it('leaves a value already under the sealing key', async () => {
    const ring = vaultOf(k2, k1);
    expect(await ring.rewrap('card-cvv', await ring.seal('card-cvv', '123'))).toBeNull();
  });

  it('seals a value of format 1 again in format 2 under the sealing key, even when that is k0', async () => {
    const k0: RingKey = { id: 'k0', key: randomBytes(32) };
    const format1 = sealFormat1(k0.key, 'card-cvv', '987');
    for (const ring of [vaultOf(k0), vaultOf(k2, k0)]) {
      const resealed = await ring.rewrap('card-cvv', format1);
      expect(resealed![0]).toBe(2);
      expect(keyIdOf(resealed!)).toBe(ring.sealingKeyId);
      expect(await ring.open('card-cvv', resealed!)).toBe('987');
    }
  });

  it('refuses to re-wrap a value under the wrong purpose', async () => {
    const old = await vaultOf(k1).seal('card-number', '4111111111111111');
    await expect(vaultOf(k2, k1).rewrap('card-cvv', old)).rejects.toThrow();
  });
});

describe('LocalKeyService', () => {
  it('refuses an empty ring, keys that are not 32 bytes, bad and repeated ids', () => {
    expect(() => new LocalKeyService([])).toThrow();
    expect(() => new LocalKeyService([{ id: 'k1', key: randomBytes(16) }])).toThrow(/32 bytes/);
    expect(() => new LocalKeyService([{ id: 'a\\b', key: randomBytes(32) }])).toThrow();
    expect(() => new LocalKeyService([{ id: '', key: randomBytes(32) }])).toThrow();
    expect(() => new LocalKeyService([k1, { id: 'k1', key: randomBytes(32) }])).toThrow(/twice/);
  });

  it('refuses what a key service answers that the sealed format cannot hold', async () => {
    const answering = (keyId: string, wrapped: Buffer) =>
      new Vault({
        keys: { sealingKeyId: keyId, keyIds: [keyId], wrap: async () => ({ keyId, wrapped }), unwrap: async () => randomBytes(32) },
        fingerprintKey,
      });
    await expect(answering('kms key', randomBytes(60)).seal('card-cvv', '123')).rejects.toThrow(/key id/);
    await expect(answering('x'.repeat(256), randomBytes(60)).seal('card-cvv', '123')).rejects.toThrow(/key id/);
    await expect(answering('k1', Buffer.alloc(0x10000)).seal('card-cvv', '123')).rejects.toThrow(/wrapped key/);
    const arn = 'arn:aws:kms:sa-east-1:111122223333:key/1234abcd-12ab-34cd-56ef-1234567890ab';
    const kms = answering(arn, randomBytes(184));
    expect(keyIdOf(await kms.seal('card-cvv', '123'))).toBe(arn);
  });

  it('refuses a fingerprint key that is not 32 bytes', () => {
    expect(() => new Vault({ keys: new LocalKeyService([k1]), fingerprintKey: randomBytes(31) })).toThrow();
  });
});

describe('the key ring from configuration', () => {
  const hex = (key: Buffer) => key.toString('hex');

  it('reads id:key entries, hex or base64, the first sealing', () => {
    const ring = parseKeyRing(` k2:${hex(k2.key)} , 2024-01.a_b:${k1.key.toString('base64')}`);
    expect(ring.map((k) => k.id)).toEqual(['k2', '2024-01.a_b']);
    expect(ring[0]!.key.equals(k2.key)).toBe(true);
    expect(ring[1]!.key.equals(k1.key)).toBe(true);
  });

  it('takes an entry without an id as the key k0', () => {
    expect(parseKeyRing(`k1:${hex(k1.key)},${hex(k2.key)}`).map((k) => k.id)).toEqual(['k1', 'k0']);
  });

  it.each([
    ['no key', ' , '],
    ['a short key', `k1:${hex(k1.key).slice(2)}`],
    ['a bad id', `k 1:${hex(k1.key)}`],
    ['a repeated id', `k1:${hex(k1.key)},k1:${hex(k2.key)}`],
    ['two keys without id', `${hex(k1.key)},${hex(k2.key)}`],
    ['a key written before its id', `${hex(k1.key)}:k1`],
  ])('refuses %s, without repeating any key', (_what, value) => {
    let message = '';
    try {
      parseKeyRing(value);
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/^CARD_ENCRYPTION_KEYS/);
    for (const key of [k1.key, k2.key]) {
      expect(message).not.toContain(hex(key).slice(2, 20));
      expect(message).not.toContain(hex(key).slice(0, 20));
    }
  });

  it('adds CARD_ENCRYPTION_KEY as k0 after the ring, and refuses another k0 beside it', () => {
    const k0 = randomBytes(32);
    expect(cardKeyRing({ CARD_ENCRYPTION_KEYS: [k2], CARD_ENCRYPTION_KEY: k0 }).map((k) => k.id)).toEqual(['k2', 'k0']);
    expect(cardKeyRing({ CARD_ENCRYPTION_KEY: k0 }).map((k) => k.id)).toEqual(['k0']);
    expect(cardKeyRing({ CARD_ENCRYPTION_KEYS: [{ id: 'k0', key: k0 }, k2], CARD_ENCRYPTION_KEY: k0 }).map((k) => k.id)).toEqual(['k0', 'k2']);
    expect(() => cardKeyRing({ CARD_ENCRYPTION_KEYS: [{ id: 'k0', key: randomBytes(32) }], CARD_ENCRYPTION_KEY: k0 })).toThrow(/another key k0/);
    expect(() => cardKeyRing({})).toThrow(/CARD_ENCRYPTION_KEYS is required/);
  });
});

describe('Vault.fingerprint', () => {
  it('is stable for the same number and key, whatever the key ring', () => {
    const a = vaultOf(k1);
    const b = vaultOf(k2);
    expect(a.fingerprint('4111111111111111')).toBe(a.fingerprint('4111111111111111'));
    expect(a.fingerprint('4111111111111111')).toBe(b.fingerprint('4111111111111111'));
  });

  it('differs between numbers and between fingerprint keys', () => {
    expect(vault.fingerprint('4111111111111111')).not.toBe(vault.fingerprint('4012888888881881'));
    const other = new Vault({ keys: new LocalKeyService([k1]), fingerprintKey: randomBytes(32) });
    expect(other.fingerprint('4111111111111111')).not.toBe(vault.fingerprint('4111111111111111'));
  });

  it('does not show the number', () => {
    const fingerprint = vault.fingerprint('4111111111111111');
    expect(fingerprint).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(fingerprint).not.toContain('41111111');
  });
});
