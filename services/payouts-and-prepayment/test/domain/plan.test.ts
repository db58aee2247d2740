import {
  DEFAULT_FEES,
  DEFAULT_PLAN_NAME,
  DEFAULT_PREPAYMENT_MONTHLY_RATE,
  DEFAULT_SETTLEMENT_DAYS,
  defaultPlanValues,
  feeFor,
  feeRuleFor,
  PAYMENT_TYPES,
  parseMonthlyRate,
  parsePlanFees,
  parsePlanName,
  parseSettlementDays,
  type PlanFee,
} from '../../src/domain/plan';
import { appErrorOf, fieldsOf } from './support';

const defaultPlan = { fees: DEFAULT_FEES };

describe('the default plan', () => {
  it('has the house fees, settlement days and prepayment rate', () => {
    expect(PAYMENT_TYPES).toEqual(['credit', 'debit', 'pix', 'boleto', 'voucher']);
    expect(DEFAULT_SETTLEMENT_DAYS).toEqual({ credit: 30, debit: 1, pix: 1, boleto: 1, voucher: 30 });
    expect(DEFAULT_PREPAYMENT_MONTHLY_RATE).toBe(199);
    expect(DEFAULT_PLAN_NAME).toBe('Default');
    expect(DEFAULT_FEES.map((f) => [f.paymentType, f.installmentsFrom, f.installmentsTo, f.percentage, f.fixedAmount])).toEqual([
      ['credit', 1, 1, 299, 0],
      ['credit', 2, 6, 349, 0],
      ['credit', 7, 12, 399, 0],
      ['credit', 13, 18, 449, 0],
      ['credit', 19, 24, 499, 0],
      ['debit', 1, 1, 199, 0],
      ['pix', 1, 1, 99, 0],
      ['boleto', 1, 1, 0, 349],
      ['voucher', 1, 1, 499, 0],
    ]);
    // the defaults pass the plan rules themselves
    expect(parsePlanFees([...DEFAULT_FEES])).toEqual(DEFAULT_FEES);
  });

  it('is frozen; defaultPlanValues gives a copy to build a plan from', () => {
    expect(Object.isFrozen(DEFAULT_FEES)).toBe(true);
    expect(Object.isFrozen(DEFAULT_FEES[0])).toBe(true);
    expect(Object.isFrozen(DEFAULT_SETTLEMENT_DAYS)).toBe(true);
    const values = defaultPlanValues();
    values.fees[0]!.percentage = 1;
    values.settlementDays.credit = 2;
    expect(DEFAULT_FEES[0]!.percentage).toBe(299);
    expect(DEFAULT_SETTLEMENT_DAYS.credit).toBe(30);
    expect(values).toMatchObject({ name: 'Default', isDefault: true, prepaymentMonthlyRate: 199 });
  });
});

