import { createHash } from 'node:crypto';
import { issuerCountryOf as tableCountryOf } from './issuerCountry';
import type { RouteMode } from './successRate';

/** Which providers a charge is tried on, in which order, and which answers move on to the next one. */

/** A range of card BINs (the first six digits), both ends included. */
export interface BinRange {
  from: string;
  to: string;
}

/**
 * The conditions of a flow rule; every one that is set must hold. `all` holds when each of its conditions does,
 * `any` when at least one does; they nest.
 */
export interface RoutingCondition {
  amountGte?: number;
  amountLte?: number;
  cardBrand?: string;
  installmentsGte?: number;
  installmentsLte?: number;
  currency?: string;
  paymentType?: string;
  /** The card's first six digits fall in one of these ranges. */
  binRanges?: BinRange[];
  /** The card's issuer country (ISO 3166-1 alpha-2, from its BIN) is one of these. */
  issuerCountry?: string[];
  /** Each key's value on the charge (see RoutingFacts.metadata) is one of the listed values. */
  metadata?: Record<string, string[]>;
  all?: RoutingCondition[];
  any?: RoutingCondition[];
}

/** One share of a split route: `percentage` of the charges (by a hash of their id) take `route`. */
export interface RouteSplitBranch {
  percentage: number;
  route: string[];
  /** The antifraud entry that analyses the charges of this branch, instead of the rule's or the merchant's first. */
  antifraudProviderId?: string;
  /** How the branch's providers are ordered: as given (priority, the default) or by success rate. */
  mode?: RouteMode;
}

/** A flow rule routes either on one route or on a split of the volume between routes. */
export interface RoutingRule {
  when?: RoutingCondition;
  route?: string[];
  split?: RouteSplitBranch[];
  antifraudProviderId?: string;
  /** How the rule's route is ordered, and its split branches that name no mode: as given (priority, the default) or by success rate. */
  mode?: RouteMode;
}

export interface RoutingFlow {
  rules: RoutingRule[];
  defaultRoute: string[];
}

/** The facts of a charge that flow rules look at. */
export interface RoutingFacts {
  /** Picks the branch of a split rule: the same charge id always lands on the same branch. */
  chargeId?: string;
  amount: number;
  currency: string;
  installments: number;
  paymentType?: string;
  /** Absent for payments without a card (Pix, boleto): a rule naming a brand never matches them. */
  cardBrand?: string;
  /** The card's first six digits; absent without a card, so that BIN and issuer country rules do not match. */
  first6?: string;
  /** The charge's paymentFlow.metadata by dotted path (see routingMetadataOf). */
  metadata?: Record<string, string>;
}

/**
 * How the providers were chosen: a flow rule's route, a branch of a flow rule's split, the flow's default route,
 * or the merchant's priorities.
 */
export type RouteReason = 'flow_rule' | 'flow_split' | 'flow_default' | 'priority';

export interface Route<P> {
  providers: P[];
  reason: RouteReason;
  /** Why, in words recorded on each transaction request: "flow rule 2", "flow rule 1, split branch 1 of 2 (70%)". */
  description: string;
  /** Index of the flow rule that matched, when one did. */
  ruleIndex?: number;
  /** Index of the split branch taken, when the rule splits its volume. */
  branchIndex?: number;
  /** The antifraud entry the rule or its branch names, if any. */
  antifraudProviderId?: string;
  /**
   * success_rate: the rule (or branch) asks its providers to be ordered by their approval rates before they are
   * tried (orderBySuccessRate, domain/successRate.ts); priority: in the order given.
   */
  mode: RouteMode;
}

/** How deep a metadata condition may reach into `paymentFlow.metadata` (`seller.tier` is two levels). */
export const METADATA_DEPTH = 4;

/**
 * The values a metadata condition reads: the charge's `paymentFlow.metadata` (the object the public API and its
 * SDK take for flow conditions), each string, number or boolean by its dotted path (`segment`, `seller.tier`), up
 * to four levels down. Numbers and booleans are compared as their text (`2`, `true`).
 */
export function routingMetadataOf(paymentFlow: Record<string, unknown> | null | undefined): Record<string, string> {
  const metadata: Record<string, string> = {};
  const walk = (value: unknown, path: string, depth: number) => {
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') metadata[path] = String(value);
    else if (value !== null && typeof value === 'object' && !Array.isArray(value) && depth < METADATA_DEPTH) {
      for (const [key, inner] of Object.entries(value)) walk(inner, path === '' ? key : `${path}.${key}`, depth + 1);
    }
  };
  const root = paymentFlow?.['metadata'];
  if (root !== null && typeof root === 'object' && !Array.isArray(root)) walk(root, '', 0);
  return metadata;
}

const isSet = <T>(value: T | undefined | null): value is T => value !== undefined && value !== null;

function binInRanges(first6: string | undefined, ranges: BinRange[]): boolean {
  if (!first6 || !/^\d{6}$/.test(first6)) return false;
  // Six digits each: comparing the strings compares the numbers.
  return ranges.some((range) => range.from <= first6 && first6 <= range.to);
}

function metadataMatches(wanted: Record<string, string[]>, facts: RoutingFacts): boolean {
  return Object.entries(wanted).every(([key, values]) => {
    const actual = facts.metadata?.[key];
    return actual !== undefined && values.includes(actual);
  });
}

