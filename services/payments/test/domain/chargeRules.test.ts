import type { payments } from '@platform/contracts';
import { AppError } from '@platform/kit';
import type { Charge, SplitRule } from '../../src/modules/charges/domain/charge';
import { applyNotification, planCapture, planVoid, settleOperation } from '../../src/modules/charges/domain/chargeChanges';
import { parseChargeFilters } from '../../src/modules/charges/domain/chargeFilters';
import { parseNewCharge } from '../../src/modules/charges/domain/newCharge';
import { matchingFeeRule, platformFeeFor } from '../../src/modules/charges/domain/platformFee';
import { splitAddsUp, splitAmounts } from '../../src/modules/charges/domain/splitRules';
import { paymentMethod } from '../support/charges';

const NOW = new Date('2030-03-10T12:00:00Z');
const MERCHANT = '6f1c1a52-3a3e-4d8a-9c3e-2b1f1d7a9e10';
const SELLER_A = '0b8a3f0e-1c2d-4e5f-8a9b-0c1d2e3f4a5b';
const SELLER_B = '1c9b4a1f-2d3e-4f6a-9b0c-1d2e3f4a5b6c';

function request(overrides: Partial<payments.CreateChargeRequest> = {}): payments.CreateChargeRequest {
  return {
    clientId: '8d5f0a7e-5f4b-4c1a-9a57-0d2b7c1e9f33',
    merchantId: MERCHANT,
    amount: 10_000,
    currency: '',
    orderId: '',
    statementDescriptor: '',
    description: '',
    customerId: '',
    sessionId: '',
    paymentMethod: method({ paymentType: 'credit', installments: 1 }),
    paymentSource: source({ sourceType: 'card', cardId: '2a9e1d3c-4b5a-4c6d-8e7f-9a0b1c2d3e4f' }),
    splitRules: [],
    ...overrides,
  };
}

/** Every field unset but those given, as a decoded request has them. */
function method(overrides: Partial<payments.PaymentMethod>): payments.PaymentMethod {
  return paymentMethod({ paymentType: '', installments: 0, ...overrides });
}

function source(overrides: Partial<payments.PaymentSource>): payments.PaymentSource {
  return { sourceType: '', cardId: '', cardCvv: '', tokenId: '', customerId: '', ...overrides };
}

