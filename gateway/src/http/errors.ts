import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import { PREPAYMENT_DENIED_CODE } from '@platform/api-model';
import { AppError, type ErrorKind, type FieldViolation, type Logger } from '@platform/kit';
import type { ErrorRequestHandler, Request, Response } from 'express';
import { z } from '../openapi/zod';

/** Failures of the HTTP layer itself: no service raises them, so they are not kit error kinds. */
export type TransportKind =
  | 'method_not_allowed'
  | 'request_timeout'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'header_fields_too_large'
  | 'rate_limited';
export type HttpErrorKind = ErrorKind | TransportKind;

export class TransportError extends Error {
  constructor(
    readonly kind: TransportKind,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'TransportError';
  }
}

export const ERROR_TYPES = ['api_error', 'bad_request', 'invalid_request_error', 'card_declined'] as const;
export type ErrorType = (typeof ERROR_TYPES)[number];

/** The one mapping from an error kind to its HTTP status and envelope type. */
export function httpErrorOf(kind: HttpErrorKind): { status: number; type: ErrorType } {
  switch (kind) {
    case 'validation':
      return { status: 400, type: 'bad_request' };
    case 'unauthenticated':
      return { status: 401, type: 'invalid_request_error' };
    case 'card_declined':
      return { status: 402, type: 'card_declined' };
    case 'forbidden':
      return { status: 403, type: 'invalid_request_error' };
    case 'not_found':
      return { status: 404, type: 'invalid_request_error' };
    case 'method_not_allowed':
      return { status: 405, type: 'invalid_request_error' };
    case 'request_timeout':
      return { status: 408, type: 'invalid_request_error' };
    case 'conflict':
      return { status: 409, type: 'invalid_request_error' };
    case 'payload_too_large':
      return { status: 413, type: 'invalid_request_error' };
    case 'unsupported_media_type':
      return { status: 415, type: 'invalid_request_error' };
    case 'header_fields_too_large':
      return { status: 431, type: 'invalid_request_error' };
    case 'business_rule':
      return { status: 422, type: 'invalid_request_error' };
    case 'rate_limited':
      return { status: 429, type: 'invalid_request_error' };
    case 'internal':
      return { status: 500, type: 'api_error' };
    case 'unavailable':
      return { status: 503, type: 'api_error' };
    default: {
      const unmapped: never = kind;
      throw new Error(`unmapped error kind ${String(unmapped)}`);
    }
  }
}

export const ErrorEnvelope = z
  .object({
    error: z.object({
      type: z.enum(ERROR_TYPES),
      code: z.int().openapi({ description: 'The HTTP status', example: 400 }),
      message: z.string(),
      key: z.string().optional().openapi({ description: 'Stable key for programmatic handling' }),
      businessCode: z.string().optional().openapi({ description: 'Business rule that refused the request (422)' }),
      declinedCode: z.string().optional().openapi({ description: 'Card decline reason (402)' }),
      declined_code: z.string().optional().openapi({ description: 'The same as declinedCode, under the name client libraries read' }),
      details: z
        .array(z.object({ field: z.string().openapi({ example: 'document.number' }), message: z.string() }))
        .optional()
        .openapi({ description: 'One item per invalid field (400)' }),
    }),
    code: z
      .string()
      .optional()
      .openapi({ description: `Only on a 403 of a client not enabled for prepayment: \`${PREPAYMENT_DENIED_CODE}\`, as error.businessCode`, example: PREPAYMENT_DENIED_CODE }),
    networkDeniedMessage: z.string().optional().openapi({ description: `Only with code \`${PREPAYMENT_DENIED_CODE}\`: why the request was denied, in a sentence` }),
  })
  .openapi('Error');

export type ErrorBody = z.infer<typeof ErrorEnvelope>['error'];

/** The error envelope, plus the top-level fields of a prepayment denial. */
export type ErrorResponseBody = Pick<z.infer<typeof ErrorEnvelope>, 'code' | 'networkDeniedMessage'> & { error: ErrorBody };

export interface RenderedError {
  status: number;
  body: ErrorResponseBody;
  headers: Record<string, string>;
}

/** The sentence of `networkDeniedMessage`, shown to a client that is not enabled for prepayment. */
export const NETWORK_DENIED_MESSAGE = 'This account is not enabled for prepayment; ask the platform to enable it.';

/**
 * The Retry-After (seconds) of every 503: an upstream that is down, restarting or not yet migrated. The gateway's
 * gRPC channels try again within 3 s of a failed connection (CLIENT_CHANNEL_OPTIONS), so a client retrying after this
 * long meets a service that came back.
 */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

/** The answer for a path no route serves; sandbox-only routes give the same one to clients outside the sandbox. */
export function routeNotFound(method: string, path: string): AppError {
  return new AppError('not_found', `No route for ${method} ${path}`, { key: 'route_not_found' });
}

