import { histogram, counter } from '@platform/kit';
import type { Request, RequestHandler } from 'express';

const requests = () =>
  counter({ name: 'http_server_requests_total', help: 'HTTP requests answered, by route template, method and status', labelNames: ['method', 'route', 'status_code'] });
const duration = () =>
  histogram({ name: 'http_server_request_duration_seconds', help: 'Time to answer an HTTP request, by route template, method and status', labelNames: ['method', 'route', 'status_code'] });

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/**
 * The route a request matched as its template (`/v1/charges/:id`), never the path itself: a path holds ids, and one
 * series per id would grow without end. Requests no route matched share `unmatched`; a mounted router's pages
 * (the checkout page, the docs) are counted under its mount point.
 */
export function routeLabel(req: Request): string {
  const template = req.route?.path;
  if (typeof template === 'string') return `${req.baseUrl}${template}`;
  return req.baseUrl || 'unmatched';
}

/** Counts and times every answer; the first middleware, so refusals (401, 429, 413) are counted too. */
export function httpMetrics(): RequestHandler {
  const counted = requests();
  const timed = duration();
  // One pair of series per method, route and status, made once: an answer then costs no label hashing.
  const series = new Map<string, { count: ReturnType<typeof counted.labels>; time: ReturnType<typeof timed.labels> }>();
  return (req, res, next) => {
    const started = performance.now();
    res.once('finish', () => {
      const method = METHODS.has(req.method) ? req.method : 'OTHER';
      const route = routeLabel(req);
      const key = `${method} ${route} ${res.statusCode}`;
      let one = series.get(key);
      if (!one) {
        const labels = { method, route, status_code: String(res.statusCode) };
        series.set(key, (one = { count: counted.labels(labels), time: timed.labels(labels) }));
      }
      one.count.inc();
      one.time.observe((performance.now() - started) / 1000);
    });
    next();
  };
}