function errorOf(fn: () => unknown): AppError {
  try {
    fn();
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected an error');
}

const fields = (error: AppError) => (error.details ?? []).map((d) => d.field).sort();

describe('parseNewCharge', () => {
  it('normalises a card charge with defaults', () => {
    const parsed = parseNewCharge(request(), NOW);
    expect(parsed).toMatchObject({
      merchantId: MERCHANT,
      amount: 10_000,
      currency: 'BRL',
      capture: true,
      paymentMethod: { paymentType: 'credit', installments: 1 },
      source: { kind: 'card', cardId: '2a9e1d3c-4b5a-4c6d-8e7f-9a0b1c2d3e4f' },
      splitRules: [],
      orderId: null,
    });
  });

  it('names every broken field at once', () => {
    const error = errorOf(() =>
      parseNewCharge(
        request({
          merchantId: 'm-1',
          amount: 10.5,
          currency: 'REAL',
          paymentMethod: method({ paymentType: 'credit', installments: 25 }),
          statementDescriptor: 'x'.repeat(23),
        }),
        NOW,
      ),
    );
    expect(error.kind).toBe('validation');
    expect(fields(error)).toEqual(['amount', 'currency', 'merchantId', 'paymentMethod.installments', 'statementDescriptor']);
  });

  it('accepts ISO 4217 codes only', () => {
    expect(parseNewCharge(request({ currency: 'usd' }), NOW).currency).toBe('USD');
    expect(fields(errorOf(() => parseNewCharge(request({ currency: 'XYZ' }), NOW)))).toEqual(['currency']);
  });

  it('refuses the ISO 4217 codes of no currency in circulation (XXX, XTS, XAU, XDR), as the gateway does', () => {
    for (const currency of ['XXX', 'XTS', 'XAU', 'XDR']) expect(fields(errorOf(() => parseNewCharge(request({ currency }), NOW)))).toEqual(['currency']);
    expect(parseNewCharge(request({ currency: 'xof' }), NOW).currency).toBe('XOF');
  });

  it('refuses a boleto due date past the last date the platform takes', () => {
    const boleto = (expiresDate: string) => request({ paymentMethod: method({ paymentType: 'boleto', expiresDate }) });
    const due = (day: string) => errorOf(() => parseNewCharge(boleto(day), NOW)).details?.filter((d) => d.field === 'paymentMethod.expiresDate');
    expect(due('3000-01-01')).toEqual([{ field: 'paymentMethod.expiresDate', message: 'must be at most 2099-12-31' }]);
    expect(due('0000-00-00')).toEqual([{ field: 'paymentMethod.expiresDate', message: 'must be a date (YYYY-MM-DD)' }]);
    expect(due('1900-01-01')).toEqual([{ field: 'paymentMethod.expiresDate', message: 'must not be in the past' }]);
  });

  it('refuses an amount of zero or below', () => {
    expect(fields(errorOf(() => parseNewCharge(request({ amount: 0 }), NOW)))).toEqual(['amount']);
    expect(fields(errorOf(() => parseNewCharge(request({ amount: -5 }), NOW)))).toEqual(['amount']);
  });

  it('takes 1 to 24 installments for credit and only 1 for debit', () => {
    expect(parseNewCharge(request({ paymentMethod: method({ paymentType: 'credit', installments: 24 }) }), NOW).paymentMethod.installments).toBe(24);
    expect(fields(errorOf(() => parseNewCharge(request({ paymentMethod: method({ paymentType: 'debit', installments: 2 }) }), NOW)))).toEqual([
      'paymentMethod.installments',
    ]);
    expect(parseNewCharge(request({ paymentMethod: method({ paymentType: 'debit' }) }), NOW).paymentMethod.installments).toBe(1);
  });

  it('refuses an unknown payment type', () => {
    expect(fields(errorOf(() => parseNewCharge(request({ paymentMethod: method({ paymentType: 'cash' }) }), NOW)))).toEqual(['paymentMethod.paymentType']);
  });

  it('needs a positive expiresIn for Pix, in BRL', () => {
    const pix = (expiresIn: number, currency = 'BRL') =>
      parseNewCharge(
        request({ currency, paymentMethod: method({ paymentType: 'pix', expiresIn }), paymentSource: source({ sourceType: 'customer', customerId: SELLER_A }) }),
        NOW,
      );
    expect(pix(3600).paymentMethod).toEqual({ paymentType: 'pix', installments: 1, expiresIn: 3600 });
    expect(fields(errorOf(() => pix(0)))).toEqual(['paymentMethod.expiresIn']);
    expect(fields(errorOf(() => pix(60, 'USD')))).toEqual(['currency']);
  });

  it('needs a boleto due date that is a real date, today or later in Brasília', () => {
    const boleto = (expiresDate: string, now = NOW) =>
      parseNewCharge(
        request({ paymentMethod: method({ paymentType: 'boleto', expiresDate }), paymentSource: source({ sourceType: 'customer', customerId: SELLER_A }) }),
        now,
      );
    expect(boleto('2030-03-10').paymentMethod.expiresDate).toBe('2030-03-10');
    expect(fields(errorOf(() => boleto('2030-03-09')))).toEqual(['paymentMethod.expiresDate']);
    expect(fields(errorOf(() => boleto('2030-02-30')))).toEqual(['paymentMethod.expiresDate']);
    expect(fields(errorOf(() => boleto('10/03/2030')))).toEqual(['paymentMethod.expiresDate']);
    // 01:00 UTC on the 11th is still the 10th in Brasília.
    expect(boleto('2030-03-10', new Date('2030-03-11T01:00:00Z')).paymentMethod.expiresDate).toBe('2030-03-10');
  });

  it('needs a card for card payment types and refuses one for Pix and boleto', () => {
    const noCard = errorOf(() => parseNewCharge(request({ paymentSource: source({ sourceType: 'customer', customerId: SELLER_A }) }), NOW));
    expect(fields(noCard)).toEqual(['paymentSource']);
    const cardForPix = errorOf(() => parseNewCharge(request({ paymentMethod: method({ paymentType: 'pix', expiresIn: 60 }) }), NOW));
    expect(fields(cardForPix)).toEqual(['paymentSource.sourceType']);
  });

  it('takes the customer of a customer source and the card it names', () => {
    const parsed = parseNewCharge(
      request({ paymentSource: source({ sourceType: 'customer', customerId: SELLER_A.toUpperCase(), cardId: '2a9e1d3c-4b5a-4c6d-8e7f-9a0b1c2d3e4f' }) }),
      NOW,
    );
    expect(parsed.customerId).toBe(SELLER_A);
    expect(parsed.source).toEqual({ kind: 'customer', customerId: SELLER_A, cardId: '2a9e1d3c-4b5a-4c6d-8e7f-9a0b1c2d3e4f' });
    const otherCustomer = source({ sourceType: 'customer', customerId: SELLER_A, cardId: SELLER_B });
    const conflict = errorOf(() => parseNewCharge(request({ customerId: SELLER_B, paymentSource: otherCustomer }), NOW));
    expect(fields(conflict)).toEqual(['paymentSource.customerId']);
  });

  it('keeps an inline customer on the charge only', () => {
    const parsed = parseNewCharge(
      request({ paymentMethod: method({ paymentType: 'pix', expiresIn: 60 }), paymentSource: source({ sourceType: 'customer', customer: { name: 'Ana' } }) }),
      NOW,
    );
    expect(parsed.customerId).toBeNull();
    expect(parsed.source).toEqual({ kind: 'customer', customer: { name: 'Ana' } });
  });

  it('answers payment_source_not_supported for a wallet', () => {
    const error = errorOf(() => parseNewCharge(request({ paymentSource: source({ sourceType: 'wallet', wallet: { type: 'apple_pay' } }) }), NOW));
    expect(error).toMatchObject({ kind: 'business_rule', businessCode: 'payment_source_not_supported' });
  });

  it('refuses a card source with both a cardId and an inline card', () => {
    const card = { cardHolderName: 'A', cardNumber: '4111111111111111', cardCvv: '123', cardExpirationDate: '12/2031' };
    expect(fields(errorOf(() => parseNewCharge(request({ paymentSource: source({ sourceType: 'card', cardId: SELLER_A, card }) }), NOW)))).toEqual(['paymentSource']);
  });

  it('refuses split rules that do not add up to the amount', () => {
    const split = (rules: Array<Partial<payments.SplitRule>>) =>
      parseNewCharge(request({ splitRules: rules.map((r) => ({ sellerId: SELLER_A, processingFee: false, chargeRemainderFee: false, liable: false, ...r })) }), NOW);
    expect(split([{ amount: 4000 }, { sellerId: SELLER_B, percentage: 6000 }]).splitRules).toHaveLength(2);
    expect(fields(errorOf(() => split([{ amount: 4000 }, { sellerId: SELLER_B, percentage: 5000 }])))).toEqual(['splitRules']);
    expect(fields(errorOf(() => split([{ amount: 4000, percentage: 6000 }])))).toEqual(['splitRules.0']);
    expect(fields(errorOf(() => split([{ amount: 5000 }, { amount: 5000 }])))).toEqual(['splitRules.1.sellerId']);
    expect(fields(errorOf(() => split([{ percentage: 10_001 }])))).toEqual(['splitRules.0.percentage']);
  });
});

describe('split rules', () => {
  const rule = (r: Partial<SplitRule>): SplitRule => ({ sellerId: SELLER_A, processingFee: false, chargeRemainderFee: false, liable: false, ...r });

  it('checks the sum exactly, in integers', () => {
    expect(splitAddsUp([rule({ percentage: 3333 }), rule({ percentage: 3333 }), rule({ percentage: 3334 })], 100)).toBe(true);
    expect(splitAddsUp([rule({ percentage: 5000 }), rule({ amount: 51 })], 100)).toBe(false);
  });

  it('gives the cents lost to rounding to the largest remainders, so the parts add up', () => {
    const parts = splitAmounts([rule({ percentage: 3333 }), rule({ sellerId: SELLER_B, percentage: 3333 }), rule({ sellerId: 'c', percentage: 3334 })], 100);
    expect(parts.map((p) => p.amount)).toEqual([33, 33, 34]);
    const uneven = splitAmounts([rule({ percentage: 5000 }), rule({ sellerId: SELLER_B, percentage: 5000 })], 101);
    expect(uneven.reduce((s, p) => s + p.amount, 0)).toBe(101);
    expect(uneven.map((p) => p.amount)).toEqual([51, 50]);
  });
});

describe('platform fee', () => {
  const rules = [
    { paymentMethod: 'credit', percentage: 250, installment: 3 },
    { paymentMethod: 'credit', percentage: 200, fixedAmount: 30 },
    { paymentMethod: 'default', fixedAmount: 99 },
  ];
  const split = [{ sellerId: SELLER_A, amount: 10_000, processingFee: false, chargeRemainderFee: false, liable: false }];
  const enabled = { platformFeeEnabled: true, platformFeeRules: rules };
  const credit = { amount: 10_000, paymentType: 'credit' as const, installments: 1, splitRules: split };

  it('picks the rule of the method and installments, then of the method, then the default', () => {
    expect(matchingFeeRule(rules, 'credit', 3)).toBe(rules[0]);
    expect(matchingFeeRule(rules, 'credit', 1)).toBe(rules[1]);
    expect(matchingFeeRule(rules, 'pix', 1)).toBe(rules[2]);
    expect(matchingFeeRule([], 'pix', 1)).toBeUndefined();
  });

  it('charges the percentage of the amount plus the fixed amount', () => {
    expect(platformFeeFor(enabled, credit)).toEqual({
      amount: 230,
      percentage: 200,
      fixedAmount: 30,
    });
  });

  it('applies only with split rules and an enabled fee', () => {
    expect(platformFeeFor({ ...enabled, platformFeeEnabled: false }, credit)).toBeNull();
    expect(platformFeeFor(enabled, { ...credit, splitRules: [] })).toBeNull();
  });

  it('refuses a fee larger than the charge', () => {
    const expensive = { platformFeeEnabled: true, platformFeeRules: [{ paymentMethod: 'default', fixedAmount: 500 }] };
    const error = errorOf(() => platformFeeFor(expensive, { amount: 100, paymentType: 'pix', installments: 1, splitRules: split }));
    expect(error).toMatchObject({ businessCode: 'platform_fee_exceeds_amount' });
  });
});

function charge(overrides: Partial<Charge> = {}): Charge {
  const at = new Date('2030-01-01T00:00:00Z');
  return {
    id: 'c1',
    clientId: 'k1',
    merchantId: MERCHANT,
    customerId: null,
    sessionId: null,
    cardId: null,
    amount: 1000,
    originalAmount: 1000,
    capturedAmount: 0,
    refundedAmount: 0,
    currency: 'BRL',
    orderId: null,
    statementDescriptor: null,
    description: null,
    capture: false,
    isDispute: false,
    status: 'pre_authorized',
    paymentMethod: { paymentType: 'credit', installments: 1 },
    paymentSource: { sourceType: 'card', brand: 'visa', first6digits: '411111', last4digits: '1111' },
    splitRules: [],
    platformFee: null,
    antifraud: null,
    appInfo: null,
    fraudAnalysis: null,
    providerId: 'p1',
    providerType: 'SANDBOX',
    providerName: 'sandbox',
    declinedCode: null,
    transactionRequests: [],
    createdAt: at,
    updatedAt: at,
    ...overrides,
  };
}

describe('planCapture', () => {
  it('captures all by default and at most the authorized amount', () => {
    expect(planCapture(charge(), undefined)).toEqual({ amount: 1000 });
    expect(planCapture(charge(), 400)).toEqual({ amount: 400 });
    expect(errorOf(() => planCapture(charge(), 1001))).toMatchObject({ businessCode: 'capture_exceeds_authorized_amount' });
    expect(errorOf(() => planCapture(charge(), 0)).kind).toBe('validation');
  });

  it('captures only a pre-authorization', () => {
    for (const status of ['authorized', 'pending', 'voided', 'failed'] as const) {
      expect(errorOf(() => planCapture(charge({ status }), undefined))).toMatchObject({ businessCode: 'charge_status_transition_not_allowed' });
    }
  });
});

describe('planVoid', () => {
  it('voids a pre-authorization whole and cancels an unpaid Pix', () => {
    expect(planVoid(charge(), undefined)).toEqual({ kind: 'void', amount: 1000, to: 'voided', splitRules: null });
    expect(planVoid(charge({ status: 'pending' }), undefined)).toMatchObject({ kind: 'void', to: 'canceled' });
    expect(errorOf(() => planVoid(charge(), 500)).kind).toBe('validation');
  });

  it('refunds what is left by default, and voids on the last refund', () => {
    const captured = charge({ status: 'authorized', capturedAmount: 1000, refundedAmount: 300 });
    expect(planVoid(captured, undefined)).toMatchObject({ kind: 'refund', amount: 700, to: 'voided' });
    expect(planVoid(captured, 200)).toMatchObject({ kind: 'refund', amount: 200, to: 'authorized' });
    expect(errorOf(() => planVoid(captured, 701))).toMatchObject({ businessCode: 'refund_exceeds_captured_amount' });
  });

  it('checks a refund split against the charge receivers and the refund amount', () => {
    const captured = charge({
      status: 'authorized',
      capturedAmount: 1000,
      splitRules: [{ sellerId: SELLER_A, amount: 1000, processingFee: false, chargeRemainderFee: false, liable: true }],
    });
    expect(planVoid(captured, 300, [{ sellerId: SELLER_A, amount: 300 }]).splitRules).toEqual([{ sellerId: SELLER_A, amount: 300 }]);
    expect(fields(errorOf(() => planVoid(captured, 300, [{ sellerId: SELLER_B, amount: 300 }])))).toEqual(['splitRules.0.sellerId']);
    expect(fields(errorOf(() => planVoid(captured, 300, [{ sellerId: SELLER_A, amount: 200 }])))).toEqual(['splitRules']);
  });

  it('refuses a charge that is over', () => {
    for (const status of ['voided', 'failed', 'canceled', 'charged_back', 'refund_pending'] as const) {
      expect(errorOf(() => planVoid(charge({ status }), undefined))).toMatchObject({ businessCode: 'charge_status_transition_not_allowed' });
    }
  });
});

describe('settleOperation', () => {
  const client = { by: 'client' } as const;

  it('adds a refund to what the row holds when it settles, and voids only on the refund that completes the capture', () => {
    const captured = charge({ status: 'authorized', capturedAmount: 1000, refundedAmount: 0 });
    // Two refunds of 600 and 400 reserved together settle in either order.
    const four = settleOperation(captured, { type: 'refund', amount: 400, cause: client }, NOW);
    expect(four).toMatchObject({ status: 'authorized', refundedAmount: 400 });
    expect(settleOperation(four, { type: 'refund', amount: 600, cause: client }, NOW)).toMatchObject({ status: 'voided', refundedAmount: 1000 });
  });

  it('voids a pre-authorization, cancels an unpaid Pix and captures', () => {
    expect(settleOperation(charge(), { type: 'void', amount: 1000, cause: client }, NOW).status).toBe('voided');
    expect(settleOperation(charge({ status: 'pending' }), { type: 'void', amount: 1000, cause: client }, NOW).status).toBe('canceled');
    expect(settleOperation(charge(), { type: 'capture', amount: 600, cause: client }, NOW)).toMatchObject({
      status: 'authorized',
      amount: 600,
      capturedAmount: 600,
      updatedAt: NOW,
    });
  });

  it('records the antifraud decision with what it made the provider do', () => {
    const held = charge({ antifraud: { providerId: 'p', status: 'pending', updatedAt: '2030-01-01T00:00:00.000Z' } });
    const approved = settleOperation(held, { type: 'capture', amount: 1000, cause: { by: 'antifraud', decision: 'approved' } }, NOW);
    expect(approved).toMatchObject({ status: 'authorized', capturedAmount: 1000, antifraud: { status: 'approved', updatedAt: NOW.toISOString() } });
    const reproved = settleOperation(held, { type: 'void', amount: 1000, cause: { by: 'antifraud', decision: 'reproved' } }, NOW);
    expect(reproved).toMatchObject({ status: 'failed', declinedCode: 'fraud_suspect', antifraud: { status: 'reproved' } });
    const failed = settleOperation(held, { type: 'void', amount: 1000, cause: { by: 'antifraud', decision: 'failed' } }, NOW);
    expect(failed).toMatchObject({ status: 'failed', declinedCode: 'try_again', antifraud: { status: 'failed' } });
  });
});

describe('applyNotification', () => {
  const at = new Date('2030-01-02T00:00:00Z');

  it('captures a Pix paid, refunds a captured charge voided, marks a chargeback as a dispute', () => {
    expect(applyNotification(charge({ status: 'pending' }), 'authorized', at)).toMatchObject({ status: 'authorized', capturedAmount: 1000 });
    expect(applyNotification(charge({ status: 'authorized', capturedAmount: 1000 }), 'voided', at)).toMatchObject({ status: 'voided', refundedAmount: 1000 });
    expect(applyNotification(charge({ status: 'pre_authorized' }), 'voided', at)).toMatchObject({ status: 'voided', refundedAmount: 0 });
    expect(applyNotification(charge({ status: 'authorized', capturedAmount: 1000 }), 'charged_back', at)).toMatchObject({ isDispute: true });
  });

  it('refuses what the table does not allow', () => {
    expect(errorOf(() => applyNotification(charge({ status: 'failed' }), 'authorized', at))).toMatchObject({ businessCode: 'charge_status_transition_not_allowed' });
  });
});

describe('parseChargeFilters', () => {
  it('reads a day, comma-joined statuses and normalises case', () => {
    expect(parseChargeFilters({ created: '2030-03-10', status: ['pending,authorized', 'failed'], paymentType: ['PIX,credit'], providerType: ['sandbox'], originalAmount: 100, hasSplitRules: false })).toEqual({
      createdFrom: new Date('2030-03-10T00:00:00.000Z'),
      createdUntil: new Date('2030-03-11T00:00:00.000Z'),
      statuses: ['pending', 'authorized', 'failed'],
      paymentTypes: ['pix', 'credit'],
      providerTypes: ['SANDBOX'],
      originalAmount: 100,
      hasSplitRules: false,
    });
  });

  it('names unknown statuses, payment types and malformed dates', () => {
    const error = errorOf(() => parseChargeFilters({ status: ['paid'], paymentType: ['credit,cash'], created: 'yesterday' }));
    expect(fields(error)).toEqual(['created', 'paymentType', 'status']);
  });
});
