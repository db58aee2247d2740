import { parseClientChanges, parseNewClient } from '../../src/domain/clients';
import { failure, fieldsOf } from '../support/fixtures';

describe('parseNewClient', () => {
  it('accepts a named sandbox or live client and trims the name', () => {
    expect(parseNewClient({ name: '  Acme  ', environment: 'live', prepaymentEnabled: true })).toEqual({
      name: 'Acme',
      environment: 'live',
      prepaymentEnabled: true,
    });
  });

  it('names every bad field', async () => {
    const error = await failure(() => parseNewClient({ name: '   ', environment: 'production', prepaymentEnabled: false }));
    expect(error.kind).toBe('validation');
    expect(fieldsOf(error).sort()).toEqual(['environment', 'name']);
  });
});

describe('parseClientChanges', () => {
  it('keeps only the given fields', () => {
    expect(parseClientChanges({ prepaymentEnabled: false })).toEqual({ prepaymentEnabled: false });
    expect(parseClientChanges({ name: 'New' })).toEqual({ name: 'New' });
  });

  it('refuses an update with no field as a validation error', async () => {
    const error = await failure(() => parseClientChanges({}));
    expect(error.kind).toBe('validation');
    expect(fieldsOf(error)).toEqual(['name', 'prepaymentEnabled']);
  });

  it('refuses an empty name', async () => {
    expect(fieldsOf(await failure(() => parseClientChanges({ name: '' })))).toEqual(['name']);
  });
});
