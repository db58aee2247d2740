import { CHARGE_LIMITS } from '@platform/api-model';
import { DEFAULT_FEES, feeFor, MAX_INSTALLMENTS, PAYMENT_TYPES, parsePlanFeeTable, planFeeGaps, type PlanFee } from '../../src/domain/plan';
import { appErrorOf } from './support';

const defaultPlan = { fees: DEFAULT_FEES };
const rule = (paymentType: PlanFee['paymentType'], installmentsFrom: number, installmentsTo: number, percentage = 100): PlanFee => ({
  paymentType,
  installmentsFrom,
  installmentsTo,
  percentage,
  fixedAmount: 0,
});
const singles: PlanFee[] = PAYMENT_TYPES.filter((t) => t !== 'credit').map((t) => rule(t, 1, 1));

describe('installment bands of a plan', () => {
  it('charges a fee on a 10,000 credit charge at every installment count the platform accepts (1 to 24) under the default plan', () => {
    // The plan's limit is the charges' own: a count a charge accepts is a count a plan must price.
    expect(MAX_INSTALLMENTS).toBe(CHARGE_LIMITS.maxInstallments);
    const fees = Array.from({ length: MAX_INSTALLMENTS }, (_, i) => feeFor(defaultPlan, 'credit', i + 1, 10_000));
    expect(fees.slice(0, 12)).toEqual([299, ...Array<number>(5).fill(349), ...Array<number>(6).fill(399)]);
    // 13 to 24 installments used to settle with no fee at all.
    expect(fees.slice(12)).toEqual([...Array<number>(6).fill(449), ...Array<number>(6).fill(499)]);
  });

  it('never answers a silent 0 for an installment count no band covers: the computation refuses', () => {
    const short = { fees: [rule('credit', 1, 12, 399), ...singles] };
    expect(feeFor(short, 'credit', 12, 10_000)).toBe(399);
    expect(() => feeFor(short, 'credit', 13, 10_000)).toThrow(/credit in 13 installments/);
    expect(() => feeFor({ fees: [rule('credit', 1, 24)] }, 'pix', 1, 10_000)).toThrow(/pix in 1 installment/);
  });

  it('names the gaps of a fee table: credit 1..24 and every other type at 1', () => {
    expect(planFeeGaps(DEFAULT_FEES)).toEqual([]);
    expect(planFeeGaps([rule('credit', 1, 12), ...singles])).toEqual([{ paymentType: 'credit', installmentsFrom: 13, installmentsTo: 24 }]);
    expect(planFeeGaps([rule('credit', 2, 6), rule('credit', 9, 20), rule('debit', 1, 1)])).toEqual([
      { paymentType: 'credit', installmentsFrom: 1, installmentsTo: 1 },
      { paymentType: 'credit', installmentsFrom: 7, installmentsTo: 8 },
      { paymentType: 'credit', installmentsFrom: 21, installmentsTo: 24 },
      { paymentType: 'pix', installmentsFrom: 1, installmentsTo: 1 },
      { paymentType: 'boleto', installmentsFrom: 1, installmentsTo: 1 },
      { paymentType: 'voucher', installmentsFrom: 1, installmentsTo: 1 },
    ]);
  });

  it('refuses a fee table with a gap, one detail per gap', () => {
    expect(parsePlanFeeTable([...DEFAULT_FEES])).toEqual(DEFAULT_FEES);
    const error = appErrorOf(() => parsePlanFeeTable([rule('credit', 1, 12), ...singles]));
    expect(error.kind).toBe('validation');
    expect(error.details).toEqual([{ field: 'fees', message: 'no fee covers credit in 13 to 24 installments' }]);
    const two = appErrorOf(() => parsePlanFeeTable([rule('credit', 1, 24), rule('debit', 1, 1)]));
    expect(two.details?.map((d) => d.message)).toEqual([
      'no fee covers pix in 1 installment',
      'no fee covers boleto in 1 installment',
      'no fee covers voucher in 1 installment',
    ]);
  });
});
