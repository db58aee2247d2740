import {
  byPriority,
  classifyAttempt,
  declinedCodeAfterTechnicalFailures,
  routeProviders,
  ruleMatches,
  type RoutingFacts,
  type RoutingFlow,
} from '../../src/modules/charges/domain/routing';

const provider = (id: string, priority: number) => ({ id, priority });
const a = provider('00000000-0000-4000-8000-00000000000a', 2);
const b = provider('00000000-0000-4000-8000-00000000000b', 1);
const c = provider('00000000-0000-4000-8000-00000000000c', 3);
const facts: RoutingFacts = { amount: 5000, currency: 'BRL', installments: 1, cardBrand: 'visa' };
const ids = (route: { providers: Array<{ id: string }> }) => route.providers.map((p) => p.id);

describe('routing: priority order', () => {
  it('tries providers by priority, 1 first, without a flow', () => {
    const route = routeProviders([a, b, c], undefined, facts);
    expect(ids(route)).toEqual([b.id, a.id, c.id]);
    expect(route.reason).toBe('priority');
  });

  it('keeps the given order between providers of equal priority', () => {
    const x = provider('x', 1);
    const y = provider('y', 1);
    expect(byPriority([y, x]).map((p) => p.id)).toEqual(['y', 'x']);
  });
});

describe('routing: flow rules', () => {
  const flow: RoutingFlow = {
    rules: [
      { when: { cardBrand: 'mastercard' }, route: [c.id] },
      { when: { amountGte: 10_000, amountLte: 20_000 }, route: [a.id, c.id] },
      { when: { installmentsGte: 6, currency: 'brl' }, route: [c.id, b.id] },
    ],
    defaultRoute: [a.id],
  };

  it('routes by the first matching rule', () => {
    expect(ids(routeProviders([a, b, c], flow, { ...facts, cardBrand: 'Mastercard', amount: 15_000 }))).toEqual([c.id]);
    const byAmount = routeProviders([a, b, c], flow, { ...facts, amount: 15_000 });
    expect(ids(byAmount)).toEqual([a.id, c.id]);
    expect(byAmount).toMatchObject({ reason: 'flow_rule', ruleIndex: 1 });
  });

  it('takes amount bounds as inclusive', () => {
    expect(ruleMatches({ amountGte: 10_000, amountLte: 20_000 }, { ...facts, amount: 10_000 })).toBe(true);
    expect(ruleMatches({ amountGte: 10_000, amountLte: 20_000 }, { ...facts, amount: 20_000 })).toBe(true);
    expect(ruleMatches({ amountGte: 10_000, amountLte: 20_000 }, { ...facts, amount: 9_999 })).toBe(false);
    expect(ruleMatches({ amountGte: 10_000, amountLte: 20_000 }, { ...facts, amount: 20_001 })).toBe(false);
  });

  it('matches installments and currency, ignoring case of the currency', () => {
    expect(ids(routeProviders([a, b, c], flow, { ...facts, installments: 6 }))).toEqual([c.id, b.id]);
    expect(ruleMatches({ installmentsGte: 6 }, { ...facts, installments: 5 })).toBe(false);
    expect(ruleMatches({ currency: 'usd' }, facts)).toBe(false);
  });

  it('never matches a brand rule for a payment without a card', () => {
    expect(ruleMatches({ cardBrand: 'visa' }, { amount: 100, currency: 'BRL', installments: 1 })).toBe(false);
    expect(ruleMatches({}, { amount: 100, currency: 'BRL', installments: 1 })).toBe(true);
  });

  it('takes the default route when no rule matches', () => {
    const route = routeProviders([a, b, c], flow, facts);
    expect(ids(route)).toEqual([a.id]);
    expect(route.reason).toBe('flow_default');
  });

  it('skips providers a route names that are no longer active, and falls back when none is left', () => {
    const gone = '00000000-0000-4000-8000-0000000000ff';
    const stale: RoutingFlow = { rules: [{ when: {}, route: [gone, b.id] }], defaultRoute: [gone] };
    expect(ids(routeProviders([a, b, c], stale, facts))).toEqual([b.id]);
    const empty: RoutingFlow = { rules: [{ when: {}, route: [gone] }], defaultRoute: [gone] };
    const fallback = routeProviders([a, b, c], empty, facts);
    expect(fallback.reason).toBe('priority');
    expect(ids(fallback)).toEqual([b.id, a.id, c.id]);
  });

  it('compares provider ids without regard to case', () => {
    const upper: RoutingFlow = { rules: [], defaultRoute: [c.id.toUpperCase()] };
    expect(ids(routeProviders([a, b, c], upper, facts))).toEqual([c.id]);
  });
});

describe('routing: failover classification', () => {
  it.each([
    [{ kind: 'unknown' } as const, 'unknown'],
    [{ kind: 'unavailable' } as const, 'technical'],
    [{ kind: 'declined', declinedCode: 'try_again' } as const, 'soft_decline'],
    [{ kind: 'declined', declinedCode: 'issuer_not_available' } as const, 'soft_decline'],
    [{ kind: 'declined', declinedCode: 'insufficient_funds' } as const, 'final'],
    [{ kind: 'declined', declinedCode: 'restricted_card' } as const, 'final'],
    [{ kind: 'declined', declinedCode: 'fraud_suspect' } as const, 'final'],
    [{ kind: 'authorized' } as const, 'final'],
    [{ kind: 'pending' } as const, 'final'],
    [{ kind: 'canceled' } as const, 'final'],
  ])('%j is %s', (outcome, expected) => {
    expect(classifyAttempt(outcome)).toBe(expected);
  });

  it('fails a charge every provider failed technically with try_again, or the issuer code the last one gave', () => {
    expect(declinedCodeAfterTechnicalFailures({ kind: 'unknown' })).toBe('try_again');
    expect(declinedCodeAfterTechnicalFailures({ kind: 'unavailable' })).toBe('try_again');
    expect(declinedCodeAfterTechnicalFailures({ kind: 'declined', declinedCode: 'try_again' })).toBe('try_again');
    expect(declinedCodeAfterTechnicalFailures({ kind: 'declined', declinedCode: 'issuer_not_available' })).toBe('issuer_not_available');
    expect(declinedCodeAfterTechnicalFailures(undefined)).toBe('try_again');
  });
});
