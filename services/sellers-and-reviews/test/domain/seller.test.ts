import { AppError } from '@platform/kit';
import { isValidCnpj, isValidCpf } from '../../src/domain/documents';
import { canMoveSeller, nextSellerStatus, parseSellerInput, SELLER_STATUSES, SELLER_TRANSITIONS, stamp, statusFromLinks } from '../../src/domain/seller';
import { legalEntity, naturalPerson, VALID_CNPJ, VALID_CPF } from '../fixtures';

function detailsOf(fn: () => unknown): string[] {
  try {
    fn();
  } catch (error) {
    if (error instanceof AppError) return (error.details ?? []).map((d) => d.field);
    throw error;
  }
  throw new Error('expected a validation error');
}

describe('CPF and CNPJ', () => {
  it('accepts documents with the right check digits, with or without punctuation', () => {
    expect(isValidCpf(VALID_CPF)).toBe(true);
    expect(isValidCpf('52998224725')).toBe(true);
    expect(isValidCpf('12345678909')).toBe(true);
    expect(isValidCnpj(VALID_CNPJ)).toBe(true);
    expect(isValidCnpj('11222333000181')).toBe(true);
  });

  it('refuses a wrong check digit, a wrong length and repeated digits', () => {
    expect(isValidCpf('52998224724')).toBe(false);
    expect(isValidCpf('52998224735')).toBe(false);
    expect(isValidCpf('5299822472')).toBe(false);
    expect(isValidCpf('11111111111')).toBe(false);
    expect(isValidCnpj('11222333000182')).toBe(false);
    expect(isValidCnpj('11222333000191')).toBe(false);
    expect(isValidCnpj('00000000000000')).toBe(false);
  });
});

describe('seller input', () => {
  it('accepts a natural person without business and a legal entity with it', () => {
    expect(parseSellerInput(naturalPerson('m-1')).business).toBeUndefined();
    expect(parseSellerInput(legalEntity('m-1')).business?.corporateReason).toBe('Ana Souza Comercio LTDA');
  });

  it('names business when a legal entity has none, and the document number when its check digit is wrong', () => {
    expect(detailsOf(() => parseSellerInput(legalEntity('m-1', { business: undefined })))).toEqual(['business']);
    const badCpf = naturalPerson('m-1');
    (badCpf.owner as { document: { number: string } }).document.number = '529.982.247-24';
    expect(detailsOf(() => parseSellerInput(badCpf))).toEqual(['owner.document.number']);
  });

  it('names every missing required field by its path', () => {
    const fields = detailsOf(() => parseSellerInput({ merchantId: 'm-1', owner: { name: 'A' } }));
    expect(fields).toEqual(expect.arrayContaining(['mcc', 'owner.email', 'owner.document', 'bankAccount']));
  });
});

describe('nested objects', () => {
  it('get an id and timestamps, keep them when unchanged and move updatedAt when changed', () => {
    let n = 0;
    const newId = () => `id-${++n}`;
    const t1 = new Date('2026-01-01T00:00:00Z');
    const t2 = new Date('2026-02-01T00:00:00Z');
    const first = stamp({ name: 'A', address: { city: 'X' } }, null, t1, newId)!;
    expect(first).toMatchObject({ id: 'id-2', createdAt: t1.toISOString(), address: { id: 'id-1', city: 'X' } });
    const same = stamp({ name: 'A', address: { city: 'X' } }, first, t2, newId)!;
    expect(same).toEqual(first);
    const changed = stamp({ name: 'A', address: { city: 'Y' } }, first, t2, newId)!;
    expect(changed).toMatchObject({ id: 'id-2', createdAt: t1.toISOString(), updatedAt: t2.toISOString() });
    expect(changed.address).toMatchObject({ id: 'id-1', city: 'Y', updatedAt: t2.toISOString() });
  });
});

describe('seller status', () => {
  it('follows its provider links', () => {
    expect(statusFromLinks([])).toBe('pending');
    expect(statusFromLinks([{ status: 'pending' }])).toBe('pending');
    expect(statusFromLinks([{ status: 'active' }, { status: 'active' }])).toBe('active');
    expect(statusFromLinks([{ status: 'active' }, { status: 'pending' }])).toBe('partial');
    expect(statusFromLinks([{ status: 'active' }, { status: 'blocked' }])).toBe('blocked');
  });

  it('moves only along its table; inactive is final', () => {
    for (const to of SELLER_STATUSES) if (to !== 'inactive') expect(canMoveSeller('inactive', to)).toBe(false);
    expect(SELLER_TRANSITIONS.blocked).toContain('active');
    expect(canMoveSeller('active', 'pending')).toBe(false);
    expect(() => nextSellerStatus('active', [])).toThrow(/cannot go from active to pending/);
    expect(nextSellerStatus('blocked', [{ status: 'active' }])).toBe('active');
  });
});
