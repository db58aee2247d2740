import { LINK_SETTINGS_LIMITS, LOGO_CONTENT_TYPES, type LogoContentType } from '@platform/api-model';
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

/** Skips an XML prolog (declaration, comments, doctype, whitespace) and expects the root element to be `<svg`. */
function startsWithSvgRoot(text: string): boolean {
  let rest = text.replace(/^\uFEFF/, '');
  for (;;) {
    rest = rest.trimStart();
    const prolog = /^(?:<\?xml[\s\S]*?\?>|<!--[\s\S]*?-->|<!DOCTYPE[^>]*>)/i.exec(rest);
    if (!prolog) break;
    rest = rest.slice(prolog[0].length);
  }
  return /^<svg[\s>/]/.test(rest);
}

/**
 * Logos are served publicly under the platform's own domain, so an SVG that could run script there is refused
 * outright rather than sanitised.
 */
const ACTIVE_SVG_CONTENT = /<script|<foreignObject|<!ENTITY|javascript:|\son[a-z]+\s*=/i;

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
      if (text === undefined || !startsWithSvgRoot(text)) refuse('is not an SVG image');
      if (ACTIVE_SVG_CONTENT.test(text)) refuse('SVG must not contain scripts, event handlers or entity declarations');
      break;
    }
  }
  return { contentType, data };
}
