import { randomUUID } from 'node:crypto';
import http, { type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What a receiver got: one request, its raw body as sent. */
export interface Delivered {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/**
 * A webhook receiver on 127.0.0.1: every endpoint it hands out is a path of its own, and each request is passed,
 * body read whole, to `receive`, which answers it. The suites differ only in how they answer and what they note.
 */
export abstract class WebhookReceiver<R extends Delivered> {
  readonly requests: R[] = [];
  private readonly server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => this.requests.push(this.receive({ path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') }, res)));
  });

  /** Answers the request (`res`) and returns what the suite keeps of it. */
  protected abstract receive(request: Delivered, res: ServerResponse): R;

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
  }

  /** A new endpoint on this receiver: `http://127.0.0.1:<port>/hooks/<random>`. */
  endpoint(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hooks/${randomUUID()}`;
  }

  at(endpoint: string): R[] {
    const path = new URL(endpoint).pathname;
    return this.requests.filter((r) => r.path === path);
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
