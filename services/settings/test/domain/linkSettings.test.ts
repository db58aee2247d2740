import { effectiveFields, hasEffectiveFields, isColor, isWebUrl } from '../../src/domain/linkSettings';
import { failure, fieldsOf } from '../support/fixtures';

describe('link settings fields', () => {
  it.each(['#fff', '#A1B2C3', '#a1b2c3d4'])('accepts the color %s', (color) => expect(isColor(color)).toBe(true));
  it.each(['fff', '#ffff', '#12345', '#1234567', '#ggg', 'red', '#fff '])('refuses the color %p', (color) => expect(isColor(color)).toBe(false));

  it.each(['https://shop.example.com', 'http://example.com/path?q=1'])('accepts the URL %s', (url) => expect(isWebUrl(url)).toBe(true));
  it.each(['javascript:alert(1)', 'ftp://example.com', 'example.com', 'https://', `https://e.com/${'a'.repeat(2048)}`])(
    'refuses the URL %p',
    (url) => expect(isWebUrl(url)).toBe(false),
  );

  it.each(['https://user:pass@shop.example.com', 'https://user@shop.example.com/', 'http://:secret@shop.example.com'])(
    'refuses the URL %p: it carries credentials, as the gateway refuses it',
    async (companyUrl) => {
      expect(isWebUrl(companyUrl)).toBe(false);
      const error = await failure(() => effectiveFields({ companyUrl }));
      expect(error.details).toEqual([{ field: 'companyUrl', message: 'must be an http or https URL without a user name or password' }]);
    },
  );

  it('ignores absent, empty and blank values', () => {
    const values = effectiveFields({ mainColor: '', secondaryColor: '   ', errorColor: undefined, successColor: '#0f0' });
    expect(values).toEqual({ successColor: '#0f0' });
    expect(hasEffectiveFields(values)).toBe(true);
    expect(hasEffectiveFields(effectiveFields({ mainColor: '' }))).toBe(false);
  });

  it('names every invalid field', async () => {
    const error = await failure(() => effectiveFields({ mainColor: 'blue', companyUrl: 'not a url', backgroundColor: '#000' }));
    expect(error.kind).toBe('validation');
    expect(fieldsOf(error).sort()).toEqual(['companyUrl', 'mainColor']);
  });
});
