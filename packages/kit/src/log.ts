import { types } from 'node:util';
import pino, { type Logger } from 'pino';
import { traceFields } from './trace';

export type { Logger };

/**
 * Paths removed from every log line. Card data, keys and credentials never reach a log, whatever
 * object they arrive in; free text is scrubbed of card-number-like digit runs as a second line of defence.
 */
export const REDACT_PATHS = [
  'apiKey',
  '*.apiKey',
  'api_key',
  '*.api_key',
  'publicKey',
  '*.publicKey',
  'password',
  '*.password',
  'secret',
  '*.secret',
  'token',
  '*.token',
  'cardNumber',
  '*.cardNumber',
  '*.*.cardNumber',
  'cardCvv',
  '*.cardCvv',
  '*.*.cardCvv',
  'cvv',
  '*.cvv',
  'credentials',
  '*.credentials',
  'req.headers["x-api-key"]',
  'req.headers["x-admin-token"]',
  'req.headers.authorization',
  'req.headers.cookie',
  'headers["x-api-key"]',
  'headers["x-admin-token"]',
  'headers.authorization',
];

/** Keys whose values never reach a log, at any depth (compared lower-cased). */
const SENSITIVE_KEYS = new Set([
  'apikey',
  'api_key',
  'x-api-key',
  'x-admin-token',
  'admintoken',
  'authorization',
  'cookie',
  'password',
  'secret',
  'token',
  'publickey',
  'privatekey',
  'credentials',
  'cardnumber',
  'card_number',
  'cardcvv',
  'card_cvv',
  'cvv',
  'pan',
]);

/**
 * A UUID (every resource and request id), kept whole, or a card-number-like digit run (13 to 19 digits, spaces or
 * dashes between them), replaced. UUIDs come first: the dashed digit groups of a random UUID can hold 13 digits.
 */
const UUID_OR_PAN_LIKE = /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b|\b\d(?:[ -]?\d){12,18}\b/gi;
const UUID_START = /^[0-9a-f]{8}-/i;

export function scrub(text: string): string {
  return text.replace(UUID_OR_PAN_LIKE, (match) => (match.length === 36 && UUID_START.test(match) ? match : '[REDACTED]'));
}

/** Fields of an error that say what went wrong without carrying the objects or data around it. */
const ERROR_STRING_FIELDS = [
  'code',
  'kind',
  'key',
  'businessCode',
  'declinedCode',
  'errorId',
  'syscall',
  // PostgreSQL (pg's DatabaseError): which rule failed where; `detail`, `where`, `hint` and `position` quote
  // row values and statements, so they stay out.
  'severity',
  'routine',
  'constraint',
  'schema',
  'table',
  'column',
  'dataType',
] as const;

const MAX_CAUSE_DEPTH = 3;

/**
 * An Error, also one made in another realm (node's own errors seen from a vm context such as a test sandbox):
 * `instanceof Error` alone would take it for a plain object and log its enumerable fields without the message.
 */
function isError(value: object): value is Error {
  return value instanceof Error || types.isNativeError(value);
}

/**
 * PostgreSQL quotes the offending value in the message of a data exception (class 22: `invalid input syntax
 * for type uuid: "<what the client sent>"`, `value "<...>" is out of range for type integer`): the quoted
 * values are left out, the rule stays.
 */
function withoutQuotedInput(message: string, fields: Record<string, unknown>): string {
  const pgDataException = typeof fields.severity === 'string' && typeof fields.code === 'string' && fields.code.startsWith('22');
  return pgDataException ? message.replace(/"(?:[^"]|"")*"/g, '[REDACTED]') : message;
}

/**
 * An error as a log field: type, name, message, stack, code and the few fields above, with its cause. Never
 * the rest of its own properties: a pg error can carry the client (connection parameters included), a gRPC
 * error its metadata, any error the values of the request that failed.
 */
export function serializeError(value: unknown, depth = 0): unknown {
  if (value === null || typeof value !== 'object') return value;
  // Error-like objects (already serialized, or thrown by code that does not extend Error) get the same treatment.
  const fields = value as Record<string, unknown>;
  const type = isError(value) ? (value.constructor?.name ?? 'Error') : typeof fields.type === 'string' ? fields.type : 'Object';
  const rawMessage = typeof fields.message === 'string' ? fields.message : '';
  const message = withoutQuotedInput(rawMessage, fields);
  const out: Record<string, unknown> = { type, message: scrub(message) };
  if (typeof fields.name === 'string' && fields.name !== type) out.name = fields.name;
  for (const field of ERROR_STRING_FIELDS) {
    const v = fields[field];
    if (typeof v === 'string') out[field] = scrub(v);
    else if (typeof v === 'number') out[field] = v;
  }
  if (typeof fields.errno === 'number') out.errno = fields.errno;
  if (typeof fields.stack === 'string') out.stack = scrub(message === rawMessage ? fields.stack : fields.stack.split(rawMessage).join(message));
  const errors = value instanceof AggregateError ? (value.errors as unknown[]) : Array.isArray(fields.errors) ? (fields.errors as unknown[]) : undefined;
  if (errors && depth < MAX_CAUSE_DEPTH) out.errors = errors.slice(0, 5).map((e) => serializeError(e, depth + 1));
  if (fields.cause !== undefined && depth < MAX_CAUSE_DEPTH) out.cause = serializeError(fields.cause, depth + 1);
  return out;
}

/** Copies a log object with sensitive keys censored and card-like digit runs removed from every string. */
export function redactDeep(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return scrub(value);
  if (value === null || typeof value !== 'object' || depth > 8) return value;
  if (isError(value)) return serializeError(value);
  if (Array.isArray(value)) return value.map((v) => redactDeep(v, depth + 1));
  if (value instanceof Date || Buffer.isBuffer(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
    out[key] = SENSITIVE_KEYS.has(key.toLowerCase()) && v !== undefined && v !== null ? '[REDACTED]' : redactDeep(v, depth + 1);
  }
  return out;
}

export function createLogger(options: { name: string; level?: string; destination?: pino.DestinationStream }): Logger {
  const logOptions: pino.LoggerOptions = {
    name: options.name,
    level: options.level ?? 'info',
    redact: { paths: REDACT_PATHS, censor: '[REDACTED]' },
    base: { service: options.name },
    // Errors become plain objects in formatters.log already; these cover anything logged past it.
    serializers: { err: serializeError, error: serializeError },
    timestamp: pino.stdTimeFunctions.isoTime,
    // Inside a traced call, the line names its trace and span, so a log search leads to the trace and back.
    mixin: traceFields,
    formatters: {
      level: (label) => ({ level: label }),
      log: (object) => redactDeep(object) as Record<string, unknown>,
    },
    hooks: {
      logMethod(args, method) {
        const scrubbed = args.map((a) => (typeof a === 'string' ? scrub(a) : a)) as typeof args;
        method.apply(this, scrubbed);
      },
    },
  };
  return options.destination ? pino(logOptions, options.destination) : pino(logOptions);
}
