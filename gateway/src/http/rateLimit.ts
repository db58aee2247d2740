import { AppError } from '@platform/kit';
import type { Request, RequestHandler, Response } from 'express';
import { BurstyRateLimiter, RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import type { Access } from './auth';
import { TransportError } from './errors';

/** What RATE_LIMIT_* default to: generous for one client's real traffic (the benchmark, one client flat out, turns them off). */
export const DEFAULT_RATE_LIMITS: RateLimitSettings = { readsPerSecond: 500, writesPerSecond: 200, burst: 1000, unauthenticatedPerSecond: 50, failedAuthPerClientIdPerSecond: 10 };

/** The window a client's burst allowance is counted over. */
const BURST_WINDOW_SECONDS = 10;

export interface RateLimitSettings {
  /** GET and HEAD requests per second, per client. */
  readsPerSecond: number;
  /** Every other method, per second, per client. */
  writesPerSecond: number;
  /** Requests a client may make above its per-second rate within any 10-second window (reads and writes each). */
  burst: number;
  /**
   * Per address and per second: requests to public and admin routes, and, counted apart, refused authentications.
   * Past the second count, a refused authentication from that address answers 429 instead of 401; credentials that
   * are right are always served (they count only against their own client's limits).
   */
  unauthenticatedPerSecond: number;
  /** Refused authentications per second naming one X-Client-Id, from any address; past it they answer 429. */
  failedAuthPerClientIdPerSecond: number;
}

/** The middleware a route chain gets around its guard. */
export interface RateLimits {
  /** Wraps a route's guard (none for public routes) with the limits that apply around it, by who may call it. */
  around(access: Access, guard: RequestHandler | undefined): RequestHandler[];
}

interface Limiter {
  consume(key: string): Promise<RateLimiterRes>;
}

function limiter(prefix: string, perSecond: number, burst: number): Limiter {
  const rate = new RateLimiterMemory({ keyPrefix: prefix, points: perSecond, duration: 1 });
  if (burst <= 0) return rate;
  return new BurstyRateLimiter(rate, new RateLimiterMemory({ keyPrefix: `${prefix}_burst`, points: burst, duration: BURST_WINDOW_SECONDS }));
}

const isRead = (req: Request) => req.method === 'GET' || req.method === 'HEAD';
const seconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));
/** The peer address; behind a proxy, express's `trust proxy` decides whether X-Forwarded-For is believed. */
const addressOf = (req: Request) => `ip:${req.ip ?? req.socket.remoteAddress ?? 'unknown'}`;

function setHeaders(res: Response, limit: number, state: RateLimiterRes): void {
  res.setHeader('RateLimit-Limit', String(limit));
  res.setHeader('RateLimit-Remaining', String(Math.max(0, state.remainingPoints)));
  res.setHeader('RateLimit-Reset', String(seconds(state.msBeforeNext)));
}

function tooMany(state: RateLimiterRes, limit: number): TransportError {
  const retryAfter = String(seconds(state.msBeforeNext));
  return new TransportError('rate_limited', `Too many requests: retry after ${retryAfter} s`, {
    'Retry-After': retryAfter,
    'RateLimit-Limit': String(limit),
    'RateLimit-Remaining': '0',
    'RateLimit-Reset': retryAfter,
  });
}

/** Consumes one request of `key`; rejects with the 429 when the key is over its limit. */
async function consume(limiter: Limiter, key: string, limit: number, res: Response): Promise<void> {
  try {
    setHeaders(res, limit, await limiter.consume(key));
  } catch (rejection) {
    if (rejection instanceof RateLimiterRes) throw tooMany(rejection, limit);
    throw rejection;
  }
}

/** X-Client-Id as a counting key: a value longer than any client id is refused anyway, and only counts by its start. */
const clientIdOf = (req: Request) => {
  const value = req.get('x-client-id');
  return value ? `client:${value.slice(0, 128).toLowerCase()}` : undefined;
};

/**
 * Per-client request limits, in this gateway process's memory: reads and writes each have their rate and burst,
 * keyed by the authenticated client id, so one client's flood never takes another's share. Public and admin routes
 * are limited per address. Refused authentications are counted after the credentials are checked, per address and
 * per X-Client-Id they named: past either limit a refusal answers 429, so guessing is slowed, while a request whose
 * credentials are right is never refused for what other requests from its address (an ingress, say) did.
 * With several gateway replicas each enforces the limits on what it receives (see the README).
 */
