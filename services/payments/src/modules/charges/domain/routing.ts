import type { DeclinedCode } from './charge';

/** Which providers a charge is tried on, in which order, and which answers move on to the next one. */

export interface RoutingCondition {
  amountGte?: number;
  amountLte?: number;
  cardBrand?: string;
  installmentsGte?: number;
  currency?: string;
}

export interface RoutingFlow {
  rules: Array<{ when: RoutingCondition; route: string[] }>;
  defaultRoute: string[];
}

/** The facts of a charge that flow rules look at. */
export interface RoutingFacts {
  amount: number;
  currency: string;
  installments: number;
  /** Absent for payments without a card (Pix, boleto): a rule naming a brand never matches them. */
  cardBrand?: string;
}

export type RouteReason = 'flow_rule' | 'flow_default' | 'priority';

export interface Route<P> {
  providers: P[];
  reason: RouteReason;
  /** Index of the flow rule that matched, when one did. */
  ruleIndex?: number;
}

const isSet = <T>(value: T | undefined | null): value is T => value !== undefined && value !== null;

export function ruleMatches(when: RoutingCondition, facts: RoutingFacts): boolean {
  if (isSet(when.amountGte) && facts.amount < when.amountGte) return false;
  if (isSet(when.amountLte) && facts.amount > when.amountLte) return false;
  if (isSet(when.installmentsGte) && facts.installments < when.installmentsGte) return false;
  if (isSet(when.currency) && when.currency !== '' && when.currency.toUpperCase() !== facts.currency.toUpperCase()) return false;
  if (isSet(when.cardBrand) && when.cardBrand !== '') {
    if (!facts.cardBrand || facts.cardBrand.toLowerCase() !== when.cardBrand.toLowerCase()) return false;
  }
  return true;
}

export function byPriority<P extends { priority: number }>(providers: P[]): P[] {
  // Array.prototype.sort is stable: providers of equal priority keep the order they were given in.
  return [...providers].sort((a, b) => a.priority - b.priority);
}

function pick<P extends { id: string }>(providers: P[], ids: string[]): P[] {
  const byId = new Map(providers.map((p) => [p.id.toLowerCase(), p]));
  const picked: P[] = [];
  for (const id of ids) {
    const provider = byId.get(id.toLowerCase());
    if (provider && !picked.includes(provider)) picked.push(provider);
  }
  return picked;
}

/**
 * The ordered providers of a charge. With a flow for its payment method: the route of the first rule that
 * matches, else the flow's default route. Without a flow, or when a route names no provider that is still
 * active, the merchant's providers in priority order (1 first).
 */
export function routeProviders<P extends { id: string; priority: number }>(providers: P[], flow: RoutingFlow | undefined, facts: RoutingFacts): Route<P> {
  if (flow) {
    const ruleIndex = flow.rules.findIndex((rule) => ruleMatches(rule.when ?? {}, facts));
    if (ruleIndex >= 0) {
      const routed = pick(providers, flow.rules[ruleIndex]!.route);
      if (routed.length > 0) return { providers: routed, reason: 'flow_rule', ruleIndex };
    }
    const fallback = pick(providers, flow.defaultRoute);
    if (fallback.length > 0) return { providers: fallback, reason: 'flow_default' };
  }
  return { providers: byPriority(providers), reason: 'priority' };
}

// ---------------------------------------------------------------- failover

/** Declines that say "not now" rather than "no": the next provider may well authorize. */
export const TECHNICAL_DECLINE_CODES: readonly string[] = ['try_again', 'issuer_not_available'];

/** How one authorization attempt ended, as far as routing cares. */
export type AttemptOutcome =
  | { kind: 'timeout' }
  | { kind: 'unavailable' }
  | { kind: 'authorized' }
  | { kind: 'pending' }
  | { kind: 'canceled' }
  | { kind: 'declined'; declinedCode: string };

/** technical: move on to the next provider; final: the answer of the charge (an approval or a business decline). */
export function classifyAttempt(outcome: AttemptOutcome): 'technical' | 'final' {
  switch (outcome.kind) {
    case 'timeout':
    case 'unavailable':
      return 'technical';
    case 'declined':
      return TECHNICAL_DECLINE_CODES.includes(outcome.declinedCode) ? 'technical' : 'final';
    case 'authorized':
    case 'pending':
    case 'canceled':
      return 'final';
    default: {
      const unknown: never = outcome;
      throw new Error(`unclassified attempt ${JSON.stringify(unknown)}`);
    }
  }
}

/**
 * The declinedCode of a charge every provider failed technically: the last provider's own code when it gave
 * one (`issuer_not_available`, `try_again`), else `try_again` (a timeout or an unreachable provider is not a
 * code a client would know).
 */
export function declinedCodeAfterTechnicalFailures(last: AttemptOutcome | undefined): DeclinedCode {
  if (last?.kind === 'declined' && last.declinedCode === 'issuer_not_available') return 'issuer_not_available';
  return 'try_again';
}
