import { OpenAPIRegistry, OpenApiGeneratorV31, type RouteConfig, type ZodContentObject } from '@asteasolutions/zod-to-openapi';
import type { Access } from '../http/auth';
import { ErrorEnvelope, type ErrorBody, type ErrorResponseBody } from '../http/errors';
import { headerSchema, type Example, type RouteDefinition } from '../http/route';
import type { ApiTag } from './tags';
import { z } from './zod';

interface ErrorStatus {
  description: string;
  /** An envelope as the gateway answers it, for the documentation and generated clients' samples. */
  example: ErrorResponseBody;
}

const envelope = (code: number, type: ErrorBody['type'], message: string, extra: Partial<ErrorBody> = {}): ErrorResponseBody => ({
  error: { type, code, message, ...extra },
});

const ERRORS: Record<number, ErrorStatus> = {
  400: {
    description: 'Invalid request: details name each bad field',
    example: envelope(400, 'bad_request', 'Invalid request', { details: [{ field: 'amount', message: 'Invalid input: expected number, received string' }] }),
  },
  401: {
    description: 'Missing or invalid credentials',
    example: envelope(401, 'invalid_request_error', 'X-Client-Id and X-Api-Key headers are required', { key: 'missing_credentials' }),
  },
  402: {
    description: 'Card declined',
    example: envelope(402, 'card_declined', 'The card number is invalid', { declinedCode: 'invalid_number', declined_code: 'invalid_number' }),
  },
  403: {
    description: 'The key does not reach this resource',
    example: envelope(403, 'invalid_request_error', 'This key does not reach charges', { key: 'scope_not_allowed' }),
  },
  404: {
    description: 'Not found (also for ids of other clients)',
    example: envelope(404, 'invalid_request_error', 'Resource 0b9d6a52-4a43-4b3a-9d9e-3f5c2b1e7a10 not found', { key: 'not_found' }),
  },
  409: {
    description: 'Conflict with an existing record or a request in flight',
    example: envelope(409, 'invalid_request_error', 'A request with this X-Idempotency-Key is still being processed', { key: 'idempotency_request_in_progress' }),
  },
  413: {
    description: 'Body or file too large',
    example: envelope(413, 'invalid_request_error', 'The request body is too large', { key: 'payload_too_large' }),
  },
  415: {
    description: 'Unsupported Content-Type',
    example: envelope(415, 'invalid_request_error', 'Content-Type must be application/json', { key: 'unsupported_media_type' }),
  },
  422: {
    description: 'A business rule refused the request',
    example: envelope(422, 'invalid_request_error', 'This X-Idempotency-Key was used with a different request', { businessCode: 'idempotency_key_reused' }),
  },
  429: {
    description: 'Too many requests: the client (or, without credentials, the address) is over its rate limit; see Retry-After',
    example: envelope(429, 'invalid_request_error', 'Too many requests: retry after 1 s', { key: 'rate_limited' }),
  },
  500: {
    description: 'Internal error, with a logId',
    example: envelope(500, 'api_error', 'Internal error, logId=6f1c2d3e-8a9b-4c0d-9e1f-2a3b4c5d6e7f'),
  },
  503: {
    description: 'The platform service behind this route is unavailable (other routes still work); retry after Retry-After seconds',
    example: envelope(503, 'api_error', 'A platform service is unavailable'),
  },
};

const SANDBOX_NOTE = 'Sandbox only: a client whose environment is not `sandbox` gets 404 `route_not_found`, as for an unknown route.';

function errorStatuses(route: RouteDefinition): number[] {
  const statuses = new Set<number>([429, 500, 503, ...(route.errors ?? [])]);
  if (route.params || route.query || route.headers || route.body || route.method === 'post') statuses.add(400);
  if (route.resource !== 'public') statuses.add(401);
  if (route.resource !== 'public' && route.resource !== 'admin') statuses.add(403);
  if (route.params || route.sandboxOnly) statuses.add(404);
  if (route.body) {
    statuses.add(413);
    statuses.add(415);
  }
  return [...statuses].sort((a, b) => a - b);
}

function securityOf(access: Access): RouteConfig['security'] {
  switch (access) {
    case 'public':
      return [];
    case 'admin':
      return [{ AdminToken: [] }];
    default:
      return [{ ClientId: [], ApiKey: [] }];
  }
}

function accessNote(access: Access): string | undefined {
  switch (access) {
    case 'public':
      return 'No authentication.';
    case 'admin':
      return 'Operator route: X-Admin-Token.';
    case 'secretOnly':
      return 'Needs a secret API key; public keys are refused with 403.';
    case 'sessionKey':
      return "X-Api-Key: the session's `publicKey` (it reaches this session only), or a client key reaching `sessions`.";
    default:
      return `Public keys need the scope \`${access}\` (or \`*\`).`;
  }
}

function examplesOf(examples: Record<string, Example<unknown>> | undefined): { examples: Record<string, Example<unknown>> } | undefined {
  if (!examples || Object.keys(examples).length === 0) return undefined;
  return { examples };
}

