import { UPSTREAMS, type GatewayClients, type Upstream } from '../../clients';
import { defineRoute, WithStatus, type RouteDefinition } from '../../http/route';
import { TAGS } from '../../openapi/tags';
import { z } from '../../openapi/zod';

export const HealthSchema = z
  .object({
    status: z.enum(['ok', 'degraded']),
    services: z.object(
      Object.fromEntries(UPSTREAMS.map((name) => [name, z.string().openapi({ example: 'SERVING' })])) as Record<Upstream, z.ZodString>,
    ),
  })
  .openapi('Health');

export function healthRoutes(clients: Pick<GatewayClients, 'health'>): RouteDefinition[] {
  return [
    defineRoute({
      method: 'get',
      path: '/health',
      operationId: 'getHealth',
      summary: 'Readiness: every upstream answers the standard gRPC health check with SERVING',
      tags: [TAGS.health],
      resource: 'public',
      response: { status: 200, description: 'All upstreams serving (503 with the same shape otherwise)', schema: HealthSchema, alsoStatuses: [503] },
      handler: async () => {
        const statuses = await Promise.all(UPSTREAMS.map((name) => clients.health[name]().catch(() => 'UNREACHABLE')));
        const services = Object.fromEntries(UPSTREAMS.map((name, i) => [name, statuses[i] ?? 'UNKNOWN'])) as Record<Upstream, string>;
        const ok = statuses.every((s) => s === 'SERVING');
        const body = { status: ok ? ('ok' as const) : ('degraded' as const), services };
        return ok ? body : new WithStatus(503, body);
      },
    }),
  ];
}
