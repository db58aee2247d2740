import type { LookupAddress } from 'node:dns';
import { lookup as dnsLookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { performance } from 'node:perf_hooks';
import { blockedReason, ipLiteralOf } from '../domain/addresses';

export interface AttemptResult {
  /** The receiver's HTTP status; null when no answer came. */
  statusCode: number | null;
  durationMs: number;
  error: string | null;
  /** The answer's Retry-After header as sent (a 429 or 503 may ask for a wait); null when absent or no answer came. */
  retryAfter: string | null;
}

export interface DeliveryRequest {
  endpoint: string;
  headers: Record<string, string>;
  body: string;
}

/** Sends one attempt. It never throws for the receiver's sake: a refused target, a timeout or a reset is a result. */
export interface DeliverySender {
  send(request: DeliveryRequest): Promise<AttemptResult>;
}

export type Resolver = (hostname: string) => Promise<LookupAddress[]>;

const systemResolver: Resolver = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

class RefusedTarget extends Error {}

/**
 * The addresses the endpoint's host resolves to, every one checked: a name with one private address among public
 * ones is refused, since the connection could land on any of them.
 */
async function resolveTarget(hostname: string, resolve: Resolver, allowPrivateTargets: boolean): Promise<LookupAddress> {
  const literal = ipLiteralOf(hostname);
  const addresses = literal ? [{ address: literal, family: literal.includes(':') ? 6 : 4 }] : await resolve(hostname);
  if (addresses.length === 0) throw new RefusedTarget(`${hostname} has no address`);
  if (!allowPrivateTargets) {
    for (const { address } of addresses) {
      const reason = blockedReason(address);
      if (reason) throw new RefusedTarget(`refused: ${hostname} resolves to ${address} (${reason}); only public addresses receive webhooks`);
    }
  }
  return addresses[0]!;
}

/** A lookup that answers the address already checked, so the connection cannot go to another one (DNS rebinding). */
function pinnedLookup(target: LookupAddress): LookupFunction {
  return ((_hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options?.all) callback(null, [target]);
    else callback(null, target.address, target.family);
  }) as unknown as LookupFunction;
}

/**
 * Keep-alive connections, one pool per endpoint origin and checked address: a connection is reused only for the
 * name and the address it was opened to after the check, so pooling never bypasses the check (DNS rebinding).
 */
const agents = new Map<string, http.Agent>();
const AGENTS_KEPT = 500;

function agentFor(url: URL, target: LookupAddress): http.Agent {
  const key = `${url.protocol}//${url.host}|${target.address}`;
  let agent = agents.get(key);
  if (!agent) {
    if (agents.size >= AGENTS_KEPT) {
      for (const old of agents.values()) old.destroy();
      agents.clear();
    }
    const options = { keepAlive: true, maxSockets: 16, maxFreeSockets: 4, timeout: 30_000, lookup: pinnedLookup(target) };
    agent = url.protocol === 'https:' ? new https.Agent(options) : new http.Agent(options);
    agents.set(key, agent);
  }
  return agent;
}

interface Answer {
  statusCode: number;
  retryAfter: string | null;
}

function post(url: URL, target: LookupAddress, request: DeliveryRequest, signal: AbortSignal): Promise<Answer> {
  const transport = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = transport.request(
      url,
      {
        method: 'POST',
        headers: { ...request.headers, 'content-length': String(Buffer.byteLength(request.body)), 'user-agent': 'platform-webhooks/1' },
        lookup: pinnedLookup(target),
        agent: agentFor(url, target),
        signal,
      },
      (res) => {
        // Only the status and Retry-After matter; the rest of the answer is read and dropped. Redirects are not followed.
        res.resume();
        const retryAfter = res.headers['retry-after'];
        resolve({ statusCode: res.statusCode ?? 0, retryAfter: typeof retryAfter === 'string' ? retryAfter : null });
      },
    );
    req.on('error', reject);
    req.end(request.body);
  });
}

function describe(error: unknown, signal: AbortSignal, timeoutMs: number): string {
  if (error instanceof RefusedTarget) return error.message;
  if (signal.aborted) return `no answer within ${timeoutMs} ms`;
  const e = error as { code?: string; message?: string };
  return [e.code, e.message].filter(Boolean).join(': ').slice(0, 500) || 'request failed';
}

export function createHttpSender(options: { allowPrivateTargets: boolean; timeoutMs: number; resolve?: Resolver }): DeliverySender {
  const resolve = options.resolve ?? systemResolver;
  return {
    async send(request) {
      const started = performance.now();
      const signal = AbortSignal.timeout(options.timeoutMs);
      const elapsed = () => Math.round(performance.now() - started);
      try {
        const url = new URL(request.endpoint);
        const timedOut = new Promise<never>((_resolve, reject) => signal.addEventListener('abort', () => reject(signal.reason), { once: true }));
        timedOut.catch(() => undefined);
        const target = await Promise.race([resolveTarget(url.hostname, resolve, options.allowPrivateTargets), timedOut]);
        const { statusCode, retryAfter } = await post(url, target, request, signal);
        return { statusCode, durationMs: elapsed(), error: null, retryAfter };
      } catch (error) {
        return { statusCode: null, durationMs: elapsed(), error: describe(error, signal, options.timeoutMs), retryAfter: null };
      }
    },
  };
}
