import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from '@platform/kit';
import type { Request, RequestHandler } from 'express';
import { pinoHttp } from 'pino-http';
import './context';
import { REDACTED, redactSecrets } from './redact';

/** Longest path or header value a log line carries; the caller decides how long they are, not how long our lines are. */
export const LOGGED_VALUE_MAX = 256;

/** A value as a line carries it: key-shaped values redacted (a caller may paste a key anywhere), then cut to size. */
function truncated(value: string): string {
  const redacted = redactSecrets(value);
  return redacted.length > LOGGED_VALUE_MAX ? `${redacted.slice(0, LOGGED_VALUE_MAX)}…[${redacted.length - LOGGED_VALUE_MAX} more]` : redacted;
}

/** A request's path as log lines carry it: no query string, key-shaped parts redacted, cut to size. */
export function pathOf(url: string | undefined): string {
  const value = url ?? '';
  const query = value.indexOf('?');
  // The query string can hold e-mails and document numbers (list filters), so only the path is logged.
  return truncated(query === -1 ? value : value.slice(0, query));
}

/**
 * Where providers post notifications, a header may be the secret that authenticates the post (Cielo's static
 * headers, registered under names the merchant chose): there only these headers' values are logged, the others'
 * names alone.
 */
const NOTIFICATION_PATH = '/v1/provider-notifications/';
const NOTIFICATION_HEADERS_LOGGED = new Set(['content-type', 'content-length', 'user-agent', 'host', 'accept']);

function headersOf(headers: Record<string, unknown>, path: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  // Routes match whatever the case of the path: so does this.
  const notification = path.toLowerCase().startsWith(NOTIFICATION_PATH);
  for (const [name, value] of Object.entries(headers)) {
    if (notification && !NOTIFICATION_HEADERS_LOGGED.has(name.toLowerCase())) {
      out[name] = REDACTED;
      continue;
    }
    if (typeof value === 'string') out[name] = truncated(value);
    else if (Array.isArray(value)) out[name] = value.map((v) => (typeof v === 'string' ? truncated(v) : v));
    else out[name] = value;
  }
  return out;
}

/**
 * The client's address: the socket's peer, or with TRUST_PROXY set, what the trusted proxies say in X-Forwarded-For
 * (express's `req.ip`, by its `trust proxy` setting).
 */
export function clientIpOf(req: Request): string | undefined {
  return req.ip ?? req.socket?.remoteAddress;
}

/**
 * One line per request through the kit logger, so its redaction applies to the headers. Bodies and query
 * strings are never logged.
 */
export function accessLog(log: Logger): RequestHandler {
  if (!log.isLevelEnabled('info')) return failuresOnly(log);
  const middleware = pinoHttp({
    logger: log,
    genReqId: (req: IncomingMessage) => (req as Request).requestId,
    quietReqLogger: true,
    customLogLevel: (_req, res, error) => (error || res.statusCode >= 500 ? 'error' : 'info'),
    customSuccessMessage: (req, res) => `${req.method} ${pathOf((req as Request).originalUrl)} ${res.statusCode}`,
    customErrorMessage: (req, res) => `${req.method} ${pathOf((req as Request).originalUrl)} ${res.statusCode}`,
    // A 5xx carries only a placeholder error here; the real one is in the error handler's line, with its logId.
    customErrorObject: (_req, _res, _error, value: Record<string, unknown>) => {
      const { err: _err, ...rest } = value;
      return rest;
    },
    customProps: (req: IncomingMessage) => {
      const clientId = (req as Request).client?.clientId;
      return clientId ? { clientId } : {};
    },
    customAttributeKeys: { responseTime: 'durationMs', reqId: 'requestId' },
    serializers: {
      req: (req: { raw: IncomingMessage; headers: Record<string, unknown> }) => {
        const path = pathOf((req.raw as Request).originalUrl ?? req.raw.url);
        return { method: req.raw.method, path, clientIp: clientIpOf(req.raw as Request), headers: headersOf(req.headers, path) };
      },
      res: (res: { raw: ServerResponse }) => ({ status: res.raw.statusCode }),
    },
  });
  return middleware as unknown as RequestHandler;
}

/**
 * Below info (a production level), only answers of 5xx get a line: no per-request logger is made for the others,
 * which keeps the cost of logging off the path of every request.
 */
function failuresOnly(log: Logger): RequestHandler {
  return (req, res, next) => {
    res.once('finish', () => {
      if (res.statusCode < 500) return;
      const path = pathOf(req.originalUrl);
      const clientId = req.client?.clientId;
      log.error(
        { requestId: req.requestId, req: { method: req.method, path, clientIp: clientIpOf(req), headers: headersOf(req.headers, path) }, res: { status: res.statusCode }, ...(clientId ? { clientId } : {}) },
        `${req.method} ${path} ${res.statusCode}`,
      );
    });
    next();
  };
}
