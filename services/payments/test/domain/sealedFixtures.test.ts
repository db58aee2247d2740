import { Vault } from '../../src/modules/vault/crypto/crypto';
import { LocalKeyService } from '../../src/modules/vault/crypto/keyService';

/**
 * Values as the vault sealed them before sealing moved into the kit (hex, from the code of that time, with the keys
 * below): the rows in databases today hold values like these, and they must keep opening.
 */
const k0 = Buffer.alloc(32, 0x11);
const k2 = Buffer.alloc(32, 0x22);
const SEALED = {
  format2CardNumber: '02026b32003c55515943c9673f8571e5b1502c051294b6efde64df31fca8b7d5c75c43bc03c1e579dfb13ba4d691ee3e966928bd8dfef9590f4d90af02072105cba1fb6d5ed6002a303958f883fe7f3175b7d9d06043695cd8099436e87904504bee3de8aaa3e0a3dbdb6f631d17',
  format2Cvv: '02026b32003c77dad5e57232d3fdf2067a84b14045cf712e4a39f6e2f313272dd667f9cc64a3f9e37a5eff6c314c1b81a95a94002f0a7d65ef8bf8d0039cf3f01d6c2d8ad7e8fa1b837d0b8369224ed96a4fbd51444af72d87b676b853f5327e28',
  format2Credentials: '02026b32003c23be0b48cfc19a621c499a02efda48934edc9163b737595fc61de14a37e94613593ed2d47da11c889dcccbd2002320f15655eee00e4327623c851f0b837832431340ac46031e3e2728ba94fb183c8b9badba2532fa0602c95df6538f13f34eb4db275e155f520b167f520adb7186',
  format1CardNumber: '014c49a07d559a87412246ca665887f3234b1558e657b353cd805c5eb48ccfaf4d60731053033961a2ef6e2d5f',
};
const bytes = (hex: string) => Buffer.from(hex, 'hex');

describe('values sealed before sealing moved into the kit', () => {
  const vault = new Vault({
    keys: new LocalKeyService([
      { id: 'k2', key: k2 },
      { id: 'k0', key: k0 },
    ]),
    fingerprintKey: Buffer.alloc(32, 0x33),
    format1Key: k0,
  });

  it('still open, in format 2 and format 1', async () => {
    await expect(vault.open('card-number', bytes(SEALED.format2CardNumber))).resolves.toBe('4242424242424242');
    await expect(vault.open('card-cvv', bytes(SEALED.format2Cvv))).resolves.toBe('123');
    await expect(vault.open('provider-credentials', bytes(SEALED.format2Credentials))).resolves.toBe('{"apiKey":"sk_test_1"}');
    await expect(vault.open('card-number', bytes(SEALED.format1CardNumber))).resolves.toBe('4000056655665556');
  });

  it('still open only for their purpose', async () => {
    await expect(vault.open('card-cvv', bytes(SEALED.format2CardNumber))).rejects.toThrow();
    await expect(vault.open('card-cvv', bytes(SEALED.format1CardNumber))).rejects.toThrow();
  });

  it('are sealed again in the same layout: a new value opens, and a re-wrap keeps the body', async () => {
    const old = bytes(SEALED.format2CardNumber);
    const fresh = await vault.seal('card-number', '4242424242424242');
    expect(fresh.subarray(0, 6)).toEqual(old.subarray(0, 6));
    expect(fresh.length).toBe(old.length);
    const next = new Vault({
      keys: new LocalKeyService([
        { id: 'k3', key: Buffer.alloc(32, 0x44) },
        { id: 'k2', key: k2 },
      ]),
      fingerprintKey: Buffer.alloc(32, 0x33),
    });
    const rewrapped = (await next.rewrap('card-number', old))!;
    // nonce (12) | tag (16) | ciphertext (16) carried over untouched.
    expect(rewrapped.subarray(-44)).toEqual(old.subarray(-44));
    await expect(next.open('card-number', rewrapped)).resolves.toBe('4242424242424242');
  });
});
