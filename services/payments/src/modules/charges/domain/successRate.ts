import { createHash } from 'node:crypto';

/**
 * Success-rate routing. For each (client, merchant, payment type, card brand, provider entry) the platform keeps
 * the outcomes of the latest authorization attempts, oldest first, one letter each: `a` approved, `d` declined
 * (a business answer), `t` a technical failure (no answer in time, unreachable, a technical decline). A route in
 * `success_rate` mode is tried in the order of the providers' approval rates over their business answers; a
 * provider whose latest attempts are mostly technical failures is taken out (tried last) for a cool-down, then
 * probed back in, one charge in `probeEvery` trying it first, until its window recovers; a probe that fails
 * technically starts another cool-down.
 */

export type AttemptMark = 'a' | 'd' | 't';

/** How a route in a flow rule (or one of its split branches) orders its providers. */
export type RouteMode = 'priority' | 'success_rate';
export const ROUTE_MODES: readonly RouteMode[] = ['priority', 'success_rate'];

export interface SuccessRateSettings {
  /** Attempts of the window the approval rate is read from. */
  window: number;
  /** Weight, in attempts, of the prior (the route's pooled approval rate) a provider's own rate is blended with. */
  priorWeight: number;
  /** Share of charges, in percent, routed in another order to keep learning (chosen from the charge id). */
  explorePercent: number;
  /** Latest attempts whose technical failures decide an elimination. */
  eliminationWindow: number;
  /** Share, in percent, of the elimination window's attempts that must have failed technically to take a provider out. */
  eliminationPercent: number;
  /** How long an eliminated provider is tried only last. */
  cooldownMs: number;
  /** After the cool-down, one charge in this many tries the provider first, until its window recovers. */
  probeEvery: number;
}

export const DEFAULT_SUCCESS_RATE_SETTINGS: SuccessRateSettings = {
  window: 100,
  priorWeight: 10,
  explorePercent: 5,
  eliminationWindow: 20,
  eliminationPercent: 50,
  cooldownMs: 60_000,
  probeEvery: 10,
};

/** What is kept of one provider entry: its latest outcomes and when it was taken out, if it is. */
export interface ProviderOutcomes {
  /** Oldest first, at most `max(window, eliminationWindow)` letters. */
  recent: string;
  /** When the provider was taken out; null while it is in. */
  trippedAt: Date | null;
}

export const EMPTY_OUTCOMES: ProviderOutcomes = { recent: '', trippedAt: null };

/** The letters kept per provider: enough for both windows. */
export function keptAttempts(settings: SuccessRateSettings): number {
  return Math.max(settings.window, settings.eliminationWindow);
}

/** Technical failures, of the elimination window's attempts, that take a provider out (10 of 20 at 50 %). */
export function eliminationThreshold(settings: SuccessRateSettings): number {
  return Math.max(1, Math.ceil((settings.eliminationPercent * settings.eliminationWindow) / 100));
}

function count(text: string, mark: AttemptMark): number {
  let n = 0;
  for (const c of text) if (c === mark) n += 1;
  return n;
}

/** Technical failures among the latest `eliminationWindow` attempts. */
export function technicalFailures(recent: string, settings: SuccessRateSettings): number {
  return count(recent.slice(-settings.eliminationWindow), 't');
}

/**
 * The outcomes after a charge's attempts (oldest first): the window slides, and the provider is taken out when
 * its technical failures reach the threshold, and back in as soon as they fall below it. While it is out, a
 * technical failure after its cool-down (a probe that failed) starts another cool-down; otherwise the time it was
 * taken out is kept. The outcome store's single upsert does the same in SQL.
 */
export function appendOutcomes(before: ProviderOutcomes, marks: string, now: Date, settings: SuccessRateSettings): ProviderOutcomes {
  const recent = (before.recent + marks).slice(-keptAttempts(settings));
  if (technicalFailures(recent, settings) < eliminationThreshold(settings)) return { recent, trippedAt: null };
  const cooledDown = before.trippedAt !== null && now.getTime() - before.trippedAt.getTime() >= settings.cooldownMs;
  if (before.trippedAt === null || (cooledDown && marks.includes('t'))) return { recent, trippedAt: now };
  return { recent, trippedAt: before.trippedAt };
}

export interface ProviderScore {
  approved: number;
  declined: number;
  technical: number;
  /** Approved over business answers in the window, blended with the prior. */
  rate: number;
}

/** Approvals over business answers (approved + declined) in the window; technical failures counted apart. */
export function windowCounts(recent: string, settings: SuccessRateSettings): { approved: number; declined: number; technical: number } {
  const window = recent.slice(-settings.window);
  return { approved: count(window, 'a'), declined: count(window, 'd'), technical: count(window, 't') };
}

/**
 * The approval rate of each provider, with a prior: `(approved + prior × w) / (approved + declined + w)`, the
 * prior being the route's pooled rate (0.5 while no provider of the route has a business answer), so that a
 * provider with few answers is ranked near the route's average rather than at 0 % or 100 %.
 */
