import { once } from 'node:events';
import type { CallMeta, FieldViolation } from '@platform/kit';
import type { Express, Request, RequestHandler, Response } from 'express';
import type { ApiTag } from '../openapi/tags';
import { z } from '../openapi/zod';
import { requireAdmin, requireClient, requireClientOrSessionKey, requireSessionKey, type Access, type AdminToken, type Authenticator, type SessionKeyChecker } from './auth';
import { bodyReader, uploadedFile, type BodyKind, type FileField, type UploadedFile } from './body';
import type { AuthenticatedClient } from './context';
import { routeNotFound, TransportError, validationError } from './errors';
import type { RateLimits } from './rateLimit';
import { parsePart, textViolations } from './validation';

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

export interface JsonResponse<R extends z.ZodType = z.ZodType> {
  status: 200 | 201 | 202;
  description: string;
  schema: R;
  /** Other statuses answered with the same schema (e.g. 503 from /health). */
  alsoStatuses?: readonly number[];
}
export interface EmptyResponse {
  status: 204;
  description: string;
}
export interface BinaryResponse {
  status: 200;
  description: string;
  /** Media types the bytes can have. */
  binary: readonly string[];
}
export type ResponseSpec = JsonResponse | EmptyResponse | BinaryResponse;

/** A JSON answer with a status other than the route's usual one. */
export class WithStatus<T> {
  constructor(
    readonly status: number,
    readonly body: T,
  ) {}
}

export interface BinaryBody {
  contentType: string;
  /** The bytes, or a stream of them (a large file read in chunks): written as they come, never held whole. */
  data: Buffer | AsyncIterable<Uint8Array>;
  headers?: Record<string, string>;
}

type Out<S> = S extends z.ZodType ? z.output<S> : undefined;
type ResultOf<Resp> = Resp extends { schema: infer R extends z.ZodType }
  ? z.input<R> | WithStatus<z.input<R>>
  : Resp extends { binary: readonly string[] }
    ? BinaryBody
    : void;

/** A named example of a body, shown in the OpenAPI document; the tests parse each one with its schema. */
export interface Example<T> {
  summary: string;
  value: T;
}

/** Examples of a route's request body and of its usual answer, keyed by a name unique in the route. */
export interface RouteExamples<B, Resp> {
  request?: Record<string, Example<B extends z.ZodType ? z.input<B> : never>>;
  response?: Record<string, Example<Resp extends { schema: infer R extends z.ZodType } ? z.input<R> : never>>;
}

export interface RouteContext<P, Q, H, B, A extends Access> {
  params: Out<P>;
  query: Out<Q>;
  headers: Out<H>;
  body: Out<B>;
  file: UploadedFile | undefined;
  /** The caller, from its credentials; every upstream call takes the client id from here, never from input. */
  client: A extends 'public' | 'admin' ? undefined : AuthenticatedClient;
  /** Request id and idempotency key, forwarded as gRPC metadata. */
  call: CallMeta;
}

export interface RouteSpec<
  P extends z.ZodObject | undefined,
  Q extends z.ZodObject | undefined,
  H extends z.ZodObject | undefined,
  B extends z.ZodType | undefined,
  Resp extends ResponseSpec,
  A extends Access,
> {
  method: Method;
  /** OpenAPI style: `/v1/customers/{id}`. */
  path: string;
  /**
   * The operation's stable name, camelCase and unique in the route table (`createCharge`, `listCustomers`):
   * generated clients name their methods after it, so it never changes once published.
   */
  operationId: string;
  summary: string;
  description?: string;
  /** Tags are declared once with their description (openapi/tags.ts). */
  tags: readonly [ApiTag, ...ApiTag[]];
  /** The scope a public key needs, or who else may call. */
  resource: A;
  /** Served to sandbox clients only; any other client gets the 404 of an unknown route. */
  sandboxOnly?: A extends 'public' | 'admin' ? never : boolean;
  /** false: the rate limits never count it (the readiness probe: a busy address must not take the gateway out). */
  rateLimited?: A extends 'public' ? false : never;
  /** A session's public key reaches the route too, as that session (`client.keyKind` 'session', `client.keyId` its id). */
  sessionKeys?: A extends 'public' | 'admin' | 'secretOnly' | 'sessionKey' ? never : boolean;
  params?: P;
  query?: Q;
  /** Header names in lower case. */
  headers?: H;
  body?: B;
  /** Media types of the body; JSON unless stated. */
  consumes?: readonly BodyKind[];
  /** The file field of a multipart body. */
  file?: FileField;
  response: Resp;
  /** Error statuses the route can answer besides the ones every route of its kind can. */
  errors?: readonly number[];
  examples?: RouteExamples<B, Resp>;
  handler(context: RouteContext<P, Q, H, B, A>): Promise<ResultOf<Resp>>;
}

