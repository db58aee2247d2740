import { randomUUID } from 'node:crypto';
import type { RequestHandler } from 'express';
import './context';
import { holdsSecret } from './redact';

const SANE_REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;

/**
 * Keeps a caller's X-Request-Id when it is a sane token, else makes one; echoed on the response. A key pasted there
 * is not kept: the request id is in every log line of every service the request reaches.
 */
export function requestId(): RequestHandler {
  return (req, res, next) => {
    const given = req.get('x-request-id');
    req.requestId = given !== undefined && SANE_REQUEST_ID.test(given) && !holdsSecret(given) ? given : randomUUID();
    res.setHeader('X-Request-Id', req.requestId);
    next();
  };
}
