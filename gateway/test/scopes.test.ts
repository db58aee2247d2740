import { SCOPE_RESOURCES } from '@platform/api-model';
import { SERVICES } from '@platform/catalog';

describe('key scopes', () => {
  it('every route resource of every catalog service is a scope a public key may name', () => {
    const scopes = SERVICES.flatMap((s) => [...s.scopes]);
    expect(scopes.filter((scope) => !(SCOPE_RESOURCES as readonly string[]).includes(scope))).toEqual([]);
  });
});
