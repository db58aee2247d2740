import { CLIENT_LIMITS, CLIENT_TOKEN_LIMITS, LINK_SETTINGS_COLOR_FIELDS, LINK_SETTINGS_LIMITS, SUBSCRIPTION_SETTINGS_LIMITS } from '@platform/api-model';
import { AppError } from '@platform/kit';
import { parseClientTokenRequest } from '../../src/domain/clientTokens';
import { parseClientChanges, parseNewClient } from '../../src/domain/clients';
import { effectiveFields } from '../../src/domain/linkSettings';
import { validateLogo } from '../../src/domain/logos';
import { parseSubscriptionSettingsChanges } from '../../src/domain/subscriptionSettings';

/** The settings service accepts each limit of @platform/api-model (what the OpenAPI document advertises) and refuses one more. */

function refused(run: () => unknown): { field: string | undefined; message: string } | undefined {
  try {
    run();
  } catch (error) {
    if (error instanceof AppError && error.kind === 'validation') return { field: error.details?.[0]?.field, message: error.details?.[0]?.message ?? error.message };
    throw error;
  }
  return undefined;
}

describe('client limits', () => {
  it('name: at most nameMaxLength characters', () => {
    const max = CLIENT_LIMITS.nameMaxLength;
    expect(parseNewClient({ name: 'n'.repeat(max), environment: 'sandbox', prepaymentEnabled: false }).name).toHaveLength(max);
    expect(refused(() => parseNewClient({ name: 'n'.repeat(max + 1), environment: 'sandbox', prepaymentEnabled: false }))?.field).toBe('name');
    expect(parseClientChanges({ name: 'n'.repeat(max) }).name).toHaveLength(max);
    expect(refused(() => parseClientChanges({ name: 'n'.repeat(max + 1) }))?.field).toBe('name');
  });
});

describe('client token limits', () => {
  it('scope: at most maxScopes names', () => {
    const max = CLIENT_TOKEN_LIMITS.maxScopes;
    expect(parseClientTokenRequest({ scope: Array<string>(max).fill('cards'), expires: 0 }).scopes).toEqual(['cards']);
    expect(refused(() => parseClientTokenRequest({ scope: Array<string>(max + 1).fill('cards'), expires: 0 }))?.field).toBe('scope');
  });

  it('expires: at most maxLifetimeSeconds', () => {
    const max = CLIENT_TOKEN_LIMITS.maxLifetimeSeconds;
    expect(parseClientTokenRequest({ scope: ['*'], expires: max }).expires).toBe(max);
    expect(refused(() => parseClientTokenRequest({ scope: ['*'], expires: max + 1 }))?.field).toBe('expires');
  });
});

describe('link settings limits', () => {
  it.each(LINK_SETTINGS_COLOR_FIELDS)('%s: at most colorMaxLength characters', (field) => {
    const max = LINK_SETTINGS_LIMITS.colorMaxLength;
    const color = `#${'A'.repeat(max - 1)}`;
    expect(effectiveFields({ [field]: color })[field]).toBe(color);
    expect(refused(() => effectiveFields({ [field]: `${color}A` }))?.field).toBe(field);
  });

  it('companyUrl: at most companyUrlMaxLength characters', () => {
    const max = LINK_SETTINGS_LIMITS.companyUrlMaxLength;
    const prefix = 'https://shop.example.com/';
    const url = `${prefix}${'p'.repeat(max - prefix.length)}`;
    expect(effectiveFields({ companyUrl: url }).companyUrl).toHaveLength(max);
    expect(refused(() => effectiveFields({ companyUrl: `${url}p` }))?.field).toBe('companyUrl');
  });

  it('logo: at most logoMaxBytes bytes', () => {
    const max = LINK_SETTINGS_LIMITS.logoMaxBytes;
    const png = (size: number) => Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(size - 8)]);
    expect(validateLogo({ contentType: 'image/png', data: png(max) }).data).toHaveLength(max);
    expect(refused(() => validateLogo({ contentType: 'image/png', data: png(max + 1) }))?.message).toBe(`must be at most ${max} bytes`);
  });
});

describe('subscription settings limits', () => {
  const { retryPolicyMinSteps, retryPolicyMaxSteps, retryDaysMin, retryDaysMax, statementDescriptorMaxLength } = SUBSCRIPTION_SETTINGS_LIMITS;
  const steps = (count: number, days = 3) => Array.from({ length: count }, () => ({ daysAfterLastAttempt: days }));

  it('retryPolicy: from retryPolicyMinSteps to retryPolicyMaxSteps steps', () => {
    expect(parseSubscriptionSettingsChanges({ retryPolicy: steps(retryPolicyMinSteps) }).retryPolicy).toHaveLength(retryPolicyMinSteps);
    expect(parseSubscriptionSettingsChanges({ retryPolicy: steps(retryPolicyMaxSteps) }).retryPolicy).toHaveLength(retryPolicyMaxSteps);
    expect(refused(() => parseSubscriptionSettingsChanges({ retryPolicy: steps(retryPolicyMinSteps - 1) }))?.field).toBe('retryPolicy');
    expect(refused(() => parseSubscriptionSettingsChanges({ retryPolicy: steps(retryPolicyMaxSteps + 1) }))?.field).toBe('retryPolicy');
  });

  it('daysAfterLastAttempt: from retryDaysMin to retryDaysMax days', () => {
    expect(parseSubscriptionSettingsChanges({ retryPolicy: steps(1, retryDaysMin) }).retryPolicy).toEqual(steps(1, retryDaysMin));
    expect(parseSubscriptionSettingsChanges({ retryPolicy: steps(1, retryDaysMax) }).retryPolicy).toEqual(steps(1, retryDaysMax));
    expect(refused(() => parseSubscriptionSettingsChanges({ retryPolicy: steps(1, retryDaysMin - 1) }))?.field).toBe('retryPolicy.0.daysAfterLastAttempt');
    expect(refused(() => parseSubscriptionSettingsChanges({ retryPolicy: steps(1, retryDaysMax + 1) }))?.field).toBe('retryPolicy.0.daysAfterLastAttempt');
  });

  it('statementDescriptor: at most statementDescriptorMaxLength characters', () => {
    const max = statementDescriptorMaxLength;
    expect(parseSubscriptionSettingsChanges({ statementDescriptor: 'A'.repeat(max) }).statementDescriptor).toHaveLength(max);
    expect(refused(() => parseSubscriptionSettingsChanges({ statementDescriptor: 'A'.repeat(max + 1) }))?.field).toBe('statementDescriptor');
  });
});
