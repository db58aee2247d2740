import { counter, histogram, SLOW_BUCKETS } from '@platform/kit';

/**
 * The charge pipeline's metrics. Labels are kinds, never ids: a charge's status, its payment method, and a provider's
 * type (SANDBOX, ...), not the client's provider id.
 */
export const chargesTotal = counter({
  name: 'charges_total',
  help: 'Charges decided, by status, payment method and provider type',
  labelNames: ['status', 'method', 'provider'],
});

export const providerSeconds = histogram({
  name: 'provider_request_duration_seconds',
  help: 'Time a provider took to answer a request, by provider type, operation and outcome (answered, timeout, unavailable)',
  labelNames: ['provider', 'operation', 'outcome'],
  buckets: SLOW_BUCKETS,
});

export const providerFailovers = counter({
  name: 'provider_failovers_total',
  help: 'Authorizations passed on to the next provider after a technical failure, by the provider type that failed',
  labelNames: ['provider'],
});

export const chargeRoutes = counter({
  name: 'charge_routes_total',
  help: 'Charges routed, by why their providers were tried in that order (flow_rule, flow_split, flow_default, priority)',
  labelNames: ['reason'],
});

export const routeOrderings = counter({
  name: 'charge_route_orderings_total',
  help: 'Charges whose route was ordered by success rate, by how (success_rate: best rate first, explore: another order to keep learning, probe: a provider being probed back tried first)',
  labelNames: ['reason'],
});

export const providerEliminations = counter({
  name: 'provider_eliminations_total',
  help: 'Charges routed by success rate with a provider taken out for its technical failures, by provider type and state (cooling_down: tried last; probing: tried first by one charge in ROUTING_PROBE_EVERY, else last)',
  labelNames: ['provider', 'state'],
});

export const outcomeFlushes = counter({
  name: 'provider_outcome_flushes_total',
  help: 'Writes of the buffered provider outcomes (success-rate routing), by result (written, failed: kept for the next)',
  labelNames: ['result'],
});

export const outcomeMarksDropped = counter({
  name: 'provider_outcome_marks_dropped_total',
  help: 'Provider outcomes (attempt letters) dropped unwritten because the buffer held too many provider entries after failed writes',
});
