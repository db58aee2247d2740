import { MAX_TOKEN_LIFETIME_SECONDS, parseClientTokenRequest, tokenExpiry } from '../../src/domain/clientTokens';
import { failure, fieldsOf } from '../support/fixtures';

describe('parseClientTokenRequest', () => {
  it('accepts "*" and resource names, without duplicates', () => {
    expect(parseClientTokenRequest({ scope: ['cards', 'tokens', 'cards'], expires: 600 })).toEqual({ scopes: ['cards', 'tokens'], expires: 600 });
    expect(parseClientTokenRequest({ scope: ['*'], expires: 0 })).toEqual({ scopes: ['*'], expires: 0 });
    expect(parseClientTokenRequest({ scope: ['prepayment'], expires: MAX_TOKEN_LIFETIME_SECONDS }).expires).toBe(31_536_000);
  });

  it('refuses an empty scope', async () => {
    expect(fieldsOf(await failure(() => parseClientTokenRequest({ scope: [], expires: 60 })))).toEqual(['scope']);
  });

  it('names the bad scope entry by its index', async () => {
    const error = await failure(() => parseClientTokenRequest({ scope: ['cards', 'admin'], expires: 60 }));
    expect(error.kind).toBe('validation');
    expect(fieldsOf(error)).toEqual(['scope.1']);
  });

  it.each([-1, 31_536_001, 1.5])('refuses expires %p', async (expires) => {
    expect(fieldsOf(await failure(() => parseClientTokenRequest({ scope: ['cards'], expires })))).toEqual(['expires']);
  });

  it('computes the expiry, none for 0', () => {
    const at = new Date('2025-01-01T00:00:00Z');
    expect(tokenExpiry(at, 0)).toBeNull();
    expect(tokenExpiry(at, 90)).toEqual(new Date('2025-01-01T00:01:30Z'));
  });
});
