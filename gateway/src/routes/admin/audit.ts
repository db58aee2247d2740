import type { Logger } from '@platform/kit';
import type { RequestHandler } from 'express';
import { clientIpOf, pathOf } from '../../http/accessLog';
import '../../http/context';
import { expressPath, type RouteDefinition } from '../../http/route';

/**
 * One audit line per request to the admin API, whatever its outcome: who (the id of the admin token that matched,
 * null when none did), what (the operation, method, route template and path), from which address, and the status
 * answered. The token itself is never in it. The lines are written at info even when LOG_LEVEL is higher (a
 * production level), so an operator's actions are always on record; only `silent` silences them.
 */
export function auditLog(log: Logger, routes: readonly RouteDefinition[]): RequestHandler {
  const audit = log.isLevelEnabled('info') || log.level === 'silent' ? log.child({ audit: 'admin' }) : log.child({ audit: 'admin' }, { level: 'info' });
  const operations = new Map(routes.map((route) => [`${route.method.toUpperCase()} ${expressPath(route.path)}`, route.operationId]));
  return (req, res, next) => {
    res.once('close', () => {
      const template = typeof req.route?.path === 'string' ? (req.route.path as string) : undefined;
      const admin = req.admin ?? null;
      const status = res.statusCode;
      const path = pathOf(req.originalUrl);
      audit.info(
        {
          requestId: req.requestId,
          admin,
          action: (template && operations.get(`${req.method} ${template}`)) ?? null,
          method: req.method,
          route: template ?? null,
          path,
          clientIp: clientIpOf(req) ?? null,
          status,
          // An answer cut short (the caller went away) is not an outcome the caller saw.
          completed: res.writableFinished,
        },
        `admin ${req.method} ${path} ${status} by ${admin ?? 'no valid token'}`,
      );
    });
    next();
  };
}
