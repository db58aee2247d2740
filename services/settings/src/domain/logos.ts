import { LINK_SETTINGS_LIMITS, LOGO_CONTENT_TYPES, type LogoContentType } from '@platform/api-model';
import { sanitiseSvg } from './svgSanitizer';
import { invalid } from './validation';

export const MAX_LOGO_BYTES = LINK_SETTINGS_LIMITS.logoMaxBytes;
export { LOGO_CONTENT_TYPES, type LogoContentType };

export interface Logo {
  id: string;
  clientId: string;
  contentType: LogoContentType;
  data: Buffer;
  createdAt: Date;
}

export interface LogoFile {
  contentType: LogoContentType;
  data: Buffer;
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const JPEG_SIGNATURE = Buffer.from([0xff, 0xd8, 0xff]);

function normaliseContentType(value: string): string {
  const type = (value.split(';')[0] ?? '').trim().toLowerCase();
  return type === 'image/jpg' ? 'image/jpeg' : type;
}

function isLogoContentType(value: string): value is LogoContentType {
  return (LOGO_CONTENT_TYPES as readonly string[]).includes(value);
}

function decodeUtf8(data: Buffer): string | undefined {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(data);
  } catch {
    return undefined;
  }
}

function refuse(message: string): never {
  return invalid([{ field: 'logo', message }], 'Invalid logo');
}

/** Accepts a PNG, JPEG or SVG whose declared type matches its content; anything else is a validation error on `logo`. */
export function validateLogo(input: { contentType: string; data: Buffer }): LogoFile {
  const contentType = normaliseContentType(input.contentType);
  if (!isLogoContentType(contentType)) refuse('must be a PNG, JPEG or SVG image');
  if (input.data.length === 0) refuse('must not be empty');
  if (input.data.length > MAX_LOGO_BYTES) refuse(`must be at most ${MAX_LOGO_BYTES} bytes`);
  const data = input.data;
  switch (contentType) {
    case 'image/png':
      if (!data.subarray(0, PNG_SIGNATURE.length).equals(PNG_SIGNATURE)) refuse('is not a PNG image');
      break;
    case 'image/jpeg':
      if (!data.subarray(0, JPEG_SIGNATURE.length).equals(JPEG_SIGNATURE)) refuse('is not a JPEG image');
      break;
    case 'image/svg+xml': {
      const text = decodeUtf8(data);
      if (text === undefined) refuse('is not an SVG image');
      // Entities are never needed by a logo; declaring them only serves expansion tricks.
      if (/<!ENTITY/i.test(text)) refuse('SVG must not declare entities');
      // Logos are served publicly under the platform's own domain: what is stored is the sanitised document.
      const sanitised = sanitiseSvg(text);
      if (sanitised === null) refuse('is not an SVG image (an XML document whose root is <svg xmlns="http://www.w3.org/2000/svg">)');
      return { contentType, data: Buffer.from(sanitised, 'utf8') };
    }
  }
  return { contentType, data };
}
