import { errors, type Clock, type Logger } from '@platform/kit';
import express, { type Express } from 'express';
import type { GatewayClients } from './clients';
import type { GatewayConfig } from './config';
import { accessLog } from './http/accessLog';
import { checkoutRouter } from './checkout/router';
import { createAuthenticator, type Authenticator } from './http/auth';
import { errorHandler } from './http/errors';
import { httpMetrics } from './http/metrics';
import { rateLimitsOf, type RateLimitKey } from './http/rateLimit';
import { requestId } from './http/requestId';
import { mountRoutes, unmatched, type RouteDefinition } from './http/route';
import { docsRouter } from './openapi/docs';
import { buildOpenApiDocument, ADMIN_INFO_TITLE, isAdminRoute, type OpenApiDocument } from './openapi/document';
import { adminOpenApiRoutes, openApiRoutes } from './openapi/routes';
import { auditLog } from './routes/admin/audit';
import { adminRoutes } from './routes/admin/routes';
import { authRoutes } from './routes/auth/routes';
import { cardRoutes } from './routes/cards/routes';
import { chargeRoutes } from './routes/charges/routes';
import { customerRoutes } from './routes/customers/routes';
import { flowRoutes } from './routes/flows/routes';
import { healthRoutes } from './routes/health/routes';
import { merchantRoutes } from './routes/merchants/routes';
import { settingsRoutes } from './routes/settings/routes';
import { subscriptionRoutes } from './routes/subscriptions/routes';
import { tokenRoutes } from './routes/tokens/routes';
import { webhookRoutes } from './routes/webhooks/routes';
import { sessionKeyChecker, sessionsRoutes } from './routes/sessions/routes';
import { sellerRoutes } from './routes/sellers/routes';
import { payoutsAndPrepaymentRoutes } from './routes/payouts-and-prepayment/routes';
import { receiptRoutes } from './routes/receipts/routes';
import { reportRoutes } from './routes/reports/routes';
import { sandboxDocumentRoutes } from './routes/sandbox-documents/routes';
import { providerNotificationRoutes } from './routes/provider-notifications/routes';
// `npm run new-service` adds the import of a new service's routes above this line.

export type AppConfig = Pick<GatewayConfig, 'PUBLIC_URL' | 'AUTH_CACHE_TTL_MS' | 'BODY_LIMIT'> &
  /** Rate limits apply when RATE_LIMIT_ENABLED is true (the server's default); an app built without them has none. */
  Partial<Pick<GatewayConfig, RateLimitKey | 'TRUST_PROXY'>>;

/** The admin API's app: its tokens, and the limits and proxies as the public app has them. */
export type AdminAppConfig = Pick<GatewayConfig, 'ADMIN_TOKENS' | 'BODY_LIMIT'> & Partial<Pick<GatewayConfig, RateLimitKey | 'TRUST_PROXY'>>;

export interface AppDependencies {
  clients: GatewayClients;
  config: AppConfig;
  log: Logger;
  /** For tests of the credentials cache; the system clock otherwise. */
  clock?: Clock;
}

/** The admin listener's routes: the admin API and its own OpenAPI document. */
function adminPlaneRoutes(clients: Pick<GatewayClients, 'settings'>, document: () => OpenApiDocument): RouteDefinition[] {
  return [...adminOpenApiRoutes(document), ...adminRoutes(clients)];
}

/**
 * Every route of the gateway, in the order express tries them. Building them calls no upstream: the OpenAPI
 * document is written from this table at build time with clients that are never called.
 */