export function createRateLimits(settings: RateLimitSettings): RateLimits {
  const reads = limiter('reads', settings.readsPerSecond, settings.burst);
  const writes = limiter('writes', settings.writesPerSecond, settings.burst);
  const unauthenticated = new RateLimiterMemory({ keyPrefix: 'unauthenticated', points: settings.unauthenticatedPerSecond, duration: 1 });
  const failuresByAddress = new RateLimiterMemory({ keyPrefix: 'failures_address', points: settings.unauthenticatedPerSecond, duration: 1 });
  const failuresByClientId = new RateLimiterMemory({ keyPrefix: 'failures_client', points: settings.failedAuthPerClientIdPerSecond, duration: 1 });

  /** Counts one refused authentication; answers the 429 to throw instead of the refusal once a count is over. */
  const countFailure = async (req: Request): Promise<TransportError | undefined> => {
    const counts: Array<[RateLimiterMemory, string, number]> = [[failuresByAddress, addressOf(req), settings.unauthenticatedPerSecond]];
    const clientId = clientIdOf(req);
    if (clientId) counts.push([failuresByClientId, clientId, settings.failedAuthPerClientIdPerSecond]);
    let over: TransportError | undefined;
    for (const [counter, key, limit] of counts) {
      try {
        await counter.consume(key);
      } catch (rejection) {
        if (!(rejection instanceof RateLimiterRes)) throw rejection;
        over ??= tooMany(rejection, limit);
      }
    }
    return over;
  };
  /** The guard, with a refused authentication counted; over a count the refusal becomes 429, else it goes on as it is. */
  const counting =
    (guard: RequestHandler): RequestHandler =>
    async (req, res, next) => {
      try {
        await guard(req, res, next);
      } catch (error) {
        if (error instanceof AppError && error.kind === 'unauthenticated') throw (await countFailure(req)) ?? error;
        throw error;
      }
    };
  const perClient: RequestHandler = async (req, res, next) => {
    const client = req.client;
    if (!client) throw new Error('rate limit by client on a route whose guard set no client');
    const read = isRead(req);
    await consume(read ? reads : writes, client.clientId, read ? settings.readsPerSecond : settings.writesPerSecond, res);
    next();
  };
  const perAddress: RequestHandler = async (req, res, next) => {
    await consume(unauthenticated, addressOf(req), settings.unauthenticatedPerSecond, res);
    next();
  };

  return {
    around: (access, guard) => {
      if (!guard) return [perAddress];
      // Admin routes have an operator, not a client: they count per address, like public ones.
      return [counting(guard), access === 'admin' ? perAddress : perClient];
    },
  };
}

/** The RATE_LIMIT_* settings as the gateway's configuration parses them (config.ts reads them from the environment). */
export interface RateLimitConfig {
  RATE_LIMIT_ENABLED?: boolean;
  RATE_LIMIT_READS_PER_SECOND?: number;
  RATE_LIMIT_WRITES_PER_SECOND?: number;
  RATE_LIMIT_BURST?: number;
  RATE_LIMIT_UNAUTHENTICATED_PER_SECOND?: number;
  RATE_LIMIT_FAILED_AUTH_PER_CLIENT_ID_PER_SECOND?: number;
}

export type RateLimitKey = keyof RateLimitConfig;

/** The limits the configuration asks for, or none when RATE_LIMIT_ENABLED is not true. Unset numbers take the defaults. */
export function rateLimitsOf(config: RateLimitConfig): RateLimits | undefined {
  if (config.RATE_LIMIT_ENABLED !== true) return undefined;
  return createRateLimits({
    readsPerSecond: config.RATE_LIMIT_READS_PER_SECOND ?? DEFAULT_RATE_LIMITS.readsPerSecond,
    writesPerSecond: config.RATE_LIMIT_WRITES_PER_SECOND ?? DEFAULT_RATE_LIMITS.writesPerSecond,
    burst: config.RATE_LIMIT_BURST ?? DEFAULT_RATE_LIMITS.burst,
    unauthenticatedPerSecond: config.RATE_LIMIT_UNAUTHENTICATED_PER_SECOND ?? DEFAULT_RATE_LIMITS.unauthenticatedPerSecond,
    failedAuthPerClientIdPerSecond: config.RATE_LIMIT_FAILED_AUTH_PER_CLIENT_ID_PER_SECOND ?? DEFAULT_RATE_LIMITS.failedAuthPerClientIdPerSecond,
  });
}
