import { issuerCountryOf } from '../../src/modules/charges/domain/issuerCountry';
import {
  routeProviders,
  routingMetadataOf,
  ruleMatches,
  splitBranchOf,
  splitBucket,
  SPLIT_BUCKETS,
  type RoutingCondition,
  type RoutingFacts,
  type RoutingFlow,
} from '../../src/modules/charges/domain/routing';

const provider = (id: string, priority: number) => ({ id, priority });
const a = provider('00000000-0000-4000-8000-00000000000a', 1);
const b = provider('00000000-0000-4000-8000-00000000000b', 2);
const c = provider('00000000-0000-4000-8000-00000000000c', 3);
const ids = (route: { providers: Array<{ id: string }> }) => route.providers.map((p) => p.id);

/** A Brazilian Visa BIN (Banco do Brasil) and an American Amex BIN, as the offline table lists them. */
const BR_BIN = '400163';
const US_BIN = '341142';

const facts: RoutingFacts = {
  chargeId: '8d3f6f62-93a4-4c4e-9d36-0f1c8f8f2f10',
  amount: 5_000,
  currency: 'BRL',
  installments: 3,
  paymentType: 'credit',
  cardBrand: 'visa',
  first6: BR_BIN,
  metadata: { segment: 'vip', 'seller.tier': 'gold' },
};