export function gatewayRoutes(clients: GatewayClients, config: Pick<AppConfig, 'PUBLIC_URL'>, document: () => OpenApiDocument): RouteDefinition[] {
  return [
    ...healthRoutes(clients),
    ...openApiRoutes(document),
    ...adminPlaneRoutes(clients, document),
    ...authRoutes(clients),
    ...customerRoutes(clients),
    ...settingsRoutes({ settings: clients.settings, publicUrl: config.PUBLIC_URL }),
    ...subscriptionRoutes(clients),
    ...merchantRoutes(clients),
    ...flowRoutes(clients),
    ...tokenRoutes(clients),
    ...cardRoutes(clients),
    ...chargeRoutes(clients),
    ...webhookRoutes(clients),
    ...sessionsRoutes({ sessions: clients.sessions, settings: clients.settings, publicUrl: config.PUBLIC_URL }),
    ...sellerRoutes(clients),
    ...payoutsAndPrepaymentRoutes(clients),
    ...reportRoutes(clients),
    ...receiptRoutes({ payments: clients.payments, publicUrl: config.PUBLIC_URL }),
    ...sandboxDocumentRoutes(clients),
    ...providerNotificationRoutes(clients),
    // `npm run new-service` adds a new service's routes above this line.
  ];
}

/**
 * What both listeners start with: metrics, request id, access log, and the client address, which is the socket's
 * peer unless TRUST_PROXY names the proxies whose X-Forwarded-For is believed (express's `trust proxy`).
 */
function baseApp(config: Pick<AppConfig, 'TRUST_PROXY'>, log: Logger): Express {
  const app = express();
  app.disable('x-powered-by');
  // No ETag hashed from every JSON answer (a SHA-1 of each body, 1% of the gateway's CPU under charges): the API's
  // answers are not cached; the routes whose answers are (the sandbox's documents) set their own.
  app.set('etag', false);
  // Flat query keys: `document.number=...` stays one key instead of becoming a nested object.
  app.set('query parser', 'simple');
  if (config.TRUST_PROXY !== undefined) app.set('trust proxy', config.TRUST_PROXY);
  app.use(httpMetrics());
  app.use(requestId());
  app.use(accessLog(log));
  app.use((_req, res, next) => {
    res.setHeader('X-Content-Type-Options', 'nosniff');
    next();
  });
  return app;
}

/**
 * The gateway's public API as an express app: every route but the admin ones (served by createAdminApp on a
 * listener of their own; here /admin answers as an unknown route), its docs, the error envelope. No listening, no
 * I/O at build time.
 */
export function createApp({ clients, config, log, clock }: AppDependencies): Express {
  const routes = gatewayRoutes(clients, config, () => document);
  const served = routes.filter((route) => !isAdminRoute(route));
  // The public listener's document lists what it serves: the admin routes are in the admin listener's own.
  const document = buildOpenApiDocument(served, { publicUrl: config.PUBLIC_URL });

  const app = baseApp(config, log);
  const rateLimits = rateLimitsOf(config);
  app.use('/docs', docsRouter());
  app.use('/checkout', checkoutRouter({ clients, publicUrl: config.PUBLIC_URL, log, rateLimits, clock }));
  mountRoutes(app, served, {
    authenticator: createAuthenticator({ settings: clients.settings, ttlMs: config.AUTH_CACHE_TTL_MS, clock }),
    sessionKeys: sessionKeyChecker(clients),
    bodyLimit: config.BODY_LIMIT,
    rateLimits,
  });
  app.use(unmatched(served));
  app.use(errorHandler(log));
  return app;
}

/** No client key reaches the admin listener: it serves admin routes only. */
const noClients: Authenticator = { authenticate: () => Promise.reject(errors.unauthenticated()) };

/**
 * The admin API (/admin/v1) as an express app, for its own listener (ADMIN_PORT): any of ADMIN_TOKENS is accepted,
 * and every request gets an audit line (which token, what, from where, the answer), never the token.
 */
export function createAdminApp({ clients, config, log }: { clients: Pick<GatewayClients, 'settings'>; config: AdminAppConfig; log: Logger }): Express {
  const routes = adminPlaneRoutes(clients, () => document);
  const document = buildOpenApiDocument(routes, { admin: true });
  const app = baseApp(config, log);
  app.use('/docs', docsRouter({ documentUrl: '/admin/v1/openapi.json', title: ADMIN_INFO_TITLE }));
  app.use(auditLog(log, routes));
  mountRoutes(app, routes, { authenticator: noClients, adminTokens: config.ADMIN_TOKENS, bodyLimit: config.BODY_LIMIT, rateLimits: rateLimitsOf(config) });
  app.use(unmatched(routes));
  app.use(errorHandler(log));
  return app;
}
