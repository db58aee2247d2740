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
