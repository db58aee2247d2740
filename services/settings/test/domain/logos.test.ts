import { MAX_LOGO_BYTES, validateLogo } from '../../src/domain/logos';
import { failure, fieldsOf, JPEG_BYTES, PNG_BYTES, SVG_TEXT } from '../support/fixtures';

describe('validateLogo', () => {
  it('accepts PNG, JPEG and SVG whose bytes match the declared type', () => {
    expect(validateLogo({ contentType: 'image/png', data: PNG_BYTES }).contentType).toBe('image/png');
    expect(validateLogo({ contentType: 'image/jpeg', data: JPEG_BYTES }).contentType).toBe('image/jpeg');
    expect(validateLogo({ contentType: 'IMAGE/JPG', data: JPEG_BYTES }).contentType).toBe('image/jpeg');
    expect(validateLogo({ contentType: 'image/svg+xml; charset=utf-8', data: Buffer.from(SVG_TEXT) }).contentType).toBe('image/svg+xml');
    expect(validateLogo({ contentType: 'image/svg+xml', data: Buffer.from('\uFEFF  <svg></svg>') }).contentType).toBe('image/svg+xml');
  });

  it.each([
    ['a type outside the list', 'image/gif', Buffer.from('GIF89a')],
    ['PNG bytes declared as JPEG', 'image/jpeg', PNG_BYTES],
    ['JPEG bytes declared as PNG', 'image/png', JPEG_BYTES],
    ['HTML declared as SVG', 'image/svg+xml', Buffer.from('<html><svg></svg></html>')],
    ['binary declared as SVG', 'image/svg+xml', Buffer.concat([Buffer.from('<svg>'), Buffer.from([0xff, 0xfe, 0x00])])],
    ['an SVG with a script', 'image/svg+xml', Buffer.from('<svg><script>alert(1)</script></svg>')],
    ['an SVG with an event handler', 'image/svg+xml', Buffer.from('<svg onload="alert(1)"></svg>')],
    ['an empty file', 'image/png', Buffer.alloc(0)],
    ['a file over 1 MiB', 'image/png', Buffer.concat([PNG_BYTES, Buffer.alloc(MAX_LOGO_BYTES)])],
  ])('refuses %s', async (_what, contentType, data) => {
    const error = await failure(() => validateLogo({ contentType, data }));
    expect(error.kind).toBe('validation');
    expect(fieldsOf(error)).toEqual(['logo']);
  });

  it('accepts exactly 1 MiB', () => {
    const data = Buffer.concat([PNG_BYTES, Buffer.alloc(MAX_LOGO_BYTES - PNG_BYTES.length)]);
    expect(validateLogo({ contentType: 'image/png', data }).data.length).toBe(MAX_LOGO_BYTES);
  });
});
