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

const PAN_LIKE = /\b(?:\d[ -]?){13,19}\b/g;

export function scrub(text: string): string {
  return text.replace(PAN_LIKE, '[REDACTED]');
}

export function createLogger(options: { name: string; level?: string }): Logger {
  return pino({
    name: options.name,
    level: options.level ?? 'info',
    redact: { paths: REDACT_PATHS, censor: '[REDACTED]' },
    base: { service: options.name },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
    hooks: {
      logMethod(args, method) {
        const scrubbed = args.map((a) => (typeof a === 'string' ? scrub(a) : a)) as typeof args;
        method.apply(this, scrubbed);
      },
    },
    serializers: {
      err: (err: Error) => {
        const s = pino.stdSerializers.err(err);
        if (typeof s.message === 'string') s.message = scrub(s.message);
        if (typeof s.stack === 'string') s.stack = scrub(s.stack);
        return s;
      },
    },
  });
}
