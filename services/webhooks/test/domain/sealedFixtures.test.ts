import { KeySealer } from '../../src/signing/keySealer';

/**
 * A private key and a secret as the webhooks service sealed them before sealing moved into the kit (hex, from the
 * code of that time, under the master key below, for the webhook `wh_fixture`): the rows in databases today hold
 * values like these, and they must keep opening.
 */
const SEALED_KEY = '010cda62a6e715c563e0ddae90f681e564087db5be8e5605fa4736023bc75201313447e289ce3cb9375214dce83c';
const SEALED_SECRET = '01ba5fea48944c4d54e73cb6b80c64abaaf7a9c852ef97305c43441184badb0612be9737809d874e2260bc8b47';
const bytes = (hex: string) => Buffer.from(hex, 'hex');

describe('values sealed before sealing moved into the kit', () => {
  const sealer = new KeySealer(Buffer.alloc(32, 0x44));

  it('still open, each for its webhook and its kind', () => {
    expect(sealer.open('wh_fixture', bytes(SEALED_KEY)).toString()).toBe('private key bytes');
    expect(sealer.openSecret('wh_fixture', bytes(SEALED_SECRET)).toString()).toBe('secret key bytes');
    expect(() => sealer.open('wh_other', bytes(SEALED_KEY))).toThrow();
    expect(() => sealer.open('wh_fixture', bytes(SEALED_SECRET))).toThrow();
  });

  it('are sealed again in the same layout', () => {
    const fresh = sealer.seal('wh_fixture', Buffer.from('private key bytes'));
    expect(fresh[0]).toBe(1);
    expect(fresh.length).toBe(bytes(SEALED_KEY).length);
    expect(sealer.open('wh_fixture', fresh).toString()).toBe('private key bytes');
    expect(() => sealer.open('wh_fixture', Buffer.alloc(29, 1))).toThrow(/unknown sealed key format/);
  });
});
