import { checkUpstreams, UPSTREAMS, type GatewayClients, type Upstream } from '../../clients';
import { defineRoute, type RouteDefinition } from '../../http/route';
import { TAGS } from '../../openapi/tags';
import { z } from '../../openapi/zod';

export const HealthSchema = z
  .object({
    status: z.enum(['ok', 'degraded', 'draining']).openapi({
      description:
        '`ok`: every upstream serving. `degraded`: at least one is not (the routes it serves answer 503 with Retry-After; every other route works). ' +
        '`draining`: the gateway is shutting down (503, without `services`).',
    }),
    services: z
      .object(Object.fromEntries(UPSTREAMS.map((name) => [name, z.string().openapi({ example: 'SERVING' })])) as Record<Upstream, z.ZodString>)
      .optional()
      .openapi({ description: 'What each upstream answers to its gRPC health check: SERVING, NOT_SERVING, SERVICE_UNKNOWN or UNREACHABLE' }),
  })
  .openapi('Health');

export function healthRoutes(clients: Pick<GatewayClients, 'health'>): RouteDefinition[] {
  return [
    defineRoute({
      method: 'get',
      path: '/health',
      operationId: 'getHealth',
      summary: "Readiness: the gateway serves; the body shows each upstream's gRPC health",
      description:
        'The gateway is ready while its own process serves, whatever its upstreams answer: a service that is down makes only its ' +
        'own routes answer 503 (with Retry-After), so it never takes the gateway out of its load balancer. The answer is 200 ' +
        'with `status: "degraded"` while an upstream is not SERVING (the metric `gateway_upstream_up{upstream}` says the same ' +
        'for alerts), and 503 `{"status":"draining"}` only once the gateway is shutting down.',
      tags: [TAGS.health],
      resource: 'public',
      // Kubelet probes from the node's address, which other traffic may share: a rate limit must never fail readiness.
      rateLimited: false,
      response: { status: 200, description: 'Ready, every upstream listed (503 with status `draining` while shutting down)', schema: HealthSchema, alsoStatuses: [503] },
      handler: async () => {
        const services = await checkUpstreams(clients.health);
        const ok = Object.values(services).every((s) => s === 'SERVING');
        return { status: ok ? ('ok' as const) : ('degraded' as const), services };
      },
    }),
  ];
}
