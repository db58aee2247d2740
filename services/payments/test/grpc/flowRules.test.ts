import { randomUUID } from 'node:crypto';
import type { payments } from '@platform/contracts';
import { chargeRoutes } from '../../src/modules/charges/app/metrics';
import { splitBranchOf } from '../../src/modules/charges/domain/routing';
import { cardCharge, cardNumberEnding, createMerchant, failureOf, paymentMethod, pixCharge, providerIdOf, startCharges, type RunningCharges } from '../support/charges';

let running: RunningCharges;

beforeAll(async () => {
  running = await startCharges();
});

afterAll(async () => {
  await running.stop();
});

/** BINs the offline issuer table places in Brazil (Banco do Brasil, Visa) and in the United States (Visa). */
const BR_VISA = '400163';
const US_VISA = '400022';

async function merchantWithProviders(clientId: string): Promise<{ merchant: payments.Merchant; first: string; second: string; third: string; af1: string; af2: string }> {
  const merchant = await createMerchant(running.client, clientId, [
    { name: 'first', priority: 1 },
    { name: 'second', priority: 2 },
    { name: 'third', priority: 3 },
    { name: 'af1', priority: 4, type: 'SANDBOX_ANTIFRAUD' },
    { name: 'af2', priority: 5, type: 'SANDBOX_ANTIFRAUD' },
  ]);
  const id = (name: string) => providerIdOf(merchant, name);
  return { merchant, first: id('first'), second: id('second'), third: id('third'), af1: id('af1'), af2: id('af2') };
}

/** charge_routes_total by reason, as the service counted so far in this process. */
async function routesCounted(): Promise<Record<string, number>> {
  const { values } = await chargeRoutes.get();
  return Object.fromEntries(values.map((v) => [String(v.labels.reason), v.value]));
}

const reasons = (charge: payments.Charge) => charge.transactionRequests.filter((r) => r.requestType === 'authorization').map((r) => r.routingReason);

