import { OpenAPIRegistry, OpenApiGeneratorV31, type RouteConfig } from '@asteasolutions/zod-to-openapi';
import type { Access } from '../http/auth';
import { ErrorEnvelope } from '../http/errors';
import { headerSchema, type RouteDefinition } from '../http/route';
import { z } from './zod';

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'Invalid request: details name each bad field',
  401: 'Missing or invalid credentials',
  402: 'Card declined',
  403: 'The key does not reach this resource',
  404: 'Not found (also for ids of other clients)',
  409: 'Conflict with an existing record or a request in flight',
  413: 'Body or file too large',
  415: 'Unsupported Content-Type',
  422: 'A business rule refused the request',
  429: 'Too many requests: the client (or, without credentials, the address) is over its rate limit; see Retry-After',
  500: 'Internal error, with a logId',
  503: 'A platform service is unavailable',
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

function requestBodyOf(route: RouteDefinition): NonNullable<RouteConfig['request']>['body'] {
  if (!route.body) return undefined;
  const content: Record<string, { schema: z.ZodType }> = {};
  for (const kind of route.consumes ?? ['json']) {
    if (kind === 'json') content['application/json'] = { schema: route.body };
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

/** Registers the routes in the registry, with the shared error envelope on every error status. */
function registerRoutes(registry: OpenAPIRegistry, routes: readonly RouteDefinition[]): void {
  for (const route of routes) {
    const responses: RouteConfig['responses'] = {};
    const ok = route.response;
    if ('schema' in ok) {
      for (const status of [ok.status, ...(ok.alsoStatuses ?? [])]) {
        responses[status] = { description: ok.description, content: { 'application/json': { schema: ok.schema } } };
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
      responses[status] = {
        description: ERROR_DESCRIPTIONS[status] ?? 'Error',
        content: { 'application/json': { schema: ErrorEnvelope } },
      };
    }
    const note = accessNote(route.resource);
    const sandbox = route.sandboxOnly ? SANDBOX_NOTE : undefined;
    registry.registerPath({
      method: route.method,
      path: route.path,
      summary: route.summary,
      description: [route.description, sandbox, note].filter(Boolean).join('\n\n') || undefined,
      ...(route.sandboxOnly ? { 'x-sandbox-only': true } : {}),
      tags: route.tags,
      security: securityOf(route.resource),
      request: { params: route.params, query: route.query, headers: headerSchema(route), body: requestBodyOf(route) },
      responses,
    });
  }
}

export type OpenApiDocument = ReturnType<OpenApiGeneratorV31['generateDocument']>;

/** The OpenAPI 3.1 document of the route table, built from the same zod schemas the routes validate with. */
export function buildOpenApiDocument(routes: readonly RouteDefinition[], options: { publicUrl: string }): OpenApiDocument {
  const registry = new OpenAPIRegistry();
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
  registry.registerComponent('securitySchemes', 'AdminToken', {
    type: 'apiKey',
    in: 'header',
    name: 'X-Admin-Token',
    description: 'Operator token for /admin routes',
  });
  registry.register('Error', ErrorEnvelope);
  registerRoutes(registry, routes);
  return new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'Payments Platform API',
      version: '0.5.0',
      description:
        'Every /v1 route needs X-Client-Id and X-Api-Key unless marked otherwise. Errors share one envelope: ' +
        '`{"error": {type, code, message, key?, businessCode?, declinedCode?, details?}}` where code is the HTTP status.',
    },
    servers: [{ url: options.publicUrl }],
  });
}
