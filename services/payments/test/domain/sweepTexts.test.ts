import { randomBytes } from 'node:crypto';
import { cvvPattern, printableTexts } from '../support/sweep';

/** The sweep of the vault tests reads binary columns as text; what it reads must find clear data and only that. */
describe('the text a sweep reads in a binary value', () => {
  it('is the whole value when it is all printable, so a CVV stored alone is found', () => {
    expect(printableTexts(Buffer.from('123'))).toEqual(['123']);
    expect(printableTexts(Buffer.from('{"cvv":"123"}')).some((t) => cvvPattern('123').test(t))).toBe(true);
  });

  it('is the printable runs of a mixed value, so clear text after a binary header is found', () => {
    const value = Buffer.concat([Buffer.from([0x01, 0x00, 0xff]), Buffer.from('cvv: 123, number 4111')]);
    expect(printableTexts(value).some((t) => cvvPattern('123').test(t))).toBe(true);
  });

  it('does not see a CVV in three digit bytes between two binary bytes of ciphertext', () => {
    const sealed = Buffer.concat([randomBytes(12), Buffer.from([0x00, 0x31, 0x32, 0x33, 0xff]), randomBytes(16)]);
    // Read whole, as the earlier sweep did, the bytes look like a CVV standing alone.
    expect(cvvPattern('123').test(sealed.toString('latin1'))).toBe(true);
    expect(printableTexts(sealed).some((t) => cvvPattern('123').test(t))).toBe(false);
  });
});