describe('CreateFlow: the rule conditions', () => {
  it('keeps every condition, nested groups and a split with its antifraud entries, and reads them back', async () => {
    const clientId = randomUUID();
    const { merchant, first, second, third, af2 } = await merchantWithProviders(clientId);
    const flow = await running.client.createFlow({
      clientId,
      merchantId: merchant.id,
      name: 'rules',
      paymentMethod: 'credit',
      rules: [
        {
          when: {
            metadata: { entries: { segment: { values: ['vip', 'gold'] }, 'seller.tier': { values: ['1'] } } },
            binRanges: { ranges: [{ from: '400000', to: '499999' }] },
            issuerCountry: { values: ['br'] },
            paymentType: 'CREDIT',
            installmentsGte: 2,
            installmentsLte: 6,
            any: { conditions: [{ amountGte: 1_000 }, { all: { conditions: [{ currency: 'usd' }, { cardBrand: 'Visa' }] } }] },
          },
          route: [third.toUpperCase()],
        },
        { when: {}, route: [], split: { branches: [{ percentage: 70, route: [first], antifraudProviderId: af2 }, { percentage: 30, route: [second] }] } },
      ],
      defaultRoute: [first],
    });
    expect(flow.rules).toEqual([
      {
        when: {
          metadata: { entries: { segment: { values: ['vip', 'gold'] }, 'seller.tier': { values: ['1'] } } },
          binRanges: { ranges: [{ from: '400000', to: '499999' }] },
          issuerCountry: { values: ['BR'] },
          paymentType: 'credit',
          installmentsGte: 2,
          installmentsLte: 6,
          any: { conditions: [{ amountGte: 1_000 }, { all: { conditions: [{ currency: 'USD' }, { cardBrand: 'visa' }] } }] },
        },
        route: [third],
      },
      { when: {}, route: [], split: { branches: [{ percentage: 70, route: [first], antifraudProviderId: af2 }, { percentage: 30, route: [second] }] } },
    ]);
    expect(await running.client.getFlow({ clientId, id: flow.id })).toEqual(flow);
  });

  it('names each broken field of the conditions and of a split', async () => {
    const clientId = randomUUID();
    const { merchant, first } = await merchantWithProviders(clientId);
    const error = await failureOf(
      running.client.createFlow({
        clientId,
        merchantId: merchant.id,
        name: 'broken',
        paymentMethod: 'credit',
        rules: [
          {
            when: {
              metadata: { entries: { 'bad key': { values: ['red'] }, segment: { values: [] } } },
              binRanges: { ranges: [{ from: '4000', to: '499999' }, { from: '500000', to: '400000' }] },
              issuerCountry: { values: ['BRA'] },
              paymentType: 'cash',
              installmentsGte: 6,
              installmentsLte: 2,
              all: { conditions: [] },
              any: { conditions: [{ amountGte: -1 }] },
            },
            route: [],
          },
          { when: {}, route: [first], split: { branches: [{ percentage: 70, route: [first] }, { percentage: 20, route: [] }] } },
          { when: {}, route: [] },
        ],
        defaultRoute: [first],
      }),
    );
    expect(error.kind).toBe('validation');
    expect(new Map((error.details ?? []).map((d) => [d.field, d.message]))).toEqual(
      new Map([
        ['rules.0.when.metadata.bad key', 'must be a key of paymentFlow.metadata (letters, digits, _ or -), or a dotted path of at most 4 keys'],
        ['rules.0.when.metadata.segment', 'must list at least one value'],
        ['rules.0.when.binRanges.0.from', 'must be six digits'],
        ['rules.0.when.binRanges.1.to', 'must not be below from'],
        ['rules.0.when.issuerCountry.0', 'must be an ISO 3166-1 alpha-2 code'],
        ['rules.0.when.paymentType', 'must be one of credit, debit, pix, boleto, voucher'],
        ['rules.0.when.installmentsLte', 'must not be below installmentsGte'],
        ['rules.0.when.all', 'must list at least one condition'],
        ['rules.0.when.any.0.amountGte', 'must be at least 0'],
        ['rules.0.route', 'must name at least one provider, or the rule must split'],
        ['rules.1.route', 'must be empty when the rule splits its volume'],
        ['rules.1.split', 'percentages must add up to 100, not 90'],
        ['rules.1.split.1.route', 'must name at least one provider'],
        ['rules.2.route', 'must name at least one provider, or the rule must split'],
      ]),
    );
  });

  it('checks bounds against each other, and a route against a split', async () => {
    const clientId = randomUUID();
    const { merchant, first } = await merchantWithProviders(clientId);
    const error = await failureOf(
      running.client.createFlow({
        clientId,
        merchantId: merchant.id,
        name: '',
        paymentMethod: 'credit',
        rules: [
          { when: { installmentsGte: 6, installmentsLte: 2, amountGte: 200, amountLte: 100 }, route: [first] },
          { when: { issuerCountry: { values: ['BR'] } }, route: [] },
        ],
        defaultRoute: [first],
      }),
    );
    expect(error.details).toEqual([
      { field: 'rules.0.when.amountLte', message: 'must not be below amountGte' },
      { field: 'rules.0.when.installmentsLte', message: 'must not be below installmentsGte' },
      { field: 'rules.1.route', message: 'must name at least one provider, or the rule must split' },
    ]);
  });

  it('refuses groups nested deeper than four levels', async () => {
    const clientId = randomUUID();
    const { merchant, first } = await merchantWithProviders(clientId);
    const nest = (depth: number): payments.FlowCondition => (depth === 0 ? { amountGte: 1 } : { any: { conditions: [nest(depth - 1)] } });
    await expect(
      running.client.createFlow({ clientId, merchantId: merchant.id, name: '', paymentMethod: 'credit', rules: [{ when: nest(4), route: [first] }], defaultRoute: [first] }),
    ).resolves.toMatchObject({ rules: [{ route: [first] }] });
    const error = await failureOf(
      running.client.createFlow({ clientId, merchantId: merchant.id, name: '', paymentMethod: 'debit', rules: [{ when: nest(5), route: [first] }], defaultRoute: [first] }),
    );
    expect(error.details).toEqual([{ field: 'rules.0.when.any.0.any.0.any.0.any.0.any', message: 'must not nest more than 4 groups deep' }]);
  });

  it('refuses an antifraud entry that is not one of the merchant’s antifraud providers, naming where', async () => {
    const clientId = randomUUID();
    const { merchant, first, second, af1 } = await merchantWithProviders(clientId);
    const error = await failureOf(
      running.client.createFlow({
        clientId,
        merchantId: merchant.id,
        name: '',
        paymentMethod: 'credit',
        rules: [
          { when: {}, route: [first], antifraudProviderId: second },
          { when: {}, route: [], split: { branches: [{ percentage: 50, route: [af1] }, { percentage: 50, route: [second], antifraudProviderId: randomUUID() }] } },
        ],
        defaultRoute: [first],
      }),
    );
    expect(error.kind).toBe('validation');
    expect(error.details).toEqual([
      { field: 'rules.0.antifraudProviderId', message: 'is not an antifraud provider of this merchant' },
      { field: 'rules.1.split.0.route.0', message: 'is not an active payment provider of this merchant' },
      { field: 'rules.1.split.1.antifraudProviderId', message: 'is not an antifraud provider of this merchant' },
    ]);
  });
});

