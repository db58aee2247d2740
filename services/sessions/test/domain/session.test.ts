import { type AppError } from '@platform/kit';
import { canceledEntry, expiredByMaxPaymentsEntry, mainAction, paymentEntry } from '../../src/domain/history';
import { hashPublicKey, publicKeyMatches, sessionPublicKey } from '../../src/domain/publicKey';
import { applyUpdate, checkPlatformFee, multiplePaymentsOf, newSession, nextStatus, refusalOf, STATUS_TABLE, type NewSessionInput, type Session } from '../../src/domain/session';

const now = new Date('2026-05-01T10:00:00.000Z');
const base: NewSessionInput = {
  id: '0f3e8a2c-71f4-4b1e-9b55-3c0c2d7e9a41',
  clientId: '7bd83048-0bc4-4e53-8d54-b50d167929d7',
  merchantId: 'b7e4c0a2-5d3f-4b8e-9f21-6a1c0d2e3f45',
  name: 'Mugs',
  orderId: '',
  currency: 'BRL',
  paymentMethods: [{ paymentType: 'credit' }],
  items: [{ name: ' Mug ', unitPrice: 1000, quantity: 3, description: '' }],
  splitRules: [],
  statementDescriptor: '',
};

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (error) {
    return (error as AppError).businessCode ?? (error as AppError).kind;
  }
  return undefined;
}

describe('session status table', () => {
  it('pays and cancels only a created session; a paid one can only be voided', () => {
    expect(nextStatus('created', 'pay')).toBe('paid');
    expect(nextStatus('created', 'cancel')).toBe('canceled');
    expect(nextStatus('paid', 'cancel')).toBeNull();
    expect(nextStatus('paid', 'void')).toBe('voided');
    expect(nextStatus('canceled', 'pay')).toBeNull();
    expect(Object.keys(STATUS_TABLE)).toEqual(['created', 'paid', 'canceled', 'voided']);
  });
});