export function validationError(details: FieldViolation[], message = 'Invalid request'): AppError {
  return new AppError('validation', message, { details });
}

/**
 * Turns anything thrown while serving a request into the envelope. Raw errors never reach the client: an
 * unexpected one becomes a 500 whose logId is in the error log line.
 */
export function renderError(error: unknown, log: Logger, context: { requestId?: string }): RenderedError {
  // express decodes path parameters before any handler runs, and throws URIError on a malformed %-escape.
  if (error instanceof URIError) {
    return renderError(new AppError('validation', 'Malformed percent-encoding in the path', { key: 'malformed_path' }), log, context);
  }
  if (error instanceof TransportError) {
    const { status, type } = httpErrorOf(error.kind);
    return { status, headers: error.headers, body: { error: { type, code: status, message: error.message, key: error.kind } } };
  }
  const appError = error instanceof AppError ? error : new AppError('internal', 'Internal error', { cause: error });
  const { status, type } = httpErrorOf(appError.kind);
  let message = appError.message;
  if (appError.kind === 'internal') {
    const errorId = appError.errorId ?? randomUUID();
    log.error({ err: appError.cause ?? appError, errorId, requestId: context.requestId }, 'internal error');
    message = `Internal error, logId=${errorId}`;
  } else if (appError.kind === 'unavailable') {
    log.warn({ err: appError.cause ?? appError, requestId: context.requestId }, 'upstream unavailable');
  }
  // An upstream that is down fails only the routes it serves, each with a hint of when to try again.
  const headers: Record<string, string> = appError.kind === 'unavailable' ? { 'Retry-After': String(UNAVAILABLE_RETRY_AFTER_SECONDS) } : {};
  const body: ErrorBody = { type, code: status, message };
  if (appError.key) body.key = appError.key;
  if (appError.businessCode) body.businessCode = appError.businessCode;
  if (appError.declinedCode) {
    body.declinedCode = appError.declinedCode;
    body.declined_code = appError.declinedCode;
  }
  if (appError.kind === 'validation' && appError.details?.length) {
    body.details = appError.details.map((d) => ({ field: d.field, message: d.message }));
  }
  // A client not enabled for prepayment: compat clients read the code and a readable sentence at the top level.
  if (appError.kind === 'forbidden' && appError.businessCode === PREPAYMENT_DENIED_CODE) {
    return { status, headers, body: { error: body, code: PREPAYMENT_DENIED_CODE, networkDeniedMessage: NETWORK_DENIED_MESSAGE } };
  }
  return { status, headers, body: { error: body } };
}

export function sendError(res: Response, rendered: RenderedError): void {
  res.status(rendered.status).set(rendered.headers).json(rendered.body);
}

export function errorHandler(log: Logger): ErrorRequestHandler {
  return (error: unknown, req: Request, res: Response, next) => {
    if (res.headersSent) {
      next(error);
      return;
    }
    sendError(res, renderError(error, log, { requestId: req.requestId }));
  };
}

/**
 * The answer to a request Node's HTTP parser refused before express saw it (bad bytes in the path or a header,
 * headers over the size limit, a request that never finished), as raw HTTP/1.1 bytes in the error envelope;
 * undefined when the connection is gone or nothing should be answered.
 */
export function clientErrorResponse(error: { code?: string }): { status: number; raw: string } | undefined {
  let rendered: { status: number; type: ErrorType; message: string; key: string };
  switch (error.code) {
    case 'ECONNRESET':
    case 'EPIPE':
      return undefined;
    case 'HPE_HEADER_OVERFLOW': {
      const { status, type } = httpErrorOf('header_fields_too_large');
      rendered = { status, type, message: 'The request headers are too large', key: 'header_fields_too_large' };
      break;
    }
    case 'ERR_HTTP_REQUEST_TIMEOUT':
    case 'HPE_HEADERS_TIMEOUT': {
      const { status, type } = httpErrorOf('request_timeout');
      rendered = { status, type, message: 'The request was not received in time', key: 'request_timeout' };
      break;
    }
    default: {
      const { status, type } = httpErrorOf('validation');
      rendered = { status, type, message: 'Malformed HTTP request', key: 'malformed_request' };
    }
  }
  const { status, ...rest } = rendered;
  const body = JSON.stringify({ error: { type: rest.type, code: status, message: rest.message, key: rest.key } });
  const raw =
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}\r\n` +
    'Content-Type: application/json; charset=utf-8\r\n' +
    `Content-Length: ${Buffer.byteLength(body)}\r\n` +
    'X-Content-Type-Options: nosniff\r\n' +
    'Connection: close\r\n\r\n' +
    body;
  return { status, raw };
}