describe('CreateCharge: routed by the rule conditions', () => {
  it('routes by metadata, BIN range, issuer country, installments and an any group, and records the reason of each attempt', async () => {
    const clientId = randomUUID();
    const { merchant, first, second, third } = await merchantWithProviders(clientId);
    await running.client.createFlow({
      clientId,
      merchantId: merchant.id,
      name: 'conditions',
      paymentMethod: 'credit',
      rules: [
        { when: { metadata: { entries: { segment: { values: ['vip', 'gold'] } } } }, route: [third] },
        { when: { binRanges: { ranges: [{ from: '510000', to: '519999' }] } }, route: [second] },
        { when: { issuerCountry: { values: ['US'] } }, route: [third, second] },
        { when: { installmentsGte: 2, installmentsLte: 6 }, route: [second, first] },
        { when: { any: { conditions: [{ amountGte: 500_000 }, { metadata: { entries: { 'seller.tier': { values: ['2'] } } } }] } }, route: [third] },
      ],
      defaultRoute: [first],
    });
    const charge = (number: string, overrides: Partial<payments.CreateChargeRequest> = {}) =>
      running.client.createCharge(cardCharge(clientId, merchant.id, number, overrides));
    const before = await routesCounted();

    const vip = await charge(cardNumberEnding('1', BR_VISA), { paymentFlow: { metadata: { segment: 'gold' } } });
    expect([vip.providerId, reasons(vip)]).toEqual([third, ['flow rule 1']]);

    const bin = await charge(cardNumberEnding('1', '512345'));
    expect([bin.providerId, reasons(bin)]).toEqual([second, ['flow rule 2']]);

    // A technical failure at the first provider of the route: both attempts carry the rule's reason.
    const american = await charge(cardNumberEnding('6', US_VISA));
    expect(american.transactionRequests.map((r) => [r.providerId, r.routingReason])).toEqual([
      [third, 'flow rule 3'],
      [second, 'flow rule 3'],
    ]);

    const installments = await charge(cardNumberEnding('1', BR_VISA), { paymentMethod: paymentMethod({ installments: 3 }) });
    expect([installments.providerId, reasons(installments)]).toEqual([second, ['flow rule 4']]);

    const tier = await charge(cardNumberEnding('1', BR_VISA), { paymentFlow: { metadata: { segment: 'new', seller: { tier: 2 } } } });
    expect([tier.providerId, reasons(tier)]).toEqual([third, ['flow rule 5']]);

    const plain = await charge(cardNumberEnding('1', BR_VISA));
    expect([plain.providerId, reasons(plain)]).toEqual([first, ['flow default route']]);

    // Read back from the store as answered.
    expect(await running.client.getCharge({ clientId, id: american.id })).toEqual(american);
    const after = await routesCounted();
    expect([(after['flow_rule'] ?? 0) - (before['flow_rule'] ?? 0), (after['flow_default'] ?? 0) - (before['flow_default'] ?? 0)]).toEqual([5, 1]);
  });

  it('records priority for a payment method without a flow', async () => {
    const clientId = randomUUID();
    const { merchant, first } = await merchantWithProviders(clientId);
    const pix = await running.client.createCharge(pixCharge(clientId, merchant.id));
    expect([pix.providerId, reasons(pix)]).toEqual([first, ['priority']]);
  });

  it('splits the volume by charge id, the same key landing on the same branch, each branch with its antifraud entry', async () => {
    const clientId = randomUUID();
    const { merchant, first, second, af1, af2 } = await merchantWithProviders(clientId);
    const branches = [
      { percentage: 50, route: [first] },
      { percentage: 50, route: [second], antifraudProviderId: af2 },
    ];
    await running.client.createFlow({
      clientId,
      merchantId: merchant.id,
      name: 'split',
      paymentMethod: 'credit',
      rules: [{ when: { paymentType: 'credit' }, route: [], split: { branches } }],
      defaultRoute: [first],
    });
    const expected = [
      { providerId: first, reason: 'flow rule 1, split branch 1 of 2 (50%)', antifraud: af1 },
      { providerId: second, reason: 'flow rule 1, split branch 2 of 2 (50%)', antifraud: af2 },
    ];
    const seen = new Set<number>();
    const splitBefore = (await routesCounted())['flow_split'] ?? 0;
    let charges = 0;
    // Each charge is checked against the hash of its id; charges go on until both branches were taken (the
    // chance that 40 charges all take one branch is 2^-39).
    for (let n = 0; n < 40 && seen.size < 2; n += 1) {
      const request = cardCharge(clientId, merchant.id, cardNumberEnding('1', BR_VISA), { fraudAnalysis: { customer: { name: 'Ana Lima', identity: '11122233301' } } });
      const idempotencyKey = randomUUID();
      const charge = await running.client.createCharge(request, { idempotencyKey });
      charges += 1;
      const branch = splitBranchOf(branches, charge.id);
      seen.add(branch);
      expect({ providerId: charge.providerId, reason: reasons(charge)[0], antifraud: charge.antifraud?.providerId }).toEqual(expected[branch]);
      const retried = await running.client.createCharge(request, { idempotencyKey });
      expect([retried.id, reasons(retried)]).toEqual([charge.id, reasons(charge)]);
    }
    expect([...seen].sort()).toEqual([0, 1]);
    // A replay answers the stored charge: only the first request of each key was routed.
    expect(((await routesCounted())['flow_split'] ?? 0) - splitBefore).toBe(charges);
  });
});