describe('session rules', () => {
  it('totals the items and starts 1:1 and enabled', () => {
    const session = newSession(base, now);
    expect(session).toMatchObject({ amount: 3000, maxPayments: null, status: 'created', isActive: true, items: [{ name: 'Mug' }] });
    expect(multiplePaymentsOf(session)).toEqual({ allow: false, maxPayments: 1, paymentCount: 0, pendingCount: 0, status: 'enabled' });
  });

  it('refuses an amount other than the items total, a past due date, and a bad maxPayments', () => {
    expect(codeOf(() => newSession({ ...base, amount: 2999 }, now))).toBe('validation');
    expect(codeOf(() => newSession({ ...base, dueDate: new Date(now.getTime() - 1) }, now))).toBe('validation');
    expect(codeOf(() => newSession({ ...base, maxPayments: 0 }, now))).toBe('validation');
    expect(codeOf(() => newSession({ ...base, maxPayments: 100_000 }, now))).toBe('validation');
  });

  it('refuses a currency not in circulation and a boleto due date that is no date, is before today in Brasília or past 2099, as the gateway does', () => {
    const fieldsOf = (fn: () => unknown) => {
      try {
        fn();
      } catch (error) {
        return (error as AppError).details?.map((d) => `${d.field}: ${d.message}`);
      }
      return undefined;
    };
    expect(fieldsOf(() => newSession({ ...base, currency: 'XXX' }, now))).toEqual(['currency: must be an ISO 4217 code of a currency in circulation (such as BRL)']);
    expect(newSession({ ...base, currency: 'usd' }, now).currency).toBe('USD');
    const boleto = (expiresDate: string) => ({ ...base, paymentMethods: [{ paymentType: 'credit' as const }, { paymentType: 'boleto' as const, expiresDate }] });
    expect(fieldsOf(() => newSession(boleto('1900-01-01'), now))).toEqual(['paymentMethods[1].expiresDate: must not be in the past']);
    expect(fieldsOf(() => newSession(boleto('2026-04-30'), now))).toEqual(['paymentMethods[1].expiresDate: must not be in the past']);
    expect(fieldsOf(() => newSession(boleto('0000-00-00'), now))).toEqual(['paymentMethods[1].expiresDate: must be a date (YYYY-MM-DD)']);
    expect(fieldsOf(() => newSession(boleto('2026-02-30'), now))).toEqual(['paymentMethods[1].expiresDate: must be a date (YYYY-MM-DD)']);
    expect(fieldsOf(() => newSession(boleto('3000-01-01'), now))).toEqual(['paymentMethods[1].expiresDate: must be at most 2099-12-31']);
    // Today in Brasília is still 2026-05-01 at 02:00 UTC the next day.
    expect(newSession(boleto('2026-05-01'), new Date('2026-05-02T02:00:00.000Z')).paymentMethods[1]).toMatchObject({ expiresDate: '2026-05-01' });
  });

  it.each(['pix', 'boleto'] as const)('refuses %s with a finite maxPayments above 1, accepts it unlimited or 1:1', (paymentType) => {
    const methods = [{ paymentType }];
    expect(codeOf(() => newSession({ ...base, paymentMethods: methods, maxPayments: 2 }, now))).toBe('pix_boleto_multiple_payments_not_allowed');
    expect(newSession({ ...base, paymentMethods: methods, maxPayments: -1 }, now).maxPayments).toBe(-1);
    expect(newSession({ ...base, paymentMethods: methods }, now).maxPayments).toBeNull();
  });

  it('refuses a platform fee above the link amount, for split sessions only', () => {
    const split = { ...newSession(base, now), splitRules: [{ sellerId: 's', percentage: 10_000, processingFee: true, chargeRemainderFee: true, liable: true }] };
    const fee = { enabled: true, rules: [{ paymentMethod: 'credit', fixedAmount: 3001 }] };
    expect(codeOf(() => checkPlatformFee(split, fee))).toBe('platform_fee_exceeds_link_amount');
    expect(codeOf(() => checkPlatformFee(split, { ...fee, rules: [{ paymentMethod: 'credit', fixedAmount: 3000 }] }))).toBeUndefined();
    expect(codeOf(() => checkPlatformFee(newSession(base, now), fee))).toBeUndefined();
  });

  it('checks only the fee rules payments would apply to the session methods', () => {
    const split = { ...newSession(base, now), splitRules: [{ sellerId: 's', percentage: 10_000, processingFee: true, chargeRemainderFee: true, liable: true }] };
    const tooMuch = { paymentMethod: 'default', fixedAmount: 3001 };
    // The method's own rule always wins over `default`: the large default never applies to credit.
    expect(codeOf(() => checkPlatformFee(split, { enabled: true, rules: [{ paymentMethod: 'credit', percentage: 100 }, tooMuch] }))).toBeUndefined();
    // A method rule for some installments only leaves the others to `default`.
    expect(codeOf(() => checkPlatformFee(split, { enabled: true, rules: [{ paymentMethod: 'credit', installment: 2, percentage: 100 }, tooMuch] }))).toBe('platform_fee_exceeds_link_amount');
    // An installment rule of the method is reachable although the method also has a general rule.
    const byInstallment = [{ paymentMethod: 'credit', percentage: 100 }, { paymentMethod: 'credit', installment: 12, fixedAmount: 3001 }];
    expect(codeOf(() => checkPlatformFee(split, { enabled: true, rules: byInstallment }))).toBe('platform_fee_exceeds_link_amount');
    expect(codeOf(() => checkPlatformFee(split, { enabled: false, rules: byInstallment }))).toBeUndefined();
  });

  it('names why a session takes no payment', () => {
    const open = newSession({ ...base, maxPayments: 3 }, now);
    expect(refusalOf(open, now)).toBeNull();
    expect(refusalOf({ ...open, paymentCount: 2, pendingCount: 1 }, now)?.code).toBe('multiple_payments_limit_reached');
    expect(refusalOf({ ...open, paymentCount: 3, isActive: false }, now)?.code).toBe('multiple_payments_limit_reached');
    expect(refusalOf({ ...open, isActive: false }, now)?.code).toBe('session_disabled');
    const oneToOne = newSession(base, now);
    expect(refusalOf({ ...oneToOne, status: 'paid', paymentCount: 1 }, now)?.code).toBe('session_disabled');
    expect(refusalOf({ ...oneToOne, dueDate: now }, now)?.code).toBe('session_disabled');
  });

  it('blocks reactivating a paid or expired 1:1 Pix or boleto session', () => {
    const pix: Session = { ...newSession({ ...base, paymentMethods: [{ paymentType: 'pix' }] }, now), isActive: false };
    expect(codeOf(() => applyUpdate({ ...pix, status: 'paid' }, { isActive: true }, now))).toBe('pix_boleto_one_to_one_reactivation_blocked');
    expect(codeOf(() => applyUpdate({ ...pix, dueDate: now }, { isActive: true }, now))).toBe('pix_boleto_one_to_one_reactivation_blocked');
    expect(applyUpdate(pix, { isActive: true }, now).changes).toEqual({ isActive: { from: false, to: true } });
  });

  it('treats isActive: true as a reactivation whatever the current flag, and an expiry as lasting', () => {
    const pix = newSession({ ...base, paymentMethods: [{ paymentType: 'pix' }], dueDate: new Date(now.getTime() + 1000) }, now);
    const later = new Date(now.getTime() + 86_400_000);
    expect(codeOf(() => applyUpdate({ ...pix, status: 'paid', paymentCount: 1 }, { isActive: true }, now))).toBe('pix_boleto_one_to_one_reactivation_blocked');
    expect(codeOf(() => applyUpdate({ ...pix, isActive: false }, { isActive: true, dueDate: later }, new Date(now.getTime() + 1000)))).toBe('pix_boleto_one_to_one_reactivation_blocked');
    expect(codeOf(() => applyUpdate({ ...pix, isActive: false, dueDate: later }, { isActive: true }, now, { expiredByDueDate: true }))).toBe('pix_boleto_one_to_one_reactivation_blocked');
    expect(applyUpdate({ ...pix, isActive: false, dueDate: later }, { isActive: true }, now).changes).toEqual({ isActive: { from: false, to: true } });
    const card = newSession(base, now);
    expect(codeOf(() => applyUpdate({ ...card, status: 'paid', paymentCount: 1 }, { isActive: true }, now))).toBe('session_disabled');
    expect(applyUpdate({ ...card, status: 'paid', paymentCount: 1 }, { isActive: false }, now).changes).toEqual({ isActive: { from: true, to: false } });
  });

  it('refuses a 1:N session left active at its maximum, and records no unchanged due date', () => {
    const full: Session = { ...newSession({ ...base, maxPayments: 2 }, now), paymentCount: 2, isActive: false };
    expect(codeOf(() => applyUpdate(full, { isActive: true }, now))).toBe('multiple_payments_limit_reached');
    expect(applyUpdate(full, { isActive: true, maxPayments: 3 }, now).changes).toEqual({ maxPayments: { from: 2, to: 3 }, isActive: { from: false, to: true } });
    const open: Session = { ...full, isActive: true, maxPayments: 5 };
    expect(codeOf(() => applyUpdate(open, { maxPayments: 2 }, now))).toBe('multiple_payments_limit_reached');
    expect(applyUpdate({ ...open, pendingCount: 1 }, { maxPayments: 3 }, now).changes).toEqual({ maxPayments: { from: 5, to: 3 } });
    const dueDate = new Date(now.getTime() + 1000);
    expect(applyUpdate({ ...open, dueDate }, { dueDate: new Date(dueDate.getTime()) }, now).changes).toEqual({});
  });
});

