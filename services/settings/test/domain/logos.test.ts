import { MAX_LOGO_BYTES, validateLogo } from '../../src/domain/logos';
import { failure, fieldsOf, JPEG_BYTES, PNG_BYTES, SVG_TEXT } from '../support/fixtures';
import { ACTIVE_SVG, NORMAL_SVG, SVG_BYPASSES } from '../support/svgVectors';

describe('validateLogo', () => {
  it('accepts PNG, JPEG and SVG whose bytes match the declared type', () => {
    expect(validateLogo({ contentType: 'image/png', data: PNG_BYTES }).contentType).toBe('image/png');
    expect(validateLogo({ contentType: 'image/jpeg', data: JPEG_BYTES }).contentType).toBe('image/jpeg');
    expect(validateLogo({ contentType: 'IMAGE/JPG', data: JPEG_BYTES }).contentType).toBe('image/jpeg');
    expect(validateLogo({ contentType: 'image/svg+xml; charset=utf-8', data: Buffer.from(SVG_TEXT) }).contentType).toBe('image/svg+xml');
    expect(validateLogo({ contentType: 'image/svg+xml', data: Buffer.from('\uFEFF  <svg xmlns="http://www.w3.org/2000/svg"/>') }).contentType).toBe('image/svg+xml');
  });

  it.each([
    ['a type outside the list', 'image/gif', Buffer.from('GIF89a')],
    ['PNG bytes declared as JPEG', 'image/jpeg', PNG_BYTES],
    ['JPEG bytes declared as PNG', 'image/png', JPEG_BYTES],
    ['HTML declared as SVG', 'image/svg+xml', Buffer.from('<html><svg></svg></html>')],
    ['binary declared as SVG', 'image/svg+xml', Buffer.concat([Buffer.from('<svg>'), Buffer.from([0xff, 0xfe, 0x00])])],
    ['an SVG that is not well-formed XML', 'image/svg+xml', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><rect></svg>')],
    ['an SVG outside the SVG namespace', 'image/svg+xml', Buffer.from('<svg><rect width="1" height="1"/></svg>')],
    ['an SVG with an internal entity (billion laughs)', 'image/svg+xml', Buffer.from('<!DOCTYPE svg [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;">]><svg xmlns="http://www.w3.org/2000/svg"><text>&b;</text></svg>')],
    ['an SVG with an external entity', 'image/svg+xml', Buffer.from('<!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/passwd">]><svg xmlns="http://www.w3.org/2000/svg"><text>&x;</text></svg>')],
    ['an empty file', 'image/png', Buffer.alloc(0)],
    ['a file over 1 MiB', 'image/png', Buffer.concat([PNG_BYTES, Buffer.alloc(MAX_LOGO_BYTES)])],
  ])('refuses %s', async (_what, contentType, data) => {
    const error = await failure(() => validateLogo({ contentType, data }));
    expect(error.kind).toBe('validation');
    expect(fieldsOf(error)).toEqual(['logo']);
  });

  it.each(SVG_BYPASSES)('stores %s inert: the SVG is sanitised, not filtered', (_what, svg) => {
    const logo = validateLogo({ contentType: 'image/svg+xml', data: Buffer.from(svg) });
    const text = logo.data.toString('utf8');
    expect(logo.contentType).toBe('image/svg+xml');
    expect(text).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    for (const active of ACTIVE_SVG) expect({ active: String(active), found: active.test(text) }).toEqual({ active: String(active), found: false });
    expect(text).toContain('<rect');
  });

  it('keeps a normal logo as drawn: gradient, paths, text, viewBox, inline style and a local paint reference', () => {
    const text = validateLogo({ contentType: 'image/svg+xml', data: Buffer.from(NORMAL_SVG) }).data.toString('utf8');
    for (const kept of ['viewBox="0 0 120 40"', '<linearGradient id="g"', 'stop-color="#5e5ce6"', 'fill="url(#g)"', 'd="M10 30 L20 10 L30 30 Z"', 'style="fill:#fff"', '>Loja</text>']) {
      expect(text).toContain(kept);
    }
    expect(text).not.toContain('<?xml');
  });

  it('accepts exactly 1 MiB', () => {
    const data = Buffer.concat([PNG_BYTES, Buffer.alloc(MAX_LOGO_BYTES - PNG_BYTES.length)]);
    expect(validateLogo({ contentType: 'image/png', data }).data.length).toBe(MAX_LOGO_BYTES);
  });
});