/** Deterministic charge ids: the n-th UUID of a fixed sequence. */
const chargeIdAt = (n: number) => `5f0c2e1a-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;

describe('routing rules: conditions', () => {
  it('matches installments within installmentsGte and installmentsLte, both inclusive', () => {
    const when: RoutingCondition = { installmentsGte: 2, installmentsLte: 6 };
    expect(ruleMatches(when, { ...facts, installments: 2 })).toBe(true);
    expect(ruleMatches(when, { ...facts, installments: 6 })).toBe(true);
    expect(ruleMatches(when, { ...facts, installments: 1 })).toBe(false);
    expect(ruleMatches(when, { ...facts, installments: 7 })).toBe(false);
  });

  it('matches the payment type, ignoring case, and never a charge whose type is not known', () => {
    expect(ruleMatches({ paymentType: 'credit' }, facts)).toBe(true);
    expect(ruleMatches({ paymentType: 'CREDIT' }, facts)).toBe(true);
    expect(ruleMatches({ paymentType: 'debit' }, facts)).toBe(false);
    expect(ruleMatches({ paymentType: 'credit' }, { amount: 1, currency: 'BRL', installments: 1 })).toBe(false);
  });

  it('matches BIN ranges on the first six digits, both ends included, and never a payment without a card', () => {
    const when: RoutingCondition = { binRanges: [{ from: '400000', to: '499999' }] };
    expect(ruleMatches(when, { ...facts, first6: '400000' })).toBe(true);
    expect(ruleMatches(when, { ...facts, first6: '499999' })).toBe(true);
    expect(ruleMatches(when, { ...facts, first6: '399999' })).toBe(false);
    expect(ruleMatches(when, { ...facts, first6: '500000' })).toBe(false);
    expect(ruleMatches({ binRanges: [{ from: '510000', to: '519999' }, { from: '400100', to: '400199' }] }, facts)).toBe(true);
    const { first6: _none, ...withoutCard } = facts;
    expect(ruleMatches(when, withoutCard)).toBe(false);
  });

  it('derives the issuer country from the BIN in the offline table', () => {
    expect(issuerCountryOf(BR_BIN)).toBe('BR');
    expect(issuerCountryOf(US_BIN)).toBe('US');
    expect(issuerCountryOf('000001')).toBeUndefined();
    expect(issuerCountryOf('4001')).toBeUndefined();
    expect(issuerCountryOf(undefined)).toBeUndefined();
  });

  it('matches the issuer country, and never a BIN whose country is not known', () => {
    expect(ruleMatches({ issuerCountry: ['BR'] }, facts)).toBe(true);
    expect(ruleMatches({ issuerCountry: ['US', 'br'] }, facts)).toBe(true);
    expect(ruleMatches({ issuerCountry: ['BR'] }, { ...facts, first6: US_BIN })).toBe(false);
    expect(ruleMatches({ issuerCountry: ['BR'] }, { ...facts, first6: '000001' })).toBe(false);
    expect(ruleMatches({ issuerCountry: ['AR'] }, facts, () => 'AR')).toBe(true);
  });

  it('matches metadata keys equal to a value or in a list of values, every key given', () => {
    expect(ruleMatches({ metadata: { segment: ['vip'] } }, facts)).toBe(true);
    expect(ruleMatches({ metadata: { segment: ['new', 'vip'] } }, facts)).toBe(true);
    expect(ruleMatches({ metadata: { segment: ['new'] } }, facts)).toBe(false);
    expect(ruleMatches({ metadata: { segment: ['vip'], 'seller.tier': ['gold'] } }, facts)).toBe(true);
    expect(ruleMatches({ metadata: { segment: ['vip'], 'seller.tier': ['silver'] } }, facts)).toBe(false);
    expect(ruleMatches({ metadata: { channel: ['app'] } }, facts)).toBe(false);
    const { metadata: _none, ...withoutMetadata } = facts;
    expect(ruleMatches({ metadata: { segment: ['vip'] } }, withoutMetadata)).toBe(false);
  });

  it("reads a charge's paymentFlow.metadata by dotted path, scalars as text, at most four levels down", () => {
    expect(
      routingMetadataOf({
        metadata: { segment: 'vip', seller: { tier: 'gold', since: 2019, a: { b: { c: 'deep', d: { e: 'too deep' } } } }, tags: ['x'], beta: true, none: null },
        other: 'ignored',
      }),
    ).toEqual({ segment: 'vip', 'seller.tier': 'gold', 'seller.since': '2019', 'seller.a.b.c': 'deep', beta: 'true' });
    expect(routingMetadataOf(undefined)).toEqual({});
    expect(routingMetadataOf({ metadata: ['x'] })).toEqual({});
  });

  it('holds an all group when each condition does, and an any group when one does', () => {
    const brOrAmex: RoutingCondition = { any: [{ issuerCountry: ['BR'] }, { cardBrand: 'amex' }] };
    expect(ruleMatches(brOrAmex, facts)).toBe(true);
    expect(ruleMatches(brOrAmex, { ...facts, first6: US_BIN })).toBe(false);
    expect(ruleMatches(brOrAmex, { ...facts, first6: US_BIN, cardBrand: 'amex' })).toBe(true);
    const bigAndInstallments: RoutingCondition = { all: [{ amountGte: 1_000 }, { installmentsGte: 2 }] };
    expect(ruleMatches(bigAndInstallments, facts)).toBe(true);
    expect(ruleMatches(bigAndInstallments, { ...facts, installments: 1 })).toBe(false);
    expect(ruleMatches(bigAndInstallments, { ...facts, amount: 999 })).toBe(false);
  });

  it('nests groups: (amount >= 10.00 and (BR issuer or BIN 5xxxxx)) or segment partner', () => {
    const when: RoutingCondition = {
      any: [{ all: [{ amountGte: 1_000 }, { any: [{ issuerCountry: ['BR'] }, { binRanges: [{ from: '500000', to: '599999' }] }] }] }, { metadata: { segment: ['partner'] } }],
    };
    expect(ruleMatches(when, facts)).toBe(true);
    expect(ruleMatches(when, { ...facts, first6: US_BIN })).toBe(false);
    expect(ruleMatches(when, { ...facts, first6: '512345' })).toBe(true);
    expect(ruleMatches(when, { ...facts, amount: 500 })).toBe(false);
    expect(ruleMatches(when, { ...facts, amount: 500, metadata: { segment: 'partner' } })).toBe(true);
  });

  it('combines a group with the conditions beside it: every one must hold', () => {
    const when: RoutingCondition = { currency: 'BRL', any: [{ cardBrand: 'elo' }, { cardBrand: 'visa' }] };
    expect(ruleMatches(when, facts)).toBe(true);
    expect(ruleMatches(when, { ...facts, currency: 'USD' })).toBe(false);
    expect(ruleMatches(when, { ...facts, cardBrand: 'mastercard' })).toBe(false);
  });
});

describe('routing rules: reasons', () => {
  const flow: RoutingFlow = {
    rules: [{ when: { amountGte: 100_000 }, route: [c.id] }, { when: { issuerCountry: ['BR'] }, route: [b.id, a.id] }],
    defaultRoute: [a.id],
  };

  it('names the matching rule by its place, 1 first', () => {
    const route = routeProviders([a, b, c], flow, facts);
    expect(ids(route)).toEqual([b.id, a.id]);
    expect(route).toMatchObject({ reason: 'flow_rule', description: 'flow rule 2', ruleIndex: 1 });
    expect(routeProviders([a, b, c], flow, { ...facts, amount: 100_000 }).description).toBe('flow rule 1');
  });

  it('names the default route, and why when a rule matched but named no active provider', () => {
    expect(routeProviders([a, b, c], flow, { ...facts, first6: US_BIN })).toMatchObject({ reason: 'flow_default', description: 'flow default route' });
    expect(routeProviders([a, b], flow, { ...facts, amount: 100_000 })).toMatchObject({
      reason: 'flow_default',
      description: 'flow default route (flow rule 1 named no active provider)',
    });
  });

  it('names priority without a flow', () => {
    expect(routeProviders([a, b, c], undefined, facts)).toMatchObject({ reason: 'priority', description: 'priority' });
  });

  it("carries the rule's antifraud entry", () => {
    const withAntifraud: RoutingFlow = { rules: [{ when: {}, route: [a.id], antifraudProviderId: 'af-1' }], defaultRoute: [a.id] };
    expect(routeProviders([a, b], withAntifraud, facts).antifraudProviderId).toBe('af-1');
    expect(routeProviders([a, b], flow, facts).antifraudProviderId).toBeUndefined();
  });
});

describe('routing rules: split of the volume', () => {
  const split: RoutingFlow = {
    rules: [
      {
        when: { currency: 'BRL' },
        split: [
          { percentage: 70, route: [a.id, c.id], antifraudProviderId: 'af-70' },
          { percentage: 30, route: [b.id] },
        ],
        antifraudProviderId: 'af-rule',
      },
    ],
    defaultRoute: [c.id],
  };

  it('sends the same charge id to the same branch every time', () => {
    for (let n = 0; n < 200; n += 1) {
      const chargeId = chargeIdAt(n);
      const first = routeProviders([a, b, c], split, { ...facts, chargeId });
      const again = routeProviders([a, b, c], split, { ...facts, chargeId: chargeId.toUpperCase() });
      expect(again.providers).toEqual(first.providers);
      expect(again.description).toBe(first.description);
    }
  });

  it('spreads buckets over the whole range and keeps them stable', () => {
    expect(splitBucket(chargeIdAt(1))).toBe(splitBucket(chargeIdAt(1)));
    const buckets = Array.from({ length: 1_000 }, (_, n) => splitBucket(chargeIdAt(n)));
    expect(Math.min(...buckets)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...buckets)).toBeLessThan(SPLIT_BUCKETS);
    expect(new Set(buckets.map((x) => Math.floor(x / 1_000))).size).toBe(10);
  });

  it('sends 70 % (within 1.5 points, over 3 standard deviations) of 10,000 charge ids to the 70 % branch', () => {
    const branches = [{ percentage: 70 }, { percentage: 30 }];
    const counts = [0, 0];
    for (let n = 0; n < 10_000; n += 1) counts[splitBranchOf(branches, chargeIdAt(n))]! += 1;
    expect(counts[0]! + counts[1]!).toBe(10_000);
    expect(Math.abs(counts[0]! - 7_000)).toBeLessThanOrEqual(150);
  });

  it('honours each share of a three-way split', () => {
    const branches = [{ percentage: 50 }, { percentage: 25 }, { percentage: 25 }];
    const counts = [0, 0, 0];
    for (let n = 0; n < 10_000; n += 1) counts[splitBranchOf(branches, chargeIdAt(n))]! += 1;
    expect(Math.abs(counts[0]! - 5_000)).toBeLessThanOrEqual(150);
    expect(Math.abs(counts[1]! - 2_500)).toBeLessThanOrEqual(150);
    expect(Math.abs(counts[2]! - 2_500)).toBeLessThanOrEqual(150);
  });

  it('names the branch taken and uses its antifraud entry, else the rule’s', () => {
    const seen = new Map<string, { providers: string[]; antifraud: string | undefined }>();
    for (let n = 0; n < 100; n += 1) {
      const route = routeProviders([a, b, c], split, { ...facts, chargeId: chargeIdAt(n) });
      expect(route.reason).toBe('flow_split');
      seen.set(route.description, { providers: ids(route), antifraud: route.antifraudProviderId });
    }
    expect(Object.fromEntries(seen)).toEqual({
      'flow rule 1, split branch 1 of 2 (70%)': { providers: [a.id, c.id], antifraud: 'af-70' },
      'flow rule 1, split branch 2 of 2 (30%)': { providers: [b.id], antifraud: 'af-rule' },
    });
  });

  it('falls back to the default route when the branch taken names no active provider', () => {
    const gone = '00000000-0000-4000-8000-0000000000ff';
    const stale: RoutingFlow = { rules: [{ when: {}, split: [{ percentage: 50, route: [gone] }, { percentage: 50, route: [gone] }] }], defaultRoute: [c.id] };
    expect(routeProviders([a, b, c], stale, facts)).toMatchObject({ reason: 'flow_default', providers: [c] });
  });
});
