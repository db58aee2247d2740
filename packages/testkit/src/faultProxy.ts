import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';

/**
 * A loopback proxy in front of a provider (a simulator) that breaks chosen answers the ways networks and providers
 * break them, so a test can prove what the platform does when a request's outcome is unknown.
 *
 * After the provider carried the request out (it is forwarded first):
 * - `late`: the provider's answer is held `lateMs` (past the caller's deadline), then sent;
 * - `error_after`: the provider's answer is replaced by a 500;
 * - `truncated`: the provider's status and headers, and half of its body (a body that ends early, length and all);
 * - `html`: a 200 HTML page (a load balancer's or a captive portal's) instead of the answer;
 * - `reset`: the connection is destroyed without an answer.
 * Before it (the request never reaches the provider):
 * - `error_before`: a 500;
 * - `empty_before`: a 200 with an empty body.
 */
export type Fault = 'late' | 'error_after' | 'truncated' | 'html' | 'reset' | 'error_before' | 'empty_before';

export const FAULTS_AFTER_THE_SALE: readonly Fault[] = ['late', 'error_after', 'truncated', 'html', 'reset'];
export const FAULTS_BEFORE_THE_SALE: readonly Fault[] = ['error_before', 'empty_before'];

export interface FaultRule {
  /** Which requests break: by method and path (with its query). */
  match: (request: { method: string; path: string; body: string }) => boolean;
  fault: Fault;
  /** How many matching requests break (1 by default); the later ones pass through. */
  times?: number;
  /** For `late`: how long the answer is held (10 s by default). */
  lateMs?: number;
}

export interface ProxiedRequest {
  method: string;
  path: string;
  body: string;
  /** Whether it reached the provider. */
  forwarded: boolean;
  fault?: Fault;
  /** The provider's status, when it answered. */
  status?: number;
}

export interface FaultProxy {
  /** Where to point a connector (`<PROVIDER>_API_URL`). */
  url: string;
  /** Breaks the next requests that match (rules are tried in the order they were added). */
  fault(rule: FaultRule): void;
  /** Forgets every rule not used up yet. */
  clear(): void;
  /** Every request seen, oldest first. */
  readonly requests: ProxiedRequest[];
  close(): Promise<void>;
}

export interface FaultProxyOptions {
  /** The provider's base URL (http or https). */
  target: string;
  /** Serve TLS with this certificate (a provider reached over https is proxied over https). */
  tls?: { key: string | Buffer; cert: string | Buffer; ca?: string | Buffer; requestCert?: boolean };
  /** What the proxy presents upstream over https: the authorities it trusts, a client certificate. */
  upstream?: { ca?: string | Buffer; cert?: string | Buffer; key?: string | Buffer };
}

const HTML = '<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head><body><h1>Bad Gateway</h1></body></html>';

async function readAll(stream: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export async function startFaultProxy(options: FaultProxyOptions): Promise<FaultProxy> {
  const target = new URL(options.target);
  const basePath = target.pathname.replace(/\/+$/, '');
  const rules: Array<FaultRule & { left: number }> = [];
  const requests: ProxiedRequest[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const agent = target.protocol === 'https:' ? new https.Agent({ keepAlive: false, ...options.upstream }) : new http.Agent({ keepAlive: false });

  const forward = (req: IncomingMessage, body: Buffer): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> =>
    new Promise((resolve, reject) => {
      const headers = { ...req.headers, host: target.host };
      delete headers['content-length'];
      const send = target.protocol === 'https:' ? https.request : http.request;
      const upstream = send(
        {
          protocol: target.protocol,
          hostname: target.hostname,
          port: target.port,
          method: req.method,
          path: basePath + (req.url ?? '/'),
          headers: { ...headers, 'content-length': String(body.length) },
          agent,
        },
        (answer) => {
          readAll(answer).then((text) => resolve({ status: answer.statusCode ?? 502, headers: answer.headers, body: text }), reject);
        },
      );
      upstream.on('error', reject);
      upstream.end(body);
    });

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const body = await readAll(req);
    const seen: ProxiedRequest = { method: req.method ?? 'GET', path: req.url ?? '/', body: body.toString('utf8'), forwarded: false };
    requests.push(seen);
    const rule = rules.find((r) => r.left > 0 && r.match(seen));
    if (rule) {
      rule.left -= 1;
      seen.fault = rule.fault;
    }
    const fault = rule?.fault;
    if (fault === 'error_before') {
      res.writeHead(500, { 'content-type': 'text/plain' }).end('Internal Server Error');
      return;
    }
    if (fault === 'empty_before') {
      res.writeHead(200, { 'content-length': '0' }).end();
      return;
    }
    seen.forwarded = true;
    const answer = await forward(req, body);
    seen.status = answer.status;
    const headers = { ...answer.headers };
    delete headers['transfer-encoding'];
    delete headers.connection;
    switch (fault) {
      case undefined:
        res.writeHead(answer.status, { ...headers, 'content-length': String(answer.body.length) }).end(answer.body);
        return;
      case 'late': {
        const timer = setTimeout(() => {
          timers.delete(timer);
          if (!res.destroyed) res.writeHead(answer.status, { ...headers, 'content-length': String(answer.body.length) }).end(answer.body);
        }, rule?.lateMs ?? 10_000);
        timers.add(timer);
        return;
      }
      case 'error_after':
        res.writeHead(500, { 'content-type': 'text/plain' }).end('Internal Server Error');
        return;
      case 'truncated': {
        const cut = answer.body.subarray(0, Math.floor(answer.body.length / 2));
        res.writeHead(answer.status, { ...headers, 'content-length': String(cut.length) }).end(cut);
        return;
      }
      case 'html':
        res.writeHead(200, { 'content-type': 'text/html' }).end(HTML);
        return;
      case 'reset':
        req.socket.destroy();
        return;
    }
  };

  const listener = (req: IncomingMessage, res: ServerResponse) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' }).end('proxy could not reach the provider');
      else res.destroy();
    });
  };
  const server = options.tls ? https.createServer({ ...options.tls }, listener) : http.createServer(listener);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `${options.tls ? 'https' : 'http'}://127.0.0.1:${port}`,
    fault: (rule) => void rules.push({ ...rule, left: rule.times ?? 1 }),
    clear: () => void rules.splice(0, rules.length),
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of timers) clearTimeout(timer);
        timers.clear();
        agent.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
