import pino, { type Logger } from 'pino';

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

const PAN_LIKE = /\b\d(?:[ -]?\d){12,18}\b/g;

export function scrub(text: string): string {
  return text.replace(PAN_LIKE, '[REDACTED]');
}

/** Copies a log object with sensitive keys censored and card-like digit runs removed from every string. */
export function redactDeep(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return scrub(value);
  if (value === null || typeof value !== 'object' || depth > 8) return value;
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
    timestamp: pino.stdTimeFunctions.isoTime,
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
