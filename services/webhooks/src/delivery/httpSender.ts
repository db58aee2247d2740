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
  /**
   * Whether this delivery's client may reach loopback and private addresses (a sandbox client's, on a platform whose
   * operator lets private targets through); asked only when the endpoint resolves to one.
   */
  mayReachPrivate(): Promise<boolean>;
}

/**
 * Sends one attempt. It never throws for the receiver's sake: a refused target, a timeout or a reset is a result.
 * It throws only when `mayReachPrivate` does (the platform could not tell), so that the attempt is made later.
 */
export interface DeliverySender {
  send(request: DeliveryRequest): Promise<AttemptResult>;
}

export type Resolver = (hostname: string) => Promise<LookupAddress[]>;

const systemResolver: Resolver = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

class RefusedTarget extends Error {}

/** `mayReachPrivate` failed: not the receiver's doing, so no attempt is recorded. */
class PolicyUnknown extends Error {}

interface Target {
  address: LookupAddress;
  /** A loopback or private address that this client was allowed to reach. */
  private: boolean;
}

/**
 * The addresses the endpoint's host resolves to, every one checked: a name with one private address among public
 * ones is refused, since the connection could land on any of them. The refusal names neither the address nor its
 * kind: what an internal name resolves to is none of the client's business.
 */
async function resolveTarget(hostname: string, resolve: Resolver, allowPrivateTargets: boolean, mayReachPrivate: () => Promise<boolean>): Promise<Target> {
  const literal = ipLiteralOf(hostname);
  const addresses = literal ? [{ address: literal, family: literal.includes(':') ? 6 : 4 }] : await resolve(hostname);
  if (addresses.length === 0) throw new RefusedTarget(`${hostname} has no address`);
  const isPrivate = addresses.some(({ address }) => blockedReason(address) !== null);
  if (isPrivate) {
    let allowed = false;
    if (allowPrivateTargets) {
      try {
        allowed = await mayReachPrivate();
      } catch (error) {
        throw new PolicyUnknown('could not tell whether the client may reach private targets', { cause: error });
      }
    }
    if (!allowed) throw new RefusedTarget(`refused: ${hostname} is not a public address; only public addresses receive webhooks`);
  }
  return { address: addresses[0]!, private: isPrivate };
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

/** Connection failures to a private target, told by kind only: the address, the port and the protocol's own words stay out of the log. */
const PRIVATE_FAILURES: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  EPIPE: 'connection reset',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
};

function describe(error: unknown, signal: AbortSignal, timeoutMs: number, target: Target | undefined): string {
  if (error instanceof RefusedTarget) return error.message;
  if (signal.aborted) return `no answer within ${timeoutMs} ms`;
  const e = error as { code?: string; message?: string };
  if (target?.private) return (e.code && PRIVATE_FAILURES[e.code]) ?? (e.code?.startsWith('HPE_') ? 'the answer was not HTTP' : 'request failed');
  return [e.code, e.message].filter(Boolean).join(': ').slice(0, 500) || 'request failed';
}

/** `allowPrivateTargets` is the operator's switch: when false, no request reaches a private address whatever it says. */
export function createHttpSender(options: { allowPrivateTargets: boolean; timeoutMs: number; resolve?: Resolver }): DeliverySender {
  const resolve = options.resolve ?? systemResolver;
  return {
    async send(request) {
      const started = performance.now();
      const signal = AbortSignal.timeout(options.timeoutMs);
      const elapsed = () => Math.round(performance.now() - started);
      let target: Target | undefined;
      try {
        const url = new URL(request.endpoint);
        const timedOut = new Promise<never>((_resolve, reject) => signal.addEventListener('abort', () => reject(signal.reason), { once: true }));
        timedOut.catch(() => undefined);
        target = await Promise.race([resolveTarget(url.hostname, resolve, options.allowPrivateTargets, () => request.mayReachPrivate()), timedOut]);
        const { statusCode, retryAfter } = await post(url, target.address, request, signal);
        return { statusCode, durationMs: elapsed(), error: null, retryAfter };
      } catch (error) {
        if (error instanceof PolicyUnknown) throw error.cause;
        return { statusCode: null, durationMs: elapsed(), error: describe(error, signal, options.timeoutMs, target), retryAfter: null };
      }
    },
  };
}