/** A route with its types erased, as the route table holds it. */
export interface RouteDefinition {
  method: Method;
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  tags: readonly ApiTag[];
  resource: Access;
  sandboxOnly?: boolean;
  rateLimited?: false;
  sessionKeys?: boolean;
  params?: z.ZodObject;
  query?: z.ZodObject;
  headers?: z.ZodObject;
  /** An object schema, or one that turns another JSON shape into an object (a bare array, say). */
  body?: z.ZodType;
  consumes?: readonly BodyKind[];
  file?: FileField;
  response: ResponseSpec;
  errors?: readonly number[];
  examples?: { request?: Record<string, Example<unknown>>; response?: Record<string, Example<unknown>> };
  handler(context: ErasedContext): Promise<unknown>;
}

interface ErasedContext {
  params: unknown;
  query: unknown;
  headers: unknown;
  body: unknown;
  file: UploadedFile | undefined;
  client: AuthenticatedClient | undefined;
  call: CallMeta;
}

export function defineRoute<
  P extends z.ZodObject | undefined = undefined,
  Q extends z.ZodObject | undefined = undefined,
  H extends z.ZodObject | undefined = undefined,
  B extends z.ZodType | undefined = undefined,
  Resp extends ResponseSpec = ResponseSpec,
  A extends Access = Access,
>(spec: RouteSpec<P, Q, H, B, Resp, A>): RouteDefinition {
  return spec as unknown as RouteDefinition;
}

/** Visible ASCII only: the key travels upstream as gRPC metadata, whose values cannot hold anything else. */
export const IDEMPOTENCY_KEY = /^[\x21-\x7E]{1,255}$/;

const idempotencyHeaders = z.object({
  'x-idempotency-key': z
    .string()
    .min(1, 'must not be empty')
    .max(255, 'must be at most 255 characters')
    .regex(/^[\x21-\x7E]*$/, 'must be visible ASCII characters (0x21 to 0x7E)')
    .optional()
    .openapi({ description: 'Makes a retried POST safe: the first answer is replayed for 24 h' }),
});

/** The headers a route validates and documents: its own, plus X-Idempotency-Key on every POST. */
export function headerSchema(route: RouteDefinition): z.ZodObject | undefined {
  if (route.method !== 'post') return route.headers;
  return route.headers ? route.headers.extend(idempotencyHeaders.shape) : idempotencyHeaders;
}

export function expressPath(path: string): string {
  return path.replace(/\{(\w+)\}/g, ':$1');
}

/** Matches a concrete request path against a route's path, for the 405 answer. */
export function pathPattern(path: string): RegExp {
  const escaped = path
    .split(/\{\w+\}/)
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('[^/]+');
  return new RegExp(`^${escaped}/?$`);
}

export interface RouteGuards {
  authenticator: Authenticator;
  /** Checks the keys of `sessionKey` routes; without it, only client keys reach them. */
  sessionKeys?: SessionKeyChecker;
  /** The tokens `admin` routes accept; none (every admin request refused) when absent. */
  adminTokens?: readonly AdminToken[];
  bodyLimit: string;
  /** Per-client limits around the guard; none when absent. */
  rateLimits?: RateLimits;
}

function guardOf(route: RouteDefinition, guards: RouteGuards): RequestHandler | undefined {
  const access = route.resource;
  switch (access) {
    case 'public':
      return undefined;
    case 'admin':
      return requireAdmin(guards.adminTokens ?? []);
    case 'sessionKey':
      return requireSessionKey(guards.authenticator, guards.sessionKeys);
    default:
      if (route.sessionKeys && access !== 'secretOnly') return requireClientOrSessionKey(guards.authenticator, guards.sessionKeys, access, { sandboxOnly: route.sandboxOnly });
      return requireClient(guards.authenticator, access, { sandboxOnly: route.sandboxOnly });
  }
}

/**
 * Writes a stream of chunks, waiting whenever the client reads slower than the source (memory stays flat). The first
 * chunk is read before anything is sent, so a failure to start (an unknown report, say) still answers the error
 * envelope; a failure later can only cut the answer short.
 */