function requestBodyOf(route: RouteDefinition): NonNullable<RouteConfig['request']>['body'] {
  if (!route.body) return undefined;
  const content: ZodContentObject = {};
  for (const kind of route.consumes ?? ['json']) {
    if (kind === 'json') content['application/json'] = { schema: route.body, ...examplesOf(route.examples?.request) };
    else if (kind === 'raw') content['*/*'] = { schema: z.string().openapi({ format: 'binary', description: 'Any media type, passed on as bytes' }) };
    else {
      const fileField = route.file
        ? { [route.file.field]: z.custom<Buffer>().optional().openapi({ type: 'string', format: 'binary', description: `${route.file.contentTypes.join(', ')}; at most ${route.file.maxBytes} bytes` }) }
        : {};
      if (!(route.body instanceof z.ZodObject)) throw new Error(`${route.method} ${route.path}: a multipart body must be an object schema`);
      content['multipart/form-data'] = { schema: route.body.extend(fileField) };
    }
  }
  return { content };
}

/** lowerCamelCase: letters and digits, starting with a lower-case letter. */
export const OPERATION_ID = /^[a-z][a-zA-Z0-9]*$/;

/** Refuses a route table whose operationIds are not camelCase or not unique: clients are generated from them. */
function checkOperationIds(routes: readonly RouteDefinition[]): void {
  const seen = new Map<string, string>();
  for (const route of routes) {
    const where = `${route.method.toUpperCase()} ${route.path}`;
    if (!OPERATION_ID.test(route.operationId)) throw new Error(`${where}: operationId "${route.operationId}" is not camelCase`);
    const other = seen.get(route.operationId);
    if (other) throw new Error(`${where}: operationId "${route.operationId}" is already the one of ${other}`);
    seen.set(route.operationId, where);
  }
}

/** The top-level tags, in the order the routes first use them; one name, one description. */
function tagsOf(routes: readonly RouteDefinition[]): ApiTag[] {
  const tags = new Map<string, ApiTag>();
  for (const route of routes) {
    if (route.tags.length === 0) throw new Error(`${route.method.toUpperCase()} ${route.path}: no tag`);
    for (const tag of route.tags) {
      const known = tags.get(tag.name);
      if (known && known.description !== tag.description) throw new Error(`tag "${tag.name}" is declared with two descriptions`);
      tags.set(tag.name, tag);
    }
  }
  return [...tags.values()].map(({ name, description }) => ({ name, description }));
}

/** Registers the routes in the registry, with the shared error envelope on every error status. */
function registerRoutes(registry: OpenAPIRegistry, routes: readonly RouteDefinition[]): void {
  for (const route of routes) {
    const responses: RouteConfig['responses'] = {};
    const ok = route.response;
    if ('schema' in ok) {
      for (const status of [ok.status, ...(ok.alsoStatuses ?? [])]) {
        const examples = status === ok.status ? examplesOf(route.examples?.response) : undefined;
        responses[status] = { description: ok.description, content: { 'application/json': { schema: ok.schema, ...examples } } };
      }
    } else if ('binary' in ok) {
      const content: Record<string, { schema: z.ZodType }> = {};
      for (const type of ok.binary) content[type] = { schema: z.custom<Buffer>().openapi({ type: 'string', format: 'binary' }) };
      responses[ok.status] = { description: ok.description, content };
    } else {
      responses[ok.status] = { description: ok.description };
    }
    for (const status of errorStatuses(route)) {
      if (responses[status]) continue;
      const known = ERRORS[status];
      responses[status] = {
        description: known?.description ?? 'Error',
        content: { 'application/json': { schema: ErrorEnvelope, ...(known ? { example: known.example } : {}) } },
      };
    }
    const note = accessNote(route.resource);
    const sandbox = route.sandboxOnly ? SANDBOX_NOTE : undefined;
    registry.registerPath({
      method: route.method,
      path: route.path,
      operationId: route.operationId,
      summary: route.summary,
      description: [route.description, sandbox, note].filter(Boolean).join('\n\n') || undefined,
      ...(route.sandboxOnly ? { 'x-sandbox-only': true } : {}),
      tags: route.tags.map((tag) => tag.name),
      security: securityOf(route.resource),
      request: { params: route.params, query: route.query, headers: headerSchema(route), body: requestBodyOf(route) },
      responses,
    });
  }
}

export type OpenApiDocument = ReturnType<OpenApiGeneratorV31['generateDocument']>;

export interface DocumentOptions {
  /**
   * The gateway's PUBLIC_URL: the document a gateway serves names itself as its server. Without it (the
   * document built for client generators, which no one deployment owns) the server is a template whose
   * variables a reader fills in with their gateway's address.
   */
  publicUrl?: string;
  /**
   * The document the admin listener serves (ADMIN_PORT): only its routes, its server the listener that served it
   * (a relative URL, so the docs page there calls the address it was opened on, a port-forward's too).
   */
  admin?: boolean;
}

type ServerObject = NonNullable<Parameters<OpenApiGeneratorV31['generateDocument']>[0]['servers']>[number];

