import {
  appendOutcomes,
  DEFAULT_SUCCESS_RATE_SETTINGS,
  draw,
  EMPTY_OUTCOMES,
  eliminationOf,
  markOfRequest,
  orderBySuccessRate,
  scoreProviders,
  type ProviderOutcomes,
  type SuccessRateSettings,
} from '../../src/modules/charges/domain/successRate';
import { routeProviders, type RoutingFlow } from '../../src/modules/charges/domain/routing';
import { successRateSettingsOf } from '../../src/modules/charges/domain/successRateSettings';

const settings: SuccessRateSettings = { ...DEFAULT_SUCCESS_RATE_SETTINGS, explorePercent: 0 };
const t0 = new Date('2026-01-01T12:00:00Z');
const at = (ms: number) => new Date(t0.getTime() + ms);
const outcomes = (recent: string, trippedAt: Date | null = null): ProviderOutcomes => ({ recent, trippedAt });
const entry = (label: string, o: ProviderOutcomes) => ({ provider: label, label, outcomes: o });
const chargeIds = (n: number) => Array.from({ length: n }, (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`);

describe('success rate: scoring', () => {
  it('rates approvals over business answers, technical failures counted apart, blended with the route pooled rate', () => {
    const [cielo, rede] = scoreProviders([outcomes('a'.repeat(45) + 'd'.repeat(5) + 't'.repeat(10)), outcomes('a'.repeat(30) + 'd'.repeat(10))], settings);
    expect(cielo).toMatchObject({ approved: 45, declined: 5, technical: 10 });
    expect(rede).toMatchObject({ approved: 30, declined: 10, technical: 0 });
    const pooled = 75 / 90;
    expect(cielo!.rate).toBeCloseTo((45 + pooled * 10) / 60, 10);
    expect(rede!.rate).toBeCloseTo((30 + pooled * 10) / 50, 10);
  });

  it('ranks a provider without answers at the route average, and at one half when no provider has any', () => {
    const [fresh] = scoreProviders([EMPTY_OUTCOMES, outcomes('ad')], settings);
    expect(fresh!.rate).toBeCloseTo(0.5, 10);
    const [known, unknown] = scoreProviders([outcomes('aaaa'), EMPTY_OUTCOMES], settings);
    expect(unknown!.rate).toBeCloseTo(1, 10);
    expect(known!.rate).toBeCloseTo(1, 10);
    expect(scoreProviders([EMPTY_OUTCOMES], settings)[0]!.rate).toBe(0.5);
  });

  it('reads only the window: older answers fall out of it', () => {
    const small = { ...settings, window: 10 };
    expect(scoreProviders([outcomes('d'.repeat(50) + 'a'.repeat(10))], { ...small, priorWeight: 0 })[0]).toMatchObject({ approved: 10, declined: 0, rate: 1 });
  });

  it('orders the route best rate first, keeping the given order between equals, and says why', () => {
    const order = orderBySuccessRate([entry('REDE', outcomes('a'.repeat(35) + 'd'.repeat(5))), entry('CIELO', outcomes('a'.repeat(48) + 'd'.repeat(2))), entry('STONE', outcomes('a'.repeat(35) + 'd'.repeat(5)))], 'charge-1', t0, settings);
    expect(order.providers).toEqual(['CIELO', 'REDE', 'STONE']);
    expect(order.explored).toBe(false);
    expect(order.description).toBe('success rate: CIELO 95% of 50, REDE 88% of 40, STONE 88% of 40');
  });

  it('maps recorded authorizations to letters, a skip to none', () => {
    expect(markOfRequest({ requestType: 'authorization', requestStatus: 'success', message: 'authorized' })).toBe('a');
    expect(markOfRequest({ requestType: 'authorization', requestStatus: 'declined', message: null })).toBe('d');
    expect(markOfRequest({ requestType: 'authorization', requestStatus: 'failed', message: 'timeout' })).toBe('t');
    expect(markOfRequest({ requestType: 'authorization', requestStatus: 'failed', message: 'skipped: PIX does not take credit' })).toBeNull();
    expect(markOfRequest({ requestType: 'antifraud', requestStatus: 'success', message: null })).toBeNull();
  });
});

describe('success rate: exploration', () => {
  const route = [entry('CIELO', outcomes('a'.repeat(90) + 'd'.repeat(10))), entry('REDE', outcomes('a'.repeat(80) + 'd'.repeat(20))), entry('STONE', outcomes('a'.repeat(70) + 'd'.repeat(30)))];
  const exploring = { ...settings, explorePercent: 5 };

  it('routes about the configured share of charges in another order, the same charge always the same way', () => {
    const ids = chargeIds(4000);
    const explored = ids.filter((id) => orderBySuccessRate(route, id, t0, exploring).explored);
    expect(explored.length / ids.length).toBeGreaterThan(0.04);
    expect(explored.length / ids.length).toBeLessThan(0.06);
    for (const id of explored.slice(0, 20)) {
      const first = orderBySuccessRate(route, id, t0, exploring);
      expect(first.providers[0]).not.toBe('CIELO');
      expect(first.description).toMatch(/; explore$/);
      expect(orderBySuccessRate(route, id, t0, exploring).providers).toEqual(first.providers);
    }
    const others = new Set(explored.map((id) => orderBySuccessRate(route, id, t0, exploring).providers[0]));
    expect(others).toEqual(new Set(['REDE', 'STONE']));
  });

  it('never explores at 0 %', () => {
    expect(chargeIds(500).some((id) => orderBySuccessRate(route, id, t0, settings).explored)).toBe(false);
  });

  it('draws from the charge id and the purpose', () => {
    expect(draw('Charge-A', 'explore')).toBe(draw('charge-a', 'explore'));
    expect(chargeIds(50).some((id) => draw(id, 'explore') !== draw(id, 'probe:CIELO'))).toBe(true);
  });
});

describe('success rate: elimination and probing', () => {
  const failing = (n: number, before: ProviderOutcomes = EMPTY_OUTCOMES, from = 0) => {
    let o = before;
    for (let i = 0; i < n; i += 1) o = appendOutcomes(o, 't', at(from + i), settings);
    return o;
  };

  it('takes a provider out when half of its last 20 attempts failed technically, from the attempt that crossed it', () => {
    const nine = failing(9, appendOutcomes(EMPTY_OUTCOMES, 'a'.repeat(11), t0, settings));
    expect(nine.trippedAt).toBeNull();
    expect(eliminationOf(nine, at(10), settings)).toBe('in');
    const ten = appendOutcomes(nine, 't', at(5000), settings);
    expect(ten.trippedAt).toEqual(at(5000));
    expect(appendOutcomes(ten, 't', at(9000), settings).trippedAt).toEqual(at(5000));
  });

  it('keeps it last while it cools down, then probes it first for one charge in probeEvery, until its window recovers', () => {
    const down = failing(20);
    const healthy = outcomes('a'.repeat(50));
    const route = [entry('CIELO', down), entry('REDE', healthy)];
    const ids = chargeIds(1000);

    // Taken out at the tenth failure (t0 + 9 ms): cooling down until t0 + 60,009 ms.
    const cooling = orderBySuccessRate(route, ids[0]!, at(60_008), settings);
    expect(cooling.providers).toEqual(['REDE', 'CIELO']);
    expect(cooling.description).toBe('success rate: REDE 100% of 50, CIELO 100% of 0; CIELO cooling down after 20 technical failures of 20');
    expect(ids.every((id) => orderBySuccessRate(route, id, at(60_008), settings).providers[0] === 'REDE')).toBe(true);

    const probedFirst = ids.filter((id) => orderBySuccessRate(route, id, at(70_000), settings).providers[0] === 'CIELO');
    expect(probedFirst.length).toBeGreaterThan(70);
    expect(probedFirst.length).toBeLessThan(130);
    expect(orderBySuccessRate(route, probedFirst[0]!, at(70_000), settings).description).toContain('CIELO probed first after 20 technical failures of 20');

    let recovering = down;
    for (let i = 0; i < 10; i += 1) recovering = appendOutcomes(recovering, 'a', at(71_000 + i), settings);
    expect(eliminationOf(recovering, at(71_100), settings)).toBe('probing');
    recovering = appendOutcomes(recovering, 'a', at(71_200), settings);
    expect(recovering.trippedAt).toBeNull();
    expect(eliminationOf(recovering, at(71_300), settings)).toBe('in');
  });

  it('starts another cool-down when it fails technically after the cool-down (a failed probe)', () => {
    const down = failing(20);
    expect(down.trippedAt).toEqual(at(9));
    expect(appendOutcomes(down, 't', at(60_008), settings).trippedAt).toEqual(at(9));
    const reprobe = appendOutcomes(down, 't', at(60_009), settings);
    expect(reprobe.trippedAt).toEqual(at(60_009));
    expect(eliminationOf(reprobe, at(120_008), settings)).toBe('cooling_down');
    expect(eliminationOf(reprobe, at(120_009), settings)).toBe('probing');
    expect(appendOutcomes(down, 'a', at(70_000), settings).trippedAt).toEqual(at(9));
  });

  it('still tries every provider when all of them are taken out', () => {
    const route = [entry('CIELO', failing(20)), entry('REDE', failing(20))];
    expect(orderBySuccessRate(route, 'charge-1', at(1000), settings).providers).toEqual(['CIELO', 'REDE']);
  });

  it('counts elimination with the configured window and share', () => {
    const strict = { ...settings, eliminationWindow: 10, eliminationPercent: 30 };
    const o = appendOutcomes(EMPTY_OUTCOMES, 'aaaaaaattt', t0, strict);
    expect(o.trippedAt).toEqual(t0);
    expect(eliminationOf(o, at(strict.cooldownMs - 1), strict)).toBe('cooling_down');
    expect(eliminationOf(o, at(strict.cooldownMs), strict)).toBe('probing');
  });
});

describe('success rate: routes and settings', () => {
  const p = (id: string, priority: number) => ({ id, priority });
  const facts = { chargeId: 'c1', amount: 100, currency: 'BRL', installments: 1 };

  it('a flow rule or split branch carries its mode, a branch inheriting its rule mode; priority otherwise', () => {
    const flow: RoutingFlow = {
      rules: [
        { when: { amountGte: 1000 }, route: ['a', 'b'], mode: 'success_rate' },
        { when: { amountGte: 500 }, mode: 'success_rate', split: [{ percentage: 50, route: ['a'] }, { percentage: 50, route: ['b'] }] },
        { when: { amountGte: 200 }, split: [{ percentage: 50, route: ['a'], mode: 'success_rate' }, { percentage: 50, route: ['b'], mode: 'success_rate' }] },
      ],
      defaultRoute: ['b', 'a'],
    };
    const providers = [p('a', 1), p('b', 2)];
    expect(routeProviders(providers, flow, { ...facts, amount: 2000 }).mode).toBe('success_rate');
    expect(routeProviders(providers, flow, { ...facts, amount: 600 }).mode).toBe('success_rate');
    expect(routeProviders(providers, flow, { ...facts, amount: 300 }).mode).toBe('success_rate');
    expect(routeProviders(providers, flow, facts).mode).toBe('priority');
    expect(routeProviders(providers, { rules: [{ route: ['a'] }], defaultRoute: ['a'] }, facts).mode).toBe('priority');
  });

  it('reads its settings from the ROUTING_ variables, with their defaults', () => {
    expect(successRateSettingsOf({})).toEqual(DEFAULT_SUCCESS_RATE_SETTINGS);
    expect(successRateSettingsOf({ ROUTING_COOLDOWN_SECONDS: '5', ROUTING_PROBE_EVERY: '3', ROUTING_EXPLORE_PERCENT: '0' })).toMatchObject({ cooldownMs: 5000, probeEvery: 3, explorePercent: 0 });
  });
});
