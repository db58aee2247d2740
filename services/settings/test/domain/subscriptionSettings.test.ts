import {
  applyChanges,
  DEFAULT_SUBSCRIPTION_SETTINGS,
  defaultSubscriptionSettings,
  hasChanges,
  parseSubscriptionSettingsChanges,
} from '../../src/domain/subscriptionSettings';
import { failure, fieldsOf } from '../support/fixtures';

describe('subscription settings', () => {
  it('default to retries after 1, 3 and 5 days, no cancel, no descriptor', () => {
    expect(defaultSubscriptionSettings('c')).toEqual({
      clientId: 'c',
      retryPolicy: [{ daysAfterLastAttempt: 1 }, { daysAfterLastAttempt: 3 }, { daysAfterLastAttempt: 5 }],
      cancelAfterAllRetries: false,
      statementDescriptor: '',
    });
  });

  it('keep only the given fields and apply them onto the current values', () => {
    const changes = parseSubscriptionSettingsChanges({ statementDescriptor: 'ACME*Plan 2.0-x' });
    expect(changes).toEqual({ statementDescriptor: 'ACME*Plan 2.0-x' });
    expect(applyChanges(DEFAULT_SUBSCRIPTION_SETTINGS, changes)).toEqual({ ...DEFAULT_SUBSCRIPTION_SETTINGS, statementDescriptor: 'ACME*Plan 2.0-x' });
    expect(hasChanges(parseSubscriptionSettingsChanges({}))).toBe(false);
  });

  it('accept 1 to 10 retry steps of 1 to 30 days', () => {
    const steps = Array.from({ length: 10 }, (_, i) => ({ daysAfterLastAttempt: i + 1 }));
    expect(parseSubscriptionSettingsChanges({ retryPolicy: steps }).retryPolicy).toEqual(steps);
    expect(parseSubscriptionSettingsChanges({ retryPolicy: [{ daysAfterLastAttempt: 30 }] }).retryPolicy).toHaveLength(1);
  });

  it.each([
    ['no step', { retryPolicy: [] }, ['retryPolicy']],
    ['11 steps', { retryPolicy: Array.from({ length: 11 }, () => ({ daysAfterLastAttempt: 1 })) }, ['retryPolicy']],
    ['0 days', { retryPolicy: [{ daysAfterLastAttempt: 2 }, { daysAfterLastAttempt: 0 }] }, ['retryPolicy.1.daysAfterLastAttempt']],
    ['31 days', { retryPolicy: [{ daysAfterLastAttempt: 31 }] }, ['retryPolicy.0.daysAfterLastAttempt']],
    ['a 23-character descriptor', { statementDescriptor: 'A'.repeat(23) }, ['statementDescriptor']],
    ['a descriptor with other symbols', { statementDescriptor: 'ACME_PLAN!' }, ['statementDescriptor']],
    ['a descriptor with accents', { statementDescriptor: 'CAFÉ' }, ['statementDescriptor']],
  ])('refuse %s', async (_what, input, fields) => {
    const error = await failure(() => parseSubscriptionSettingsChanges(input));
    expect(error.kind).toBe('validation');
    expect(fieldsOf(error)).toEqual(fields);
  });
});