describe('fees of a plan', () => {
  const fee = (over: Partial<Record<keyof PlanFee, unknown>>): Record<string, unknown> => ({
    paymentType: 'credit',
    installmentsFrom: 1,
    installmentsTo: 1,
    percentage: 299,
    fixedAmount: 0,
    ...over,
  });

  it('accepts valid rules, keeps their order and only the known fields', () => {
    expect(parsePlanFees([fee({ installmentsFrom: 2, installmentsTo: 24, extra: 'x' } as Partial<Record<keyof PlanFee, unknown>>), fee({})])).toEqual([
      { paymentType: 'credit', installmentsFrom: 2, installmentsTo: 24, percentage: 299, fixedAmount: 0 },
      { paymentType: 'credit', installmentsFrom: 1, installmentsTo: 1, percentage: 299, fixedAmount: 0 },
    ]);
    expect(parsePlanFees([])).toEqual([]);
    expect(parsePlanFees([fee({ percentage: 0, fixedAmount: 1_000_000_00 }), fee({ paymentType: 'pix', percentage: 10000 })])).toHaveLength(2);
  });

  it.each([
    [fee({ paymentType: 'cash' }), 'fees.0.paymentType'],
    [fee({ installmentsFrom: 0 }), 'fees.0.installmentsFrom'],
    [fee({ installmentsFrom: 1.5 }), 'fees.0.installmentsFrom'],
    [fee({ installmentsFrom: 3, installmentsTo: 2 }), 'fees.0.installmentsTo'],
    [fee({ installmentsTo: 25 }), 'fees.0.installmentsTo'],
    [fee({ paymentType: 'debit', installmentsTo: 2 }), 'fees.0.installmentsTo'],
    [fee({ percentage: 10001 }), 'fees.0.percentage'],
    [fee({ percentage: -1 }), 'fees.0.percentage'],
    [fee({ percentage: 2.5 }), 'fees.0.percentage'],
    [fee({ percentage: '299' }), 'fees.0.percentage'],
    [fee({ fixedAmount: -1 }), 'fees.0.fixedAmount'],
    [fee({ fixedAmount: 1_000_000_01 }), 'fees.0.fixedAmount'],
    [fee({ fixedAmount: 0.1 }), 'fees.0.fixedAmount'],
    ['credit', 'fees.0'],
    [null, 'fees.0'],
  ])('refuses %j with a detail on %s', (input, field) => {
    expect(fieldsOf(() => parsePlanFees([input]))).toEqual([field]);
  });

  it('allows only 1–1 for payment types paid at once', () => {
    expect(fieldsOf(() => parsePlanFees([fee({ paymentType: 'pix', installmentsFrom: 2, installmentsTo: 2 })]))).toEqual(['fees.0.installmentsFrom', 'fees.0.installmentsTo']);
    expect(fieldsOf(() => parsePlanFees([fee({ paymentType: 'voucher', installmentsTo: 12 })]))).toEqual(['fees.0.installmentsTo']);
  });

  it('names every bad field at once, under the given field name', () => {
    expect(fieldsOf(() => parsePlanFees([fee({}), fee({ paymentType: 'x', percentage: -5, fixedAmount: -1 })], 'plan.fees'))).toEqual([
      'plan.fees.1.paymentType',
      'plan.fees.1.percentage',
      'plan.fees.1.fixedAmount',
    ]);
  });

  it('refuses overlapping ranges of one payment type, naming the later rule', () => {
    const error = appErrorOf(() =>
      parsePlanFees([fee({ installmentsFrom: 1, installmentsTo: 6 }), fee({ paymentType: 'debit' }), fee({ installmentsFrom: 6, installmentsTo: 12 })]),
    );
    expect(error.details).toEqual([{ field: 'fees.2', message: 'overlaps fees.0' }]);
    // adjacent ranges and other payment types do not overlap
    expect(parsePlanFees([fee({ installmentsFrom: 1, installmentsTo: 6 }), fee({ installmentsFrom: 7, installmentsTo: 12 }), fee({ paymentType: 'debit' })])).toHaveLength(3);
    expect(fieldsOf(() => parsePlanFees([fee({ paymentType: 'pix' }), fee({ paymentType: 'pix', percentage: 1 })]))).toEqual(['fees.1']);
  });

  it('finds the rule of a payment type and number of installments', () => {
    expect(feeRuleFor(defaultPlan, 'credit', 1)?.percentage).toBe(299);
    expect(feeRuleFor(defaultPlan, 'credit', 2)?.percentage).toBe(349);
    expect(feeRuleFor(defaultPlan, 'credit', 6)?.percentage).toBe(349);
    expect(feeRuleFor(defaultPlan, 'credit', 7)?.percentage).toBe(399);
    expect(feeRuleFor(defaultPlan, 'credit', 12)?.percentage).toBe(399);
    expect(feeRuleFor(defaultPlan, 'credit', 13)?.percentage).toBe(449);
    expect(feeRuleFor(defaultPlan, 'credit', 24)?.percentage).toBe(499);
    expect(feeRuleFor(defaultPlan, 'credit', 25)).toBeUndefined();
    expect(feeRuleFor(defaultPlan, 'boleto', 1)?.fixedAmount).toBe(349);
    expect(feeRuleFor({ fees: [] }, 'pix', 1)).toBeUndefined();
  });

  it('computes floor(gross × percentage / 10000) + fixed, never above the gross', () => {
    expect(feeFor(defaultPlan, 'credit', 3, 7000)).toBe(244); // 244.3
    expect(feeFor(defaultPlan, 'credit', 3, 3000)).toBe(104); // 104.7
    expect(feeFor(defaultPlan, 'credit', 1, 10000)).toBe(299);
    expect(feeFor(defaultPlan, 'credit', 12, 10000)).toBe(399);
    expect(feeFor(defaultPlan, 'debit', 1, 10000)).toBe(199);
    expect(feeFor(defaultPlan, 'pix', 1, 101)).toBe(0); // 0.9999
    expect(feeFor(defaultPlan, 'boleto', 1, 10000)).toBe(349);
    expect(feeFor(defaultPlan, 'boleto', 1, 300)).toBe(300); // the fixed 349 is capped at the gross
    expect(feeFor(defaultPlan, 'voucher', 1, 0)).toBe(0);
    expect(feeFor(defaultPlan, 'credit', 13, 10000)).toBe(449);
    expect(() => feeFor(defaultPlan, 'credit', 25, 10000)).toThrow('no fee of the plan covers credit in 25 installments'); // no rule: never 0
    expect(feeFor({ fees: [{ paymentType: 'pix', installmentsFrom: 1, installmentsTo: 1, percentage: 150, fixedAmount: 25 }] }, 'pix', 1, 1000)).toBe(40);
  });

  it('stays exact when gross × percentage passes 2^53', () => {
    const gross = Number.MAX_SAFE_INTEGER;
    expect(feeFor(defaultPlan, 'credit', 1, gross)).toBe(Number((BigInt(gross) * 299n) / 10000n));
  });
});

