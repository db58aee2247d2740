import { AppError } from '@platform/kit';
import { assertTransition, canTransition, CHARGE_STATUSES, CHARGE_TRANSITIONS, type ChargeStatus, type TransitionCause } from '../../src/modules/charges/domain/chargeStatus';

const allowed: Array<[ChargeStatus, ChargeStatus, TransitionCause]> = [
  ['pending', 'pending', 'antifraud'],
  ['pending', 'pre_authorized', 'notification'],
  ['pending', 'authorized', 'notification'],
  ['pending', 'failed', 'antifraud'],
  ['pending', 'failed', 'notification'],
  ['pending', 'canceled', 'void'],
  ['pending', 'canceled', 'notification'],
  ['pre_authorized', 'pre_authorized', 'antifraud'],
  ['pre_authorized', 'authorized', 'capture'],
  ['pre_authorized', 'authorized', 'antifraud'],
  ['pre_authorized', 'authorized', 'notification'],
  ['pre_authorized', 'capture_pending', 'capture'],
  ['pre_authorized', 'capture_pending', 'notification'],
  ['pre_authorized', 'voided', 'void'],
  ['pre_authorized', 'voided', 'notification'],
  ['pre_authorized', 'canceled', 'notification'],
  ['pre_authorized', 'failed', 'antifraud'],
  ['pre_authorized', 'failed', 'notification'],
  ['capture_pending', 'authorized', 'notification'],
  ['capture_pending', 'pre_authorized', 'notification'],
  ['capture_pending', 'failed', 'notification'],
  ['authorized', 'authorized', 'refund'],
  ['authorized', 'authorized', 'notification'],
  ['authorized', 'voided', 'refund'],
  ['authorized', 'voided', 'notification'],
  ['authorized', 'refund_pending', 'refund'],
  ['authorized', 'refund_pending', 'notification'],
  ['authorized', 'charged_back', 'notification'],
  ['refund_pending', 'voided', 'notification'],
  ['refund_pending', 'authorized', 'notification'],
];

describe('charge status table', () => {
  it('lists exactly the allowed moves', () => {
    const listed = CHARGE_STATUSES.flatMap((from) =>
      Object.entries(CHARGE_TRANSITIONS[from]).flatMap(([to, causes]) => (causes ?? []).map((cause) => [from, to, cause])),
    );
    expect(listed.sort()).toEqual([...allowed].sort());
  });

  it.each(allowed)('%s may become %s by %s', (from, to, cause) => {
    expect(canTransition(from, to, cause)).toBe(true);
    expect(canTransition(from, to)).toBe(true);
    expect(() => assertTransition(from, to, cause)).not.toThrow();
  });

  it.each<[ChargeStatus, ChargeStatus, TransitionCause | undefined]>([
    ['failed', 'authorized', undefined],
    ['canceled', 'pending', undefined],
    ['voided', 'authorized', 'refund'],
    ['charged_back', 'voided', undefined],
    ['pending', 'authorized', 'capture'],
    ['pending', 'voided', 'void'],
    ['authorized', 'voided', 'void'],
    ['authorized', 'pre_authorized', undefined],
    ['pre_authorized', 'refund_pending', 'notification'],
    ['refund_pending', 'charged_back', 'notification'],
    ['failed', 'failed', 'antifraud'],
  ])('refuses %s to %s (by %s)', (from, to, cause) => {
    expect(canTransition(from, to, cause)).toBe(false);
    let error: unknown;
    try {
      assertTransition(from, to, cause);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ kind: 'business_rule', businessCode: 'charge_status_transition_not_allowed' });
  });

  it('ends in failed, canceled, voided and charged_back', () => {
    for (const status of ['failed', 'canceled', 'voided', 'charged_back'] as const) {
      expect(Object.keys(CHARGE_TRANSITIONS[status])).toEqual([]);
    }
  });
});
