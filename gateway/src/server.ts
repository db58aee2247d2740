import http, { type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import type { Logger } from '@platform/kit';
import type { Express } from 'express';
import { clientErrorResponse } from './http/errors';

export const KEEP_ALIVE_TIMEOUT_MS = 65_000;

export interface RunningServer {
  port: number;
  /** From now on GET /health answers 503 `{"status":"draining"}` (readiness false) while every other request is served. */
  notReady(): void;
  /**
   * Stops accepting connections, lets in-flight requests finish (their connections close after the answer),
   * closes idle keep-alive connections at once, and closes everything still open after graceMs.
   */
  stop(graceMs?: number): Promise<void>;
}

/** Serves an app: the public API, or (`what: 'admin API'`) the admin one on its own port. */
export async function listen(app: Express, options: { host: string; port: number; log: Logger; what?: string }): Promise<RunningServer> {
  const server = http.createServer();
  // Idle keep-alive connections outlive the client's and a load balancer's (60 s is the common idle timeout), so
  // the client side closes them first: a server closing a socket while a client reuses it resets a request that
  // a client may not retry (a POST).
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  server.headersTimeout = KEEP_ALIVE_TIMEOUT_MS + 1_000;
  const inFlight = new Set<ServerResponse>();
  let draining = false;
  // Registered before the app, so the header is set before the app can answer.
  server.on('request', (_req, res: ServerResponse) => {
    if (draining) res.setHeader('Connection', 'close');
    inFlight.add(res);
    res.once('close', () => inFlight.delete(res));
  });
  let ready = true;
  server.on('request', (req, res) => {
    if (!ready && req.method === 'GET' && (req.url === '/health' || req.url?.startsWith('/health?'))) {
      res.writeHead(503, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
      res.end(JSON.stringify({ status: 'draining' }));
      return;
    }
    app(req, res);
  });
  // Node's parser refuses some requests before express sees them; they get the error envelope, not a bare status.
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    const answer = clientErrorResponse(error);
    // As Node's own handler: nothing is written over a response already under way.
    const pending = (socket as Duplex & { _httpMessage?: { _headerSent?: boolean } })._httpMessage;
    if (answer && socket.writable && !pending?._headerSent) {
      options.log.info({ code: error.code, status: answer.status }, 'malformed request refused');
      socket.end(answer.raw);
    } else {
      socket.destroy();
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  options.log.info({ host: options.host, port }, `${options.what ?? 'gateway'} listening`);

  let stopping: Promise<void> | undefined;
  const stop = (graceMs = 10_000) => {
    stopping ??= new Promise<void>((resolve) => {
      draining = true;
      for (const res of inFlight) if (!res.headersSent) res.setHeader('Connection', 'close');
      const force = setTimeout(() => server.closeAllConnections(), graceMs);
      force.unref();
      server.close(() => {
        clearTimeout(force);
        resolve();
      });
      server.closeIdleConnections();
    });
    return stopping;
  };
  return {
    port,
    notReady: () => {
      ready = false;
    },
    stop,
  };
}