export function scoreProviders(outcomes: ReadonlyArray<ProviderOutcomes>, settings: SuccessRateSettings): ProviderScore[] {
  const counts = outcomes.map((o) => windowCounts(o.recent, settings));
  const approved = counts.reduce((sum, c) => sum + c.approved, 0);
  const answered = counts.reduce((sum, c) => sum + c.approved + c.declined, 0);
  const prior = answered === 0 ? 0.5 : approved / answered;
  return counts.map((c) => ({ ...c, rate: (c.approved + prior * settings.priorWeight) / (c.approved + c.declined + settings.priorWeight) }));
}

/** A number in [0, 10000) from SHA-256 of the charge id and a purpose: the same charge always draws the same. */
export function draw(chargeId: string, purpose: string): number {
  return createHash('sha256').update(`${chargeId.toLowerCase()}\u0000${purpose}`).digest().readUInt32BE(0) % 10_000;
}

export type EliminationState = 'in' | 'cooling_down' | 'probing';

/** Whether a provider is in, cooling down after an elimination, or past its cool-down and being probed back. */
export function eliminationOf(outcomes: ProviderOutcomes, now: Date, settings: SuccessRateSettings): EliminationState {
  if (technicalFailures(outcomes.recent, settings) < eliminationThreshold(settings)) return 'in';
  const since = outcomes.trippedAt ?? now;
  return now.getTime() - since.getTime() < settings.cooldownMs ? 'cooling_down' : 'probing';
}

export interface RankedProvider<P> {
  provider: P;
  label: string;
  score: ProviderScore;
  state: EliminationState;
  /** A probed provider this charge tries first. */
  probed: boolean;
}

export interface SuccessRateOrder<P> {
  providers: P[];
  ranked: RankedProvider<P>[];
  /** This charge is one of the exploration share: a provider other than the best was moved to the front. */
  explored: boolean;
  /** Why, in words: "success rate: CIELO 92% of 50, REDE 88% of 40; explore; REDE cooling down after 12 technical failures of 20". */
  description: string;
}

const percent = (rate: number) => `${Math.round(rate * 100)}%`;

/**
 * The providers of a route in success-rate order, for one charge. Providers that are in come first, best rate
 * first (the given order between equals); a charge of the exploration share moves one of the others, drawn from
 * its id, to the front; a probed provider whose draw hits goes first of all; providers cooling down, or probed by
 * another charge, come last, in the given order: they are still tried rather than never.
 */
export function orderBySuccessRate<P>(
  route: ReadonlyArray<{ provider: P; label: string; outcomes: ProviderOutcomes }>,
  chargeId: string,
  now: Date,
  settings: SuccessRateSettings,
): SuccessRateOrder<P> {
  const scores = scoreProviders(
    route.map((r) => r.outcomes),
    settings,
  );
  const ranked: RankedProvider<P>[] = route.map((r, i) => {
    const state = eliminationOf(r.outcomes, now, settings);
    const probed = state === 'probing' && draw(chargeId, `probe:${r.label}`) % settings.probeEvery === 0;
    return { provider: r.provider, label: r.label, score: scores[i]!, state, probed };
  });
  const healthy = ranked.filter((r) => r.state === 'in').sort((a, b) => b.score.rate - a.score.rate);
  const explored = healthy.length > 1 && draw(chargeId, 'explore') < settings.explorePercent * 100;
  if (explored) {
    const [moved] = healthy.splice(1 + (draw(chargeId, 'explore:pick') % (healthy.length - 1)), 1);
    healthy.unshift(moved!);
  }
  const probes = ranked.filter((r) => r.probed);
  const last = ranked.filter((r) => r.state !== 'in' && !r.probed);
  const ordered = [...probes, ...healthy, ...last];

  const parts = [`success rate: ${ordered.map((r) => `${r.label} ${percent(r.score.rate)} of ${r.score.approved + r.score.declined}`).join(', ')}`];
  if (explored) parts.push('explore');
  ranked.forEach((r, i) => {
    const recent = route[i]!.outcomes.recent;
    const failures = `${technicalFailures(recent, settings)} technical failures of ${Math.min(settings.eliminationWindow, recent.length)}`;
    if (r.state === 'cooling_down') parts.push(`${r.label} cooling down after ${failures}`);
    if (r.state === 'probing') parts.push(r.probed ? `${r.label} probed first after ${failures}` : `${r.label} probing (tried last) after ${failures}`);
  });
  return { providers: ordered.map((r) => r.provider), ranked: ordered, explored, description: parts.join('; ') };
}

/** The letter of one recorded authorization attempt; null for an attempt that says nothing of the provider (a skip). */
export function markOfRequest(request: { requestType: string; requestStatus: string; message: string | null }): AttemptMark | null {
  if (request.requestType !== 'authorization') return null;
  if (request.message?.startsWith('skipped:')) return null;
  if (request.requestStatus === 'success') return 'a';
  if (request.requestStatus === 'declined') return 'd';
  if (request.requestStatus === 'failed') return 't';
  return null;
}
