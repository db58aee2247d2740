import { toSubscriptionSettingsJson } from '@platform/api-model';
import { randomUUID } from 'node:crypto';
import { failure, fieldsOf } from '../support/fixtures';
import { outboxEvents } from '../support/database';
import { newClient, startSettings, type SettingsUnderTest } from '../support/service';

let settings: SettingsUnderTest;

beforeAll(async () => {
  settings = await startSettings();
});

afterAll(async () => {
  await settings.stop();
});

const DEFAULT_RETRIES = [{ daysAfterLastAttempt: 1 }, { daysAfterLastAttempt: 3 }, { daysAfterLastAttempt: 5 }];

describe('GetSubscriptionSettings', () => {
  it('returns the defaults while nothing is stored', async () => {
    const { clientId } = await newClient(settings.client);
    expect(await settings.client.getSubscriptionSettings({ clientId })).toEqual({
      clientId,
      retryPolicy: DEFAULT_RETRIES,
      cancelAfterAllRetries: false,
      statementDescriptor: '',
      createdAt: undefined,
      updatedAt: undefined,
    });
  });

  it('answers not_found for an unknown client', async () => {
    expect((await failure(settings.client.getSubscriptionSettings({ clientId: randomUUID() }))).kind).toBe('not_found');
  });
});

describe('UpdateSubscriptionSettings', () => {
  it('applies the given fields onto the defaults, then onto the stored settings', async () => {
    const { clientId } = await newClient(settings.client);
    const first = await settings.client.updateSubscriptionSettings({ clientId, statementDescriptor: 'ACME*PLAN' });
    expect(first).toMatchObject({ clientId, retryPolicy: DEFAULT_RETRIES, cancelAfterAllRetries: false, statementDescriptor: 'ACME*PLAN' });
    expect(first.createdAt).toBeInstanceOf(Date);

    settings.clock.advanceSeconds(30);
    const second = await settings.client.updateSubscriptionSettings({
      clientId,
      retryPolicy: { steps: [{ daysAfterLastAttempt: 2 }, { daysAfterLastAttempt: 7 }] },
      cancelAfterAllRetries: true,
    });
    expect(second).toMatchObject({
      retryPolicy: [{ daysAfterLastAttempt: 2 }, { daysAfterLastAttempt: 7 }],
      cancelAfterAllRetries: true,
      statementDescriptor: 'ACME*PLAN',
      createdAt: first.createdAt,
    });
    expect(second.updatedAt!.getTime() - first.updatedAt!.getTime()).toBe(30_000);
    expect(await settings.client.getSubscriptionSettings({ clientId })).toEqual(second);

    const events = await outboxEvents(settings.pool, clientId, 'settings.subscription_settings.updated');
    expect(events.map((e) => e.data.statementDescriptor)).toEqual(['ACME*PLAN', 'ACME*PLAN']);
    expect(events[1]!.data).toMatchObject({ cancelAfterAllRetries: true, retryPolicy: [{ daysAfterLastAttempt: 2 }, { daysAfterLastAttempt: 7 }] });
    expect(events[1]!.data).toEqual(toSubscriptionSettingsJson(second));
  });

  it('clears the statement descriptor when it is sent empty', async () => {
    const { clientId } = await newClient(settings.client);
    await settings.client.updateSubscriptionSettings({ clientId, statementDescriptor: 'ACME' });
    expect((await settings.client.updateSubscriptionSettings({ clientId, statementDescriptor: '' })).statementDescriptor).toBe('');
  });

  it.each([
    [{ retryPolicy: { steps: [] } }, ['retryPolicy']],
    [{ retryPolicy: { steps: Array.from({ length: 11 }, () => ({ daysAfterLastAttempt: 1 })) } }, ['retryPolicy']],
    [{ retryPolicy: { steps: [{ daysAfterLastAttempt: 31 }] } }, ['retryPolicy.0.daysAfterLastAttempt']],
    [{ retryPolicy: { steps: [{ daysAfterLastAttempt: 1 }, { daysAfterLastAttempt: 0 }] } }, ['retryPolicy.1.daysAfterLastAttempt']],
    [{ statementDescriptor: 'THIS DESCRIPTOR IS TOO LONG' }, ['statementDescriptor']],
    [{ statementDescriptor: 'ACME_PLAN' }, ['statementDescriptor']],
  ])('refuses %p and stores nothing', async (change, fields) => {
    const { clientId } = await newClient(settings.client);
    const error = await failure(settings.client.updateSubscriptionSettings({ clientId, ...change }));
    expect(error.kind).toBe('validation');
    expect(fieldsOf(error)).toEqual(fields);
    expect((await settings.client.getSubscriptionSettings({ clientId })).createdAt).toBeUndefined();
    expect(await outboxEvents(settings.pool, clientId)).toHaveLength(1);
  });

  it('answers business_rule no_effective_fields for an update with no field', async () => {
    const { clientId } = await newClient(settings.client);
    expect(await failure(settings.client.updateSubscriptionSettings({ clientId }))).toMatchObject({
      kind: 'business_rule',
      businessCode: 'no_effective_fields',
    });
  });

  it('answers not_found for an unknown client and writes no event', async () => {
    const clientId = randomUUID();
    expect((await failure(settings.client.updateSubscriptionSettings({ clientId, cancelAfterAllRetries: true }))).kind).toBe('not_found');
    expect(await outboxEvents(settings.pool, clientId)).toEqual([]);
  });
});
