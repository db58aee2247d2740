import { AppError } from '@platform/kit';
import { canStep, daysRemaining, REVIEW_STATUSES, stepReview, validateSubmission } from '../../src/domain/review';
import { translateRawFields } from '../../src/domain/vocabulary';

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
      validateSubmission(fields, { 'owner.birthdate': '12/04/1990', 'business.annualRevenue': '10.123' });
      throw new Error('expected a refusal');
    } catch (error) {
      expect((error as AppError).details?.map((d) => d.field)).toEqual(['owner.birthdate', 'business.annualRevenue', 'bankAccount.type']);
    }
  });

  it('accepts values matching the patterns; allowedValues are informative only', () => {
    expect(validateSubmission(fields, { 'owner.birthdate': '1990-04-12', 'business.annualRevenue': '1000.50', 'bankAccount.type': 'conta_outra' })).toEqual({
      'owner.birthdate': '1990-04-12',
      'business.annualRevenue': 1000.5,
      'bankAccount.type': 'conta_outra',
    });
  });
});
