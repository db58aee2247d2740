import { WEBHOOK_LIMITS } from '@platform/api-model';
import { AppError } from '@platform/kit';
import { parseNewWebhook, parseWebhookChanges } from '../../src/domain/webhook';

/** The webhooks service accepts each limit of @platform/api-model (what the OpenAPI document advertises) and refuses one more. */

function refusedField(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    if (error instanceof AppError && error.kind === 'validation') return error.details?.[0]?.field;
    throw error;
  }
  return undefined;
}

const options = { allowPrivateTargets: false };

describe('webhook limits', () => {
  it('endpoint: at most endpointMaxLength characters', () => {
    const max = WEBHOOK_LIMITS.endpointMaxLength;
    const prefix = 'https://hooks.example.com/';
    const endpoint = `${prefix}${'p'.repeat(max - prefix.length)}`;
    expect(parseNewWebhook({ event: '*', endpoint }, options).endpoint).toHaveLength(max);
    expect(refusedField(() => parseNewWebhook({ event: '*', endpoint: `${endpoint}p` }, options))).toBe('endpoint');
    expect(parseWebhookChanges({ endpoint }, options).endpoint).toHaveLength(max);
    expect(refusedField(() => parseWebhookChanges({ endpoint: `${endpoint}p` }, options))).toBe('endpoint');
  });
});