describe('settlement days, monthly rate and name', () => {
  it('replaces only the given settlement days', () => {
    expect(parseSettlementDays({ credit: 2, pix: 0, debit: undefined }, DEFAULT_SETTLEMENT_DAYS)).toEqual({ credit: 2, debit: 1, pix: 0, boleto: 1, voucher: 30 });
    expect(parseSettlementDays({}, DEFAULT_SETTLEMENT_DAYS)).toEqual(DEFAULT_SETTLEMENT_DAYS);
    expect(parseSettlementDays({ voucher: 365 }, DEFAULT_SETTLEMENT_DAYS).voucher).toBe(365);
  });

  it('refuses settlement days out of 0..365 or not integers, naming each', () => {
    expect(fieldsOf(() => parseSettlementDays({ credit: -1, boleto: 366, pix: 1.5 }, DEFAULT_SETTLEMENT_DAYS))).toEqual([
      'settlementDays.credit',
      'settlementDays.pix',
      'settlementDays.boleto',
    ]);
    expect(fieldsOf(() => parseSettlementDays({ debit: 400 }, DEFAULT_SETTLEMENT_DAYS, 'days'))).toEqual(['days.debit']);
  });

  it('takes a monthly rate of 0..10000 basis points', () => {
    expect(parseMonthlyRate(0)).toBe(0);
    expect(parseMonthlyRate(199)).toBe(199);
    expect(parseMonthlyRate(10000)).toBe(10000);
    expect(fieldsOf(() => parseMonthlyRate(10001))).toEqual(['prepaymentMonthlyRate']);
    expect(fieldsOf(() => parseMonthlyRate(1.99))).toEqual(['prepaymentMonthlyRate']);
    expect(fieldsOf(() => parseMonthlyRate(-1, 'rate'))).toEqual(['rate']);
  });

  it('trims a name of 1..100 characters', () => {
    expect(parsePlanName('  Gold  ')).toBe('Gold');
    expect(parsePlanName('x'.repeat(100))).toBe('x'.repeat(100));
    expect(fieldsOf(() => parsePlanName('   '))).toEqual(['name']);
    expect(fieldsOf(() => parsePlanName('x'.repeat(101)))).toEqual(['name']);
  });
});
