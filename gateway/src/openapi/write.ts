import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gatewayRoutes } from '../app';
import type { GatewayClients } from '../clients';
import type { RouteDefinition } from '../http/route';
import { buildOpenApiDocument, type OpenApiDocument } from './document';

/**
 * Clients for a route table that is only read: building the routes keeps a reference to each client, and no
 * handler ever runs, so any call is a bug.
 */
const NEVER_CALLED = new Proxy(
  {},
  {
    get: (_target, service) =>
      new Proxy(
        {},
        {
          get: (_inner, method) =>
            // Not thenable: a client that is awaited must not look like a promise.
            method === 'then'
              ? undefined
              : () => {
                  throw new Error(`the OpenAPI writer called ${String(service)}.${String(method)}`);
                },
        },
      ),
  },
) as GatewayClients;

/** The gateway's route table, to be read and never served. */
export function readOnlyRoutes(document: () => OpenApiDocument = () => generatorDocument()): RouteDefinition[] {
  // PUBLIC_URL only shapes links in answers, and nothing is answered here.
  return gatewayRoutes(NEVER_CALLED, { PUBLIC_URL: '' }, document);
}

/** The document for client generators and the linter: the whole route table, its server a template (no deployment's). */
export function generatorDocument(): OpenApiDocument {
  const document: OpenApiDocument = buildOpenApiDocument(readOnlyRoutes(() => document));
  return document;
}

/** `node dist/openapi/write.js <file>`: part of the gateway's build (gateway/dist/openapi.json). */
function main(): void {
  const target = process.argv[2];
  if (!target) throw new Error('usage: node dist/openapi/write.js <file>');
  mkdirSync(path.dirname(path.resolve(target)), { recursive: true });
  writeFileSync(target, `${JSON.stringify(generatorDocument(), null, 2)}\n`);
}

if (require.main === module) main();
