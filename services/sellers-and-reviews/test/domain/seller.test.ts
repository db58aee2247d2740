import { AppError } from '@platform/kit';
import { isValidCnpj, isValidCpf } from '../../src/domain/documents';
import { canMoveSeller, nextSellerStatus, parseSellerInput, SELLER_STATUSES, SELLER_TRANSITIONS, stamp, statusFromLinks } from '../../src/domain/seller';
import { legalEntity, naturalPerson, VALID_CNPJ, VALID_CPF } from '../fixtures';

/** The service's clock in these tests: rules about the past and the future read it, never the wall clock. */
const NOW = new Date('2026-05-01T12:00:00.000Z');

function messagesOf(fn: () => unknown): string[] {
  try {
    fn();
  } catch (error) {
    if (error instanceof AppError) return (error.details ?? []).map((d) => `${d.field}: ${d.message}`);
    throw error;
  }
  throw new Error('expected a validation error');
}

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
    expect(parseSellerInput(naturalPerson('m-1'), NOW).business).toBeUndefined();
    expect(parseSellerInput(legalEntity('m-1'), NOW).business?.corporateReason).toBe('Ana Souza Comercio LTDA');
  });

  it('names business when a legal entity has none, and the document number when its check digit is wrong', () => {
    expect(detailsOf(() => parseSellerInput(legalEntity('m-1', { business: undefined }), NOW))).toEqual(['business']);
    const badCpf = naturalPerson('m-1');
    (badCpf.owner as { document: { number: string } }).document.number = '529.982.247-24';
    expect(detailsOf(() => parseSellerInput(badCpf, NOW))).toEqual(['owner.document.number']);
  });

  it('takes a birthdate only as a real date in the past, from 1900', () => {
    const withBirthdate = (birthdate: unknown) => {
      const body = naturalPerson('m-1');
      (body.owner as Record<string, unknown>).birthdate = birthdate;
      return body;
    };
    for (const birthdate of ['0000-00-00', '2026-02-30', '12/04/1990', 19900412]) {
      expect(messagesOf(() => parseSellerInput(withBirthdate(birthdate), NOW))).toEqual([
        typeof birthdate === 'number' ? 'owner.birthdate: must be a date' : 'owner.birthdate: must be a date (YYYY-MM-DD)',
      ]);
    }
    for (const birthdate of ['2999-01-01', '2026-05-01', '2026-12-31', '1899-12-31', '0001-01-01']) {
      expect(messagesOf(() => parseSellerInput(withBirthdate(birthdate), NOW))).toEqual(['owner.birthdate: must be a date in the past, from 1900-01-01']);
    }
    expect(parseSellerInput(withBirthdate('1900-01-01'), NOW).owner.birthdate).toBe('1900-01-01');
    expect(parseSellerInput(withBirthdate('2026-04-30'), NOW).owner.birthdate).toBe('2026-04-30');
  });

  it('takes an opening date only as a real date from 1900 and not after today', () => {
    const opened = (openingDate: string) => {
      const body = legalEntity('m-1');
      (body.business as Record<string, unknown>).openingDate = openingDate;
      return body;
    };
    expect(messagesOf(() => parseSellerInput(opened('2999-01-01'), NOW))).toEqual(['business.openingDate: must be a date from 1900-01-01, not after today']);
    expect(messagesOf(() => parseSellerInput(opened('0001-01-01'), NOW))).toEqual(['business.openingDate: must be a date from 1900-01-01, not after today']);
    expect(messagesOf(() => parseSellerInput(opened('2026-13-01'), NOW))).toEqual(['business.openingDate: must be a date (YYYY-MM-DD)']);
    expect(parseSellerInput(opened('2026-05-01'), NOW).business?.openingDate).toBe('2026-05-01');
  });

  it('takes a transfer day in its documented range: 0 daily, 1 to 5 weekly, 1 to 31 monthly', () => {
    const policy = (transferPolicy: Record<string, unknown>) => naturalPerson('m-1', { transferPolicy });
    const refused = (transferPolicy: Record<string, unknown>) => messagesOf(() => parseSellerInput(policy(transferPolicy), NOW));
    for (const transferDay of [-1, 32, 1.5, '-3', 'monday', Number.NaN]) {
      expect(refused({ transferDay })).toEqual(['transferPolicy.transferDay: must be a whole number from 0 to 31']);
    }
    expect(refused({ transferDay: 6, transferInterval: 'weekly' })).toEqual(['transferPolicy.transferDay: must be from 1 (Monday) to 5 (Friday) for a weekly interval']);
    expect(refused({ transferDay: 0, transferInterval: 'monthly' })).toEqual(['transferPolicy.transferDay: must be from 1 to 31 for a monthly interval']);
    expect(refused({ transferDay: 3, transferInterval: 'daily' })).toEqual(['transferPolicy.transferDay: must be 0 for a daily interval']);
    for (const transferPolicy of [
      { transferDay: 0, transferInterval: 'daily' },
      { transferDay: 5, transferInterval: 'weekly' },
      { transferDay: '31', transferInterval: 'monthly' },
      { transferDay: 15 },
      { transferDay: '' },
    ]) {
      expect(parseSellerInput(policy(transferPolicy), NOW).transferPolicy).toMatchObject(transferPolicy);
    }
  });

  it('names every missing required field by its path', () => {
    const fields = detailsOf(() => parseSellerInput({ merchantId: 'm-1', owner: { name: 'A' } }, NOW));
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