describe('history entries', () => {
  it('deduplicates 1:N payment records per charge and keeps the charge id inside diff', () => {
    const session = newSession({ ...base, maxPayments: 3 }, now);
    const entry = paymentEntry('paymentPending', session, session, { chargeId: 'c1', status: 'pending', amount: 3000, paymentType: 'pix' });
    expect(entry).toMatchObject({ action: 'paymentPending', dedupeKey: 'paymentPending:c1', diff: { chargeId: 'c1', changes: { response: { to: { status: 'pending' } } } } });
    expect(paymentEntry('paymentSucceeded', newSession(base, now), newSession(base, now), { chargeId: 'c2', status: 'authorized', amount: 1, paymentType: 'credit' }).dedupeKey).toBeUndefined();
    expect(mainAction(['isActiveChanged', 'sessionExpiredByMaxPayments'])).toBe('sessionExpiredByMaxPayments');
  });

  it('names no charge when the attempt made none, and is not deduplicated then', () => {
    const session = newSession({ ...base, maxPayments: 3 }, now);
    const entry = paymentEntry('paymentFailed', session, session, { status: 'declined', amount: 3000, paymentType: 'credit', declinedCode: 'insufficient_funds' });
    expect(Object.keys(entry.diff)).not.toContain('chargeId');
    expect(entry.dedupeKey).toBeUndefined();
    expect(entry.diff).toMatchObject({ changes: { response: { from: null, to: { status: 'declined', declinedCode: 'insufficient_funds' } } } });
  });

  it('keeps a limit expiry once per charge, not once per session', () => {
    const session = newSession({ ...base, maxPayments: 1 }, now);
    expect(expiredByMaxPaymentsEntry(session, 'c1').dedupeKey).toBe('sessionExpiredByMaxPayments:c1');
    expect(expiredByMaxPaymentsEntry(session, 'c2').dedupeKey).toBe('sessionExpiredByMaxPayments:c2');
  });

  it('a cancel is canceled, with the isActive change only when the session was active', () => {
    const session = newSession(base, now);
    expect(canceledEntry(session)).toMatchObject({ status: 'canceled', action: 'statusChanged', actions: ['statusChanged', 'isActiveChanged'] });
    expect(canceledEntry({ ...session, isActive: false })).toEqual({
      status: 'canceled',
      action: 'statusChanged',
      actions: ['statusChanged'],
      diff: { changes: { status: { from: 'created', to: 'canceled' } }, reason: 'canceled_by_client' },
    });
  });
});

describe('session public keys', () => {
  it('derives a stable key per session that matches only its own hash', () => {
    const secret = Buffer.alloc(32, 7);
    const key = sessionPublicKey(secret, 'a');
    expect(sessionPublicKey(secret, 'a')).toBe(key);
    expect(publicKeyMatches(hashPublicKey(key), key)).toBe(true);
    expect(publicKeyMatches(hashPublicKey(key), sessionPublicKey(secret, 'b'))).toBe(false);
    expect(publicKeyMatches(hashPublicKey(key), sessionPublicKey(Buffer.alloc(32, 8), 'a'))).toBe(false);
  });
});
