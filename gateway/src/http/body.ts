import { AppError, type FieldViolation } from '@platform/kit';
import express, { type Request, type RequestHandler } from 'express';
import multer, { MulterError } from 'multer';
import { TransportError, validationError } from './errors';

/** raw: the bytes as sent, of any media type, unparsed (a provider's notification is signed over its bytes). */
export type BodyKind = 'json' | 'multipart' | 'raw';

const MEDIA_TYPES: Record<BodyKind, string> = {
  json: 'application/json',
  multipart: 'multipart/form-data',
  raw: '*/*',
};

/** The most a raw body may hold: far above any provider's notification, far below anything that costs memory. */
export const RAW_BODY_MAX_BYTES = 64 * 1024;

/** One uploaded file a multipart route takes. */
export interface FileField {
  field: string;
  maxBytes: number;
  contentTypes: readonly string[];
}

export interface UploadedFile {
  contentType: string;
  data: Buffer;
}

/** Nesting of a JSON body beyond which it is refused unparsed: far below what any parser or encoder on the way can take. */
export const MAX_BODY_DEPTH = 32;

const TOO_DEEP = 'entity.too.deep';

/**
 * The deepest nesting of objects and arrays in raw JSON bytes, stopping as soon as it passes `limit`: one pass,
 * no recursion, strings skipped (brackets inside them do not count).
 */
export function jsonDepthExceeds(buf: Buffer, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < buf.length; i++) {
    const byte = buf[i];
    if (inString) {
      if (byte === 0x5c) i++; // a backslash escapes the next byte
      else if (byte === 0x22) inString = false;
    } else if (byte === 0x22) inString = true;
    else if (byte === 0x7b || byte === 0x5b) {
      if (++depth > limit) return true;
    } else if (byte === 0x7d || byte === 0x5d) depth--;
  }
  return false;
}

function checkDepth(_req: unknown, _res: unknown, buf: Buffer): void {
  if (jsonDepthExceeds(buf, MAX_BODY_DEPTH)) throw Object.assign(new Error('JSON body nested too deeply'), { type: TOO_DEEP });
}

const MULTIPART_LIMITS = { fields: 30, fieldSize: 16 * 1024, fieldNameSize: 100, parts: 40 } as const;

function fromBodyParser(error: unknown): unknown {
  const e = error as { type?: string; status?: number; expose?: boolean };
  switch (e?.type) {
    case TOO_DEEP:
      return new AppError('validation', `The JSON body is nested more than ${MAX_BODY_DEPTH} levels deep`, { key: 'body_too_deep' });
    case 'entity.parse.failed':
      return new AppError('validation', 'Malformed JSON body', { key: 'malformed_json' });
    case 'entity.too.large':
      return new TransportError('payload_too_large', 'The request body is too large');
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return new TransportError('unsupported_media_type', 'Unsupported body encoding or charset');
    default:
      if (e?.status === 400 && e.expose) return new AppError('validation', 'Unreadable request body', { key: 'unreadable_body' });
      return error;
  }
}

function fromMulter(error: unknown, file: FileField | undefined): unknown {
  if (error instanceof MulterError) {
    if (error.code === 'LIMIT_FILE_SIZE') {
      return new TransportError('payload_too_large', `${error.field ?? 'file'} must be at most ${file?.maxBytes ?? 0} bytes`);
    }
    const field = error.field ?? 'body';
    const message = error.code === 'LIMIT_UNEXPECTED_FILE' ? 'unexpected file' : error.message;
    return validationError([{ field, message }], 'Invalid multipart body');
  }
  // busboy's own errors: a malformed multipart body or a request cut short.
  return new AppError('validation', 'Malformed multipart body', { key: 'malformed_multipart', cause: error });
}

/**
 * Reads the body of a route that takes one: a body of a media type the route does not take is refused with
 * 415 before anything is read; a request without a body (or an empty one) leaves `req.body` undefined.
 */
export function bodyReader(options: { consumes: readonly BodyKind[]; limit: string; file?: FileField }): RequestHandler {
  if (options.consumes.includes('raw')) return rawBodyReader();
  const json = express.json({ limit: options.limit, strict: true, verify: checkDepth });
  const upload = options.file
    ? multer({
        storage: multer.memoryStorage(),
        limits: { ...MULTIPART_LIMITS, files: 1, fileSize: options.file.maxBytes },
      }).single(options.file.field)
    : multer({ storage: multer.memoryStorage(), limits: { ...MULTIPART_LIMITS, files: 0 } }).none();
  const accepted = options.consumes.map((kind) => MEDIA_TYPES[kind]);

  return (req: Request, res, next) => {
    const empty = req.headers['content-length'] === '0' && req.headers['transfer-encoding'] === undefined;
    const type = empty ? null : req.is(accepted);
    if (type === null) {
      req.body = undefined;
      next();
      return;
    }
    if (type === false) {
      next(new TransportError('unsupported_media_type', `Content-Type must be ${accepted.join(' or ')}`));
      return;
    }
    if (type === MEDIA_TYPES.json) json(req, res, (error?: unknown) => next(error === undefined ? undefined : fromBodyParser(error)));
    else upload(req, res, (error?: unknown) => next(error === undefined ? undefined : fromMulter(error, options.file)));
  };
}

/** Reads the body as bytes whatever its media type (none: empty), up to RAW_BODY_MAX_BYTES (413 past it). */
function rawBodyReader(): RequestHandler {
  const raw = express.raw({ type: () => true, limit: RAW_BODY_MAX_BYTES });
  return (req: Request, res, next) => {
    raw(req, res, (error?: unknown) => {
      if (error !== undefined) {
        next(fromBodyParser(error));
        return;
      }
      if (!Buffer.isBuffer(req.body)) req.body = Buffer.alloc(0);
      next();
    });
  };
}

/** The uploaded file, checked against the route's allowed content types. */
export function uploadedFile(req: Request, file: FileField | undefined, violations: FieldViolation[]): UploadedFile | undefined {
  if (!file || !req.file) return undefined;
  const contentType = req.file.mimetype.toLowerCase();
  if (!file.contentTypes.includes(contentType)) {
    violations.push({ field: file.field, message: `must be one of ${file.contentTypes.join(', ')}` });
    return undefined;
  }
  return { contentType, data: req.file.buffer };
}
