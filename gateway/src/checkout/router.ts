import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type { settings } from '@platform/contracts';
import { AppError, systemClock, type CallMeta, type Clock, type Logger } from '@platform/kit';
import express, { type NextFunction, type Request, type RequestHandler, type Response, type Router } from 'express';
import QRCode from 'qrcode';
import type { GatewayClients } from '../clients';
import { TransportError, UNAVAILABLE_RETRY_AFTER_SECONDS } from '../http/errors';
import type { RateLimits } from '../http/rateLimit';
import { checkoutState, noticePage, paymentPage } from './page';

/** The page's own script and stylesheet; nothing comes from another origin. */
export const ASSETS_DIR = path.resolve(__dirname, '..', '..', 'public', 'checkout');
const ASSETS: Record<string, string> = { 'checkout.js': 'application/javascript', 'checkout.css': 'text/css' };

const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

/**
 * What the browser may do on the page: its own script and styles (and the one theme block, by nonce), images from
 * here and data URLs, requests to this origin only, no framing, no plugins, no form posts elsewhere.
 */
function contentSecurityPolicy(nonce: string): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    `style-src 'self' 'nonce-${nonce}'`,
    "img-src 'self' data:",
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

export interface CheckoutDependencies {
  clients: Pick<GatewayClients, 'sessions' | 'settings' | 'payments'>;
  publicUrl: string;
  log: Logger;
  rateLimits?: RateLimits;
  clock?: Clock;
}

/**
 * The hosted checkout page of a session (`<PUBLIC_URL>/checkout/<sessionId>`), served without credentials: the
 * order, the merchant's payment-link settings, and a form that pays through `POST /v1/sessions/{id}/charge` with
 * the session's public key. Mount at /checkout.
 */
export function checkoutRouter({ clients, publicUrl, log, rateLimits, clock = systemClock }: CheckoutDependencies): Router {
  const router = express.Router();
  const limited: RequestHandler[] = rateLimits ? rateLimits.around('public', undefined) : [];
  const callOf = (req: Request): CallMeta => ({ requestId: req.requestId });

  const linkSettingsOf = async (clientId: string, merchantId: string, call: CallMeta): Promise<settings.LinkSettings | undefined> =>
    clients.settings.getLinkSettings({ clientId, merchantId }, call).catch((error: unknown) => {
      // The page still works in the platform's colors when the settings cannot be read.
      if (!(error instanceof AppError && error.kind === 'not_found')) log.warn({ err: error }, 'checkout: payment-link settings unavailable');
      return undefined;
    });

  const sendPage = (res: Response, status: number, html: string, nonce: string) => {
    res
      .status(status)
      .set({
        'Content-Security-Policy': contentSecurityPolicy(nonce),
        'Cache-Control': 'no-store',
        'Referrer-Policy': 'no-referrer',
        'X-Frame-Options': 'DENY',
      })
      .type('html')
      .send(html);
  };

  for (const [file, type] of Object.entries(ASSETS)) {
    router.get(`/assets/${file}`, (_req, res, next) => {
      res.type(type).sendFile(path.join(ASSETS_DIR, file), { maxAge: '1h' }, (error?: Error) => (error ? next(error) : undefined));
    });
  }

  router.get('/:sessionId', ...limited, async (req, res, next) => {
    const nonce = randomBytes(16).toString('base64');
    try {
      const sessionId = String(req.params.sessionId);
      const found = UUID.test(sessionId) ? await findSession(clients, sessionId, callOf(req)) : undefined;
      if (!found) return sendPage(res, 404, noticePage('unknown', { nonce, publicUrl }), nonce);
      const linkSettings = await linkSettingsOf(found.clientId, found.merchantId, callOf(req));
      const state = checkoutState(found, clock.now());
      if (state !== 'payable') return sendPage(res, 200, noticePage(state, { nonce, linkSettings, publicUrl }), nonce);
      return sendPage(res, 200, paymentPage(found, { nonce, linkSettings, publicUrl, publicKey: found.publicKey }), nonce);
    } catch (error) {
      return next(error);
    }
  });

  // The QR code of a Pix charge made through this session's page, as an image: only a charge of this session.
  router.get('/:sessionId/charges/:chargeId/pix.svg', ...limited, async (req, res, next) => {
    try {
      const sessionId = String(req.params.sessionId);
      const chargeId = String(req.params.chargeId);
      const found = UUID.test(sessionId) && UUID.test(chargeId) ? await findSession(clients, sessionId, callOf(req)) : undefined;
      const charge = found ? await clients.payments.getCharge({ clientId: found.clientId, id: chargeId }, callOf(req)).catch(notFoundAsUndefined) : undefined;
      const data = charge?.sessionId === sessionId && charge.paymentMethod?.paymentType === 'pix' ? charge.paymentMethod.qrCodeData : '';
      if (!data) {
        res.status(404).type('text/plain').send('Not found');
        return;
      }
      const svg = await QRCode.toString(data, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
      res.set({ 'Cache-Control': 'private, max-age=300', 'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'" }).type('image/svg+xml').send(svg);
    } catch (error) {
      next(error);
    }
  });

  // Anything else under /checkout, and failures, answer a page a buyer can read, never a stack or JSON.
  router.use((_req, res) => {
    const nonce = randomBytes(16).toString('base64');
    sendPage(res, 404, noticePage('unknown', { nonce, publicUrl }), nonce);
  });
  router.use((error: unknown, req: Request, res: Response, _next: NextFunction) => {
    if (error instanceof TransportError && error.kind === 'rate_limited') {
      res.status(429).set(error.headers).type('text/plain').send('Too many requests: wait a moment and reload the page.');
      return;
    }
    const nonce = randomBytes(16).toString('base64');
    // A path express cannot decode (bad percent-encoding) names no session.
    if (error instanceof URIError || (error as { status?: unknown } | null)?.status === 400) {
      sendPage(res, 404, noticePage('unknown', { nonce, publicUrl }), nonce);
      return;
    }
    const unavailable = error instanceof AppError && error.kind === 'unavailable';
    if (unavailable) {
      log.warn({ err: error, requestId: req.requestId }, 'checkout: upstream unavailable');
      res.set('Retry-After', String(UNAVAILABLE_RETRY_AFTER_SECONDS));
    } else {
      log.error({ err: error, requestId: req.requestId }, 'checkout failed');
    }
    sendPage(res, unavailable ? 503 : 500, noticePage('down', { nonce, publicUrl }), nonce);
  });
  return router;
}

function notFoundAsUndefined(error: unknown): undefined {
  if (error instanceof AppError && error.kind === 'not_found') return undefined;
  throw error;
}

async function findSession(clients: CheckoutDependencies['clients'], id: string, call: CallMeta) {
  return clients.sessions.getCheckoutSession({ id }, call).catch(notFoundAsUndefined);
}