/** A route of the admin listener (ADMIN_PORT): the admin API and its own document. The public listener answers them 404. */
export function isAdminRoute(route: Pick<RouteDefinition, 'resource' | 'path'>): boolean {
  return route.resource === 'admin' || route.path === '/admin' || route.path.startsWith('/admin/');
}

function serversOf(publicUrl: string | undefined): ServerObject[] {
  if (publicUrl) return [{ url: publicUrl, description: 'This gateway (its PUBLIC_URL)' }];
  return [
    {
      url: '{scheme}://{host}',
      description: "A gateway of the platform: its PUBLIC_URL. `npm start` serves one at http://localhost:8080; a client's environment (sandbox or production) comes with its keys, not with the URL.",
      variables: {
        scheme: { enum: ['https', 'http'], default: 'https', description: 'http only for a gateway on your own machine' },
        host: { default: 'localhost:8080', description: "Host and port of the gateway's PUBLIC_URL" },
      },
    },
  ];
}

/** The admin listener, where the admin routes answer (the public one answers them 404): a path's own servers in the document for client generators. */
const ADMIN_LISTENER_TEMPLATE: ServerObject = {
  url: '{scheme}://{host}',
  description: "The gateway's admin listener (ADMIN_PORT), never its public address: `npm start` serves it at http://localhost:8081.",
  variables: {
    scheme: { enum: ['https', 'http'], default: 'http', description: 'as the operator serves the admin listener' },
    host: { default: 'localhost:8081', description: "Host and port of the gateway's admin listener (ADMIN_PORT), or of a port-forward to it" },
  },
};

/** The admin document's server: the listener that served it. */
const ADMIN_LISTENER_SELF: ServerObject = {
  url: '/',
  description: 'This admin listener (ADMIN_PORT), where the document was read',
};

export const ADMIN_INFO_TITLE = 'Payments Platform admin API';

export const API_INFO = {
  title: 'Payments Platform API',
  version: '0.5.0',
  description:
    'Payment orchestration and sub-acquiring: customers and their cards, charges routed over several providers with failover, ' +
    'payment links, split payments and payouts, subscriptions, reports and receipts, and signed webhooks. A `SANDBOX` provider ' +
    'simulates every capability: sandbox clients take test payments with the test cards of the examples.\n\n' +
    'Every /v1 route needs X-Client-Id and X-Api-Key unless marked otherwise. Errors share one envelope: ' +
    '`{"error": {type, code, message, key?, businessCode?, declinedCode?, details?}}` where code is the HTTP status. ' +
    'A POST with X-Idempotency-Key is safe to retry.\n\n' +
    'The admin API (`/admin/v1`, X-Admin-Token) is served on the admin listener (ADMIN_PORT, 8081 under `npm start`), ' +
    'never on this address: its own document and docs page are at `/admin/v1/openapi.json` and `/docs` there.',
  license: { name: 'Apache License 2.0', identifier: 'Apache-2.0' },
  contact: { name: 'Payments Platform maintainers' },
};

const ADMIN_DESCRIPTION =
  "The operator's API of the payments platform: client accounts and their secret API keys. It is served on the gateway's " +
  'admin listener (ADMIN_PORT) only, every route with X-Admin-Token (one of ADMIN_TOKENS). The public API and its ' +
  "document are on the gateway's public address (`/docs` there).";

/**
 * The OpenAPI 3.1 document of a route table, built from the same zod schemas the routes validate with. The public
 * listener serves the public routes' document, the admin listener its own (`admin: true`); the document for client
 * generators has both, each admin path with the admin listener as its server.
 */
export function buildOpenApiDocument(routes: readonly RouteDefinition[], options: DocumentOptions = {}): OpenApiDocument {
  checkOperationIds(routes);
  const registry = new OpenAPIRegistry();
  if (!options.admin) {
    registry.registerComponent('securitySchemes', 'ClientId', {
      type: 'apiKey',
      in: 'header',
      name: 'X-Client-Id',
      description: 'The client account id',
    });
    registry.registerComponent('securitySchemes', 'ApiKey', {
      type: 'apiKey',
      in: 'header',
      name: 'X-Api-Key',
      description: 'A secret API key, or a public key from POST /v1/auth limited to its scopes',
    });
  }
  if (options.admin || routes.some(isAdminRoute)) {
    registry.registerComponent('securitySchemes', 'AdminToken', {
      type: 'apiKey',
      in: 'header',
      name: 'X-Admin-Token',
      description: 'Operator token for /admin routes',
    });
  }
  registry.register('Error', ErrorEnvelope);
  registerRoutes(registry, routes);
  const document = new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: options.admin ? { ...API_INFO, title: ADMIN_INFO_TITLE, description: ADMIN_DESCRIPTION } : API_INFO,
    servers: options.admin ? [ADMIN_LISTENER_SELF] : serversOf(options.publicUrl),
    tags: tagsOf(routes),
  });
  if (!options.admin) {
    for (const route of routes) {
      const item = document.paths?.[route.path];
      if (item && isAdminRoute(route)) item.servers = [ADMIN_LISTENER_TEMPLATE];
    }
  }
  return document;
}
