import http, { type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from '@platform/kit';
import type { Express } from 'express';

export interface RunningServer {
  port: number;
  /**
   * Stops accepting connections, lets in-flight requests finish (their connections close after the answer),
   * closes idle keep-alive connections at once, and closes everything still open after graceMs.
   */
  stop(graceMs?: number): Promise<void>;
}

export async function listen(app: Express, options: { host: string; port: number; log: Logger }): Promise<RunningServer> {
  const server = http.createServer();
  const inFlight = new Set<ServerResponse>();
  let draining = false;
  // Registered before the app, so the header is set before the app can answer.
  server.on('request', (_req, res: ServerResponse) => {
    if (draining) res.setHeader('Connection', 'close');
    inFlight.add(res);
    res.once('close', () => inFlight.delete(res));
  });
  server.on('request', app);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  options.log.info({ host: options.host, port }, 'gateway listening');

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
  return { port, stop };
}
