import { randomBytes } from 'node:crypto';
import { Vault } from '../../src/vault/crypto';

const vault = new Vault(randomBytes(32), randomBytes(32));

function flipByte(sealed: Buffer, index: number): Buffer {
  const copy = Buffer.from(sealed);
  copy[index] = copy[index]! ^ 0x01;
  return copy;
}

describe('Vault.seal and Vault.open', () => {
  it('opens what it sealed', () => {
    const sealed = vault.seal('card-number', '4111111111111111');
    expect(vault.open('card-number', sealed)).toBe('4111111111111111');
    expect(vault.open('provider-credentials', vault.seal('provider-credentials', '{"type":"SANDBOX","key":"ção"}'))).toBe('{"type":"SANDBOX","key":"ção"}');
  });

  it('never contains the plaintext, and seals the same value differently each time', () => {
    const a = vault.seal('card-number', '4111111111111111');
    const b = vault.seal('card-number', '4111111111111111');
    expect(a.equals(b)).toBe(false);
    expect(a.includes(Buffer.from('4111111111111111'))).toBe(false);
    expect(a.toString('hex')).not.toContain(Buffer.from('4111111111111111').toString('hex'));
  });

  it.each([
    ['the version byte', 0],
    ['the nonce', 5],
    ['the tag', 20],
    ['the ciphertext', 30],
  ])('refuses a value whose %s was changed', (_part, index) => {
    const sealed = vault.seal('card-cvv', '123');
    expect(() => vault.open('card-cvv', flipByte(sealed, index))).toThrow();
  });

  it('refuses a truncated value', () => {
    const sealed = vault.seal('card-cvv', '123');
    expect(() => vault.open('card-cvv', sealed.subarray(0, 28))).toThrow();
    expect(() => vault.open('card-cvv', sealed.subarray(0, sealed.length - 1))).toThrow();
  });

  it('binds a value to its purpose: a card number does not open as credentials or a CVV', () => {
    const sealed = vault.seal('card-number', '4111111111111111');
    expect(() => vault.open('provider-credentials', sealed)).toThrow();
    expect(() => vault.open('card-cvv', sealed)).toThrow();
  });

  it('binds a value to its master key', () => {
    const other = new Vault(randomBytes(32), randomBytes(32));
    expect(() => other.open('card-number', vault.seal('card-number', '4111111111111111'))).toThrow();
  });

  it('refuses keys that are not 32 bytes', () => {
    expect(() => new Vault(randomBytes(16), randomBytes(32))).toThrow();
    expect(() => new Vault(randomBytes(32), randomBytes(31))).toThrow();
  });
});

describe('Vault.fingerprint', () => {
  it('is stable for the same number and key', () => {
    const key = randomBytes(32);
    const a = new Vault(randomBytes(32), key);
    const b = new Vault(randomBytes(32), key);
    expect(a.fingerprint('4111111111111111')).toBe(a.fingerprint('4111111111111111'));
    expect(a.fingerprint('4111111111111111')).toBe(b.fingerprint('4111111111111111'));
  });

  it('differs between numbers and between fingerprint keys', () => {
    expect(vault.fingerprint('4111111111111111')).not.toBe(vault.fingerprint('4012888888881881'));
    expect(new Vault(randomBytes(32), randomBytes(32)).fingerprint('4111111111111111')).not.toBe(vault.fingerprint('4111111111111111'));
  });

  it('does not show the number', () => {
    const fingerprint = vault.fingerprint('4111111111111111');
    expect(fingerprint).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(fingerprint).not.toContain('41111111');
  });
});
