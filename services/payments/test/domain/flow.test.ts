import { AppError } from '@platform/kit';
import { assertRoutesUseProviders, parseFlowDefinition, type FlowInput } from '../../src/modules/flows/domain/flow';

const A = '0b6f1c1e-9a4b-4c1e-8d3a-2f6f0c9b1a2d';
const B = '1c7a2d2f-8b5c-4d2f-9e4b-3a7a1d0c2b3e';
const C = '2d8b3e3a-7c6d-4e3a-8f5c-4b8b2e1d3c4f';

function input(overrides: Partial<FlowInput> = {}): FlowInput {
  return {
    name: 'Cartões altos',
    paymentMethod: 'credit',
    rules: [{ when: { amountGte: 10_000, cardBrand: 'visa' }, route: [B, A] }],
    defaultRoute: [A],
    ...overrides,
  };
}

function violationsOf(fn: () => unknown): Array<{ field: string; message: string }> {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).kind).toBe('validation');
    return (error as AppError).details ?? [];
  }
  throw new Error('expected a validation error');
}

describe('parseFlowDefinition', () => {
  it('normalises a valid flow and leaves out empty conditions', () => {
    expect(
      parseFlowDefinition(
        input({
          paymentMethod: ' CREDIT ',
          rules: [
            { when: { amountGte: 100, amountLte: 100, cardBrand: 'VISA', installmentsGte: 2, currency: 'brl' }, route: [B.toUpperCase()] },
            { when: { amountLte: undefined }, route: [A] },
          ],
        }),
      ),
    ).toEqual({
      name: 'Cartões altos',
      paymentMethod: 'credit',
      rules: [
        { when: { amountGte: 100, amountLte: 100, cardBrand: 'visa', installmentsGte: 2, currency: 'BRL' }, route: [B] },
        { when: {}, route: [A] },
      ],
      defaultRoute: [A],
    });
  });

  it('takes a flow with no rules and only a default route', () => {
    expect(parseFlowDefinition(input({ rules: [] })).rules).toEqual([]);
  });

  it('names each bad field', () => {
    const fields = violationsOf(() =>
      parseFlowDefinition(
        input({
          paymentMethod: 'cash',
          rules: [
            { when: { amountGte: 500, amountLte: 100 }, route: [A] },
            { when: { cardBrand: 'discover', installmentsGte: 0, currency: 'REAL' }, route: [] },
            { when: { amountGte: -1 }, route: [A, B, A] },
          ],
          defaultRoute: [],
        }),
      ),
    ).map((v) => v.field);
    expect(fields.sort()).toEqual([
      'defaultRoute',
      'paymentMethod',
      'rules.0.when.amountLte',
      'rules.1.route',
      'rules.1.when.cardBrand',
      'rules.1.when.currency',
      'rules.1.when.installmentsGte',
      'rules.2.route.2',
      'rules.2.when.amountGte',
    ]);
  });
});

describe('assertRoutesUseProviders', () => {
  it('accepts routes that name providers of the merchant', () => {
    expect(() => assertRoutesUseProviders(parseFlowDefinition(input()), new Set([A, B]))).not.toThrow();
  });

  it('names every route entry that is not an active payment provider', () => {
    const flow = parseFlowDefinition(input({ rules: [{ when: {}, route: [A, C] }, { when: {}, route: ['not-an-id'] }], defaultRoute: [C, A] }));
    expect(violationsOf(() => assertRoutesUseProviders(flow, new Set([A, B])))).toEqual([
      { field: 'rules.0.route.1', message: 'is not an active payment provider of this merchant' },
      { field: 'rules.1.route.0', message: 'is not an active payment provider of this merchant' },
      { field: 'defaultRoute.0', message: 'is not an active payment provider of this merchant' },
    ]);
  });
});

describe('parseFlowDefinition: route mode', () => {
  it('keeps a rule or split branch mode, normalised, and leaves it out when not given', () => {
    const flow = parseFlowDefinition(
      input({
        rules: [
          { when: {}, route: [A, B], mode: ' SUCCESS_RATE ' },
          { when: {}, split: [{ percentage: 60, route: [A], mode: 'priority' }, { percentage: 40, route: [B, C], mode: 'success_rate' }] },
          { when: {}, route: [C] },
        ],
      }),
    );
    expect(flow.rules[0]).toEqual({ when: {}, route: [A, B], mode: 'success_rate' });
    expect(flow.rules[1]!.split).toEqual([
      { percentage: 60, route: [A], mode: 'priority' },
      { percentage: 40, route: [B, C], mode: 'success_rate' },
    ]);
    expect(flow.rules[2]).toEqual({ when: {}, route: [C] });
  });

  it('refuses an unknown mode on a rule or a branch, by its path', () => {
    expect(
      violationsOf(() =>
        parseFlowDefinition(
          input({ rules: [{ route: [A], mode: 'fastest' }, { split: [{ percentage: 50, route: [A] }, { percentage: 50, route: [B], mode: 'random' }] }] }),
        ),
      ),
    ).toEqual([
      { field: 'rules.0.mode', message: 'must be one of priority, success_rate' },
      { field: 'rules.1.split.1.mode', message: 'must be one of priority, success_rate' },
    ]);
  });
});