async function sendStream(res: Response, status: number, binary: BinaryBody & { data: AsyncIterable<Uint8Array> }): Promise<void> {
  const chunks = binary.data[Symbol.asyncIterator]();
  const first = await chunks.next();
  res.status(status).set(binary.headers ?? {}).type(binary.contentType);
  try {
    for (let next = first; !next.done; next = await chunks.next()) {
      if (res.destroyed) break;
      if (!res.write(next.value)) await Promise.race([once(res, 'drain'), once(res, 'close')]);
    }
    res.end();
  } catch (error) {
    res.destroy(error instanceof Error ? error : new Error(String(error)));
  } finally {
    await chunks.return?.();
  }
}

async function send(res: Response, response: ResponseSpec, result: unknown): Promise<void> {
  if (response.status === 204) {
    res.status(204).end();
    return;
  }
  if ('binary' in response) {
    const binary = result as BinaryBody;
    if (Buffer.isBuffer(binary.data)) res.status(response.status).set(binary.headers ?? {}).type(binary.contentType).send(binary.data);
    else await sendStream(res, response.status, binary as BinaryBody & { data: AsyncIterable<Uint8Array> });
    return;
  }
  if (result instanceof WithStatus) res.status(result.status).json(result.body);
  else res.status(response.status).json(result);
}

function handlerOf(route: RouteDefinition): RequestHandler {
  const headers = headerSchema(route);
  const headerNames = headers ? Object.keys(headers.shape) : [];
  return async (req: Request, res: Response) => {
    const violations: FieldViolation[] = [];
    // Text no column can hold is named first, once per field; the schemas then name what else is wrong.
    textViolations(req.params, 'params', violations);
    if (route.query) textViolations(req.query, 'query', violations);
    for (const name of headerNames) textViolations(req.headers[name], name, violations);
    // Raw bytes are passed on as they came: whoever reads them (a provider's connector) checks them.
    if (route.body && !route.consumes?.includes('raw')) textViolations(req.body, 'body', violations);
    const refused = new Set(violations.map((v) => v.field));
    const schemaViolations: FieldViolation[] = [];
    const params = route.params ? parsePart(route.params, req.params, 'params', schemaViolations) : undefined;
    const query = route.query ? parsePart(route.query, req.query, 'query', schemaViolations) : undefined;
    const headerValues = headers ? parsePart(headers, req.headers, 'headers', schemaViolations) : undefined;
    // A route that takes a body and got none validates an empty object, so each required field is named.
    const body = route.body ? parsePart(route.body, req.body ?? {}, 'body', schemaViolations) : undefined;
    const file = uploadedFile(req, route.file, schemaViolations);
    violations.push(...schemaViolations.filter((v) => !refused.has(v.field)));
    if (violations.length > 0) throw validationError(violations);
    const idempotencyKey = (headerValues as { 'x-idempotency-key'?: string } | undefined)?.['x-idempotency-key'];
    const context: ErasedContext = {
      params,
      query,
      headers: headerValues,
      body,
      file,
      client: req.client,
      // Checked again here: grpc-js throws on a metadata value it cannot send, and that must never be a 500.
      call: { requestId: req.requestId, idempotencyKey: idempotencyKey !== undefined && IDEMPOTENCY_KEY.test(idempotencyKey) ? idempotencyKey : undefined },
    };
    await send(res, route.response, await route.handler(context));
  };
}

/** Registers every route on express (guard, body, validation, handler). */
export function mountRoutes(app: Express, routes: readonly RouteDefinition[], guards: RouteGuards): void {
  for (const route of routes) {
    const chain: RequestHandler[] = [];
    const guard = guardOf(route, guards);
    if (guards.rateLimits && route.rateLimited !== false) chain.push(...guards.rateLimits.around(route.resource, guard));
    else if (guard) chain.push(guard);
    if (route.body) chain.push(bodyReader({ consumes: route.consumes ?? ['json'], limit: guards.bodyLimit, file: route.file }));
    chain.push(handlerOf(route));
    app[route.method](expressPath(route.path), ...chain);
  }
}

/** Answers requests no route took: 405 with Allow when the path exists under another method, else 404. */
export function unmatched(routes: readonly RouteDefinition[]): RequestHandler {
  const patterns = routes.map((route) => ({ method: route.method.toUpperCase(), pattern: pathPattern(route.path) }));
  return (req, _res, next) => {
    const allowed = [...new Set(patterns.filter((p) => p.pattern.test(req.path)).map((p) => p.method))];
    if (allowed.length > 0) {
      if (allowed.includes('GET')) allowed.push('HEAD');
      next(new TransportError('method_not_allowed', `${req.method} is not allowed on ${req.path}`, { Allow: allowed.join(', ') }));
      return;
    }
    next(routeNotFound(req.method, req.path));
  };
}