export function ruleMatches(when: RoutingCondition, facts: RoutingFacts, issuerCountryOf: (first6: string | undefined) => string | undefined = tableCountryOf): boolean {
  if (isSet(when.amountGte) && facts.amount < when.amountGte) return false;
  if (isSet(when.amountLte) && facts.amount > when.amountLte) return false;
  if (isSet(when.installmentsGte) && facts.installments < when.installmentsGte) return false;
  if (isSet(when.installmentsLte) && facts.installments > when.installmentsLte) return false;
  if (isSet(when.currency) && when.currency !== '' && when.currency.toUpperCase() !== facts.currency.toUpperCase()) return false;
  if (isSet(when.cardBrand) && when.cardBrand !== '') {
    if (!facts.cardBrand || facts.cardBrand.toLowerCase() !== when.cardBrand.toLowerCase()) return false;
  }
  if (isSet(when.paymentType) && when.paymentType !== '' && when.paymentType.toLowerCase() !== facts.paymentType?.toLowerCase()) return false;
  if (isSet(when.binRanges) && when.binRanges.length > 0 && !binInRanges(facts.first6, when.binRanges)) return false;
  if (isSet(when.issuerCountry) && when.issuerCountry.length > 0) {
    const country = issuerCountryOf(facts.first6);
    if (!country || !when.issuerCountry.some((c) => c.toUpperCase() === country)) return false;
  }
  if (isSet(when.metadata) && !metadataMatches(when.metadata, facts)) return false;
  if (isSet(when.all) && !when.all.every((inner) => ruleMatches(inner, facts, issuerCountryOf))) return false;
  if (isSet(when.any) && when.any.length > 0 && !when.any.some((inner) => ruleMatches(inner, facts, issuerCountryOf))) return false;
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

/** Buckets of a split: a charge falls in one of 10,000, so percentages are honoured to a hundredth of a percent. */
export const SPLIT_BUCKETS = 10_000;

/**
 * The bucket of a charge id, from SHA-256 of the id: it spreads ids evenly and never changes, so the same id
 * always falls in the same bucket, whichever process routes it.
 */
export function splitBucket(chargeId: string): number {
  const digest = createHash('sha256').update(chargeId.toLowerCase()).digest();
  return digest.readUInt32BE(0) % SPLIT_BUCKETS;
}

/** The index of the split branch a charge id takes: branches own consecutive buckets in their order. */
export function splitBranchOf(branches: ReadonlyArray<{ percentage: number }>, chargeId: string): number {
  const bucket = splitBucket(chargeId);
  let upper = 0;
  for (let i = 0; i < branches.length; i += 1) {
    upper += (branches[i]!.percentage * SPLIT_BUCKETS) / 100;
    if (bucket < upper) return i;
  }
  return branches.length - 1;
}

export interface RouteOptions {
  /** The issuer country of a BIN; the offline table (issuerCountry.ts) unless given. */
  issuerCountryOf?: (first6: string | undefined) => string | undefined;
}

function ruleRoute<P extends { id: string }>(providers: P[], rule: RoutingRule, ruleIndex: number, facts: RoutingFacts): Route<P> | undefined {
  const ruleName = `flow rule ${ruleIndex + 1}`;
  const antifraud = rule.antifraudProviderId ? { antifraudProviderId: rule.antifraudProviderId } : {};
  if (rule.split && rule.split.length > 0) {
    const branchIndex = splitBranchOf(rule.split, facts.chargeId ?? '');
    const branch = rule.split[branchIndex]!;
    const routed = pick(providers, branch.route);
    if (routed.length === 0) return undefined;
    return {
      providers: routed,
      reason: 'flow_split',
      description: `${ruleName}, split branch ${branchIndex + 1} of ${rule.split.length} (${branch.percentage}%)`,
      ruleIndex,
      branchIndex,
      mode: branch.mode ?? rule.mode ?? 'priority',
      ...antifraud,
      ...(branch.antifraudProviderId ? { antifraudProviderId: branch.antifraudProviderId } : {}),
    };
  }
  const routed = pick(providers, rule.route ?? []);
  if (routed.length === 0) return undefined;
  return { providers: routed, reason: 'flow_rule', description: ruleName, ruleIndex, mode: rule.mode ?? 'priority', ...antifraud };
}

/**
 * The ordered providers of a charge. With a flow for its payment method: the route of the first rule that
 * matches (or the branch of its split that the charge id falls in), else the flow's default route. Without a
 * flow, or when a route names no provider that is still active, the merchant's providers in priority order
 * (1 first).
 */
export function routeProviders<P extends { id: string; priority: number }>(
  providers: P[],
  flow: RoutingFlow | undefined,
  facts: RoutingFacts,
  options: RouteOptions = {},
): Route<P> {
  if (flow) {
    const ruleIndex = flow.rules.findIndex((rule) => ruleMatches(rule.when ?? {}, facts, options.issuerCountryOf));
    if (ruleIndex >= 0) {
      const routed = ruleRoute(providers, flow.rules[ruleIndex]!, ruleIndex, facts);
      if (routed) return routed;
    }
    const fallback = pick(providers, flow.defaultRoute);
    if (fallback.length > 0) {
      const because = ruleIndex >= 0 ? ` (flow rule ${ruleIndex + 1} named no active provider)` : '';
      return { providers: fallback, reason: 'flow_default', description: `flow default route${because}`, mode: 'priority' };
    }
  }
  return { providers: byPriority(providers), reason: 'priority', description: 'priority', mode: 'priority' };
}

// ---------------------------------------------------------------- failover

/** Which answers move a charge on to its next provider: domain/cascade.ts. */
export { TECHNICAL_DECLINE_CODES, classifyAttempt, declinedCodeAfterTechnicalFailures, type AttemptOutcome } from './cascade';
