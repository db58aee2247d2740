import { AppError } from '@platform/kit';
import { canStep, daysRemaining, openingDatesProblems, REVIEW_STATUSES, stepReview, validateSubmission } from '../../src/domain/review';
import { translateRawFields } from '../../src/domain/vocabulary';

/** The service's clock in these tests. */
const NOW = new Date('2026-05-01T12:00:00.000Z');

describe('the SANDBOX vocabulary', () => {
  it('translates known raw paths and marks an unknown one unmapped', () => {
    const fields = translateRawFields(['legal_representative.birth_date', 'bank_account.type', 'company.favourite_colour']);
    expect(fields[0]).toMatchObject({ path: 'owner.birthdate', type: 'date', required: true, providerField: 'legal_representative.birth_date', pattern: '^\\d{4}-\\d{2}-\\d{2}$' });
    expect(fields[0]!.label['pt-br']).toBeTruthy();
    expect(fields[0]!.unmapped).toBeUndefined();
    expect(fields[1]).toMatchObject({ path: 'bankAccount.type', type: 'enum', allowedValues: ['conta_corrente', 'conta_poupanca', 'conta_pagamento'] });
    expect(fields[2]).toMatchObject({ path: 'company.favourite_colour', unmapped: true, providerField: 'company.favourite_colour' });
  });
});

describe('the review status table', () => {
  it('allows submission only from pending, overdue and submit_failed', () => {
    const open = REVIEW_STATUSES.filter((s) => canStep(s, 'submit'));
    expect(open).toEqual(['pending', 'overdue', 'submit_failed']);
    expect(stepReview('submit_failed', 'submit')).toBe('submitting');
  });

  it('answers registration_review_not_open for a submission in any other status', () => {
    for (const status of ['unmatched', 'submitting', 'expired', 'finished', 'canceled'] as const) {
      try {
        stepReview(status, 'submit');
        throw new Error('expected a refusal');
      } catch (error) {
        expect(error).toBeInstanceOf(AppError);
        expect((error as AppError).businessCode).toBe('registration_review_not_open');
      }
    }
  });

  it('ends in expired, finished or canceled and nothing leaves them', () => {
    expect(stepReview('overdue', 'expire')).toBe('expired');
    expect(stepReview('unmatched', 'match')).toBe('pending');
    for (const status of ['expired', 'finished', 'canceled'] as const) {
      for (const step of ['match', 'overdue', 'submit', 'finish', 'fail', 'expire', 'cancel'] as const) expect(canStep(status, step)).toBe(false);
    }
  });
});

describe('daysRemaining', () => {
  it('counts whole days to the deadline, negative after it', () => {
    const deadline = new Date('2026-03-10T12:00:00Z');
    expect(daysRemaining(deadline, new Date('2026-03-07T11:00:00Z'))).toBe(3);
    expect(daysRemaining(deadline, new Date('2026-03-10T11:00:00Z'))).toBe(0);
    expect(daysRemaining(deadline, new Date('2026-03-11T13:00:00Z'))).toBe(-2);
  });
});

describe('submission', () => {
  const fields = translateRawFields(['legal_representative.birth_date', 'company.annual_revenue', 'bank_account.type']);

  it('names each missing or malformed path', () => {
    try {
      validateSubmission(fields, { 'owner.birthdate': '12/04/1990', 'business.annualRevenue': '10.123' }, NOW);
      throw new Error('expected a refusal');
    } catch (error) {
      expect((error as AppError).details?.map((d) => d.field)).toEqual(['owner.birthdate', 'business.annualRevenue', 'bankAccount.type']);
    }
  });

  it('accepts values matching the patterns; allowedValues are informative only', () => {
    expect(validateSubmission(fields, { 'owner.birthdate': '1990-04-12', 'business.annualRevenue': '1000.50', 'bankAccount.type': 'conta_outra' }, NOW)).toEqual({
      'owner.birthdate': '1990-04-12',
      'business.annualRevenue': 1000.5,
      'bankAccount.type': 'conta_outra',
    });
  });
});

describe('dates of a submission', () => {
  const fields = translateRawFields(['legal_representative.birth_date']);

  it('refuses a date field that matches the pattern but is no date, and a birthdate not in the past or before 1900', () => {
    const refusal = (birthdate: string) => {
      try {
        validateSubmission(fields, { 'owner.birthdate': birthdate }, NOW);
      } catch (error) {
        return (error as AppError).details;
      }
      return undefined;
    };
    expect(refusal('0000-00-00')).toEqual([{ field: 'owner.birthdate', message: 'must be a date (YYYY-MM-DD)' }]);
    expect(refusal('2026-02-30')).toEqual([{ field: 'owner.birthdate', message: 'must be a date (YYYY-MM-DD)' }]);
    expect(refusal('2999-01-01')).toEqual([{ field: 'owner.birthdate', message: 'must be a date in the past, from 1900-01-01' }]);
    expect(refusal('1899-12-31')).toEqual([{ field: 'owner.birthdate', message: 'must be a date in the past, from 1900-01-01' }]);
    expect(refusal('1990-04-12')).toBeUndefined();
  });
});

describe('dates of an opening', () => {
  const at = (iso: string) => new Date(iso);

  it('takes a deadline already past (the process opens overdue) but never an expiry past by the clock, and both instants within the range the gateway takes', () => {
    expect(openingDatesProblems(at('2026-05-01T11:59:59.999Z'), undefined, NOW)).toEqual([]);
    expect(openingDatesProblems(at('2026-04-20T00:00:00Z'), at('2026-05-01T12:00:30Z'), NOW)).toEqual([]);
    expect(openingDatesProblems(at('2000-01-01T00:00:00Z'), undefined, NOW)).toEqual([
      { field: 'deadlineAt', message: 'must be less than 5 days ago when expiresAt is not given (the process would open expired)' },
    ]);
    expect(openingDatesProblems(at('2026-04-20T00:00:00Z'), at('2026-05-01T12:00:00Z'), NOW)).toEqual([
      { field: 'expiresAt', message: 'must be in the future (a process opens overdue at most, never expired)' },
    ]);
    expect(openingDatesProblems(at('0001-01-01T00:00:00Z'), undefined, NOW)).toEqual([{ field: 'deadlineAt', message: 'must be an instant from 1970-01-01 to 2099-12-31' }]);
    expect(openingDatesProblems(at('2999-01-01T00:00:00Z'), undefined, NOW)).toEqual([{ field: 'deadlineAt', message: 'must be an instant from 1970-01-01 to 2099-12-31' }]);
    expect(openingDatesProblems(at('2026-05-04T00:00:00Z'), at('2999-01-01T00:00:00Z'), NOW)).toEqual([
      { field: 'expiresAt', message: 'must be an instant from 1970-01-01 to 2099-12-31' },
    ]);
    expect(openingDatesProblems(at('2026-05-04T00:00:00Z'), at('2026-05-03T00:00:00Z'), NOW)).toEqual([{ field: 'expiresAt', message: 'must not be before deadlineAt' }]);
    expect(openingDatesProblems(at('2026-05-01T12:00:00.001Z'), undefined, NOW)).toEqual([]);
  });
});
