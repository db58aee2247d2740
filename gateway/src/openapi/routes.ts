import { defineRoute, type RouteDefinition } from '../http/route';
import { TAGS } from './tags';
import type { OpenApiDocument } from './document';
import { z } from './zod';

export function openApiRoutes(document: () => OpenApiDocument): RouteDefinition[] {
  return [
    defineRoute({
      method: 'get',
      path: '/v1/openapi.json',
      operationId: 'getOpenApiDocument',
      summary: 'This OpenAPI 3.1 document',
      tags: [TAGS.docs],
      resource: 'public',
      response: { status: 200, description: 'The OpenAPI document', schema: z.record(z.string(), z.unknown()) },
      handler: async () => document() as unknown as Record<string, unknown>,
    }),
  ];
}

/**
 * The admin listener's own document (its routes only, its server the listener itself), read without a token like
 * the public one: it holds no secret, and the docs page there loads it before anyone types a token.
 */
export function adminOpenApiRoutes(document: () => OpenApiDocument): RouteDefinition[] {
  return [
    defineRoute({
      method: 'get',
      path: '/admin/v1/openapi.json',
      operationId: 'getAdminOpenApiDocument',
      summary: "The admin API's OpenAPI 3.1 document, served on the admin listener",
      tags: [TAGS.docs],
      resource: 'public',
      response: { status: 200, description: 'The OpenAPI document of the admin routes', schema: z.record(z.string(), z.unknown()) },
      handler: async () => document() as unknown as Record<string, unknown>,
    }),
  ];
}
