import { CUSTOMER_LIMITS, ADDRESS_FIELDS } from '@platform/api-model';
import { AppError } from '@platform/kit';
import { parseCustomerChanges, parseNewCustomer, type CreateCustomerInput } from '../../src/domain/customer';

/** The customers service accepts each limit of @platform/api-model (what the OpenAPI document advertises) and refuses one more. */

const valid: CreateCustomerInput = {
  name: 'Maria',
  email: 'maria@example.com',
  phoneNumber: '11988887777',
  document: { type: 'passport', number: 'AB123', country: 'BR' },
};

function refusedField(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    if (error instanceof AppError && error.kind === 'validation') return error.details?.[0]?.field;
    throw error;
  }
  return undefined;
}

/** An e-mail address of exactly `length` characters: a 64-character local part, DNS labels of at most 63. */
function emailOf(length: number): string {
  const labels: string[] = [];
  let rest = length - 65 - '.com'.length;
  while (rest > 0) {
    const size = Math.min(63, rest);
    labels.push('b'.repeat(size));
    rest -= size + 1;
  }
  return `${'a'.repeat(64)}@${labels.join('.')}.com`;
}

describe('customer limits', () => {
  it('name: at most nameMaxLength characters', () => {
    const max = CUSTOMER_LIMITS.nameMaxLength;
    expect(parseNewCustomer({ ...valid, name: 'n'.repeat(max) }).name).toHaveLength(max);
    expect(refusedField(() => parseNewCustomer({ ...valid, name: 'n'.repeat(max + 1) }))).toBe('name');
    expect(parseCustomerChanges({ name: 'n'.repeat(max) }).name).toHaveLength(max);
    expect(refusedField(() => parseCustomerChanges({ name: 'n'.repeat(max + 1) }))).toBe('name');
  });

  it('email: at most emailMaxLength characters', () => {
    const max = CUSTOMER_LIMITS.emailMaxLength;
    expect(emailOf(max)).toHaveLength(max);
    expect(parseNewCustomer({ ...valid, email: emailOf(max) }).email).toHaveLength(max);
    expect(refusedField(() => parseNewCustomer({ ...valid, email: emailOf(max + 1) }))).toBe('email');
  });

  it('phoneNumber: from phoneNumberMinLength to phoneNumberMaxLength characters', () => {
    const { phoneNumberMinLength: min, phoneNumberMaxLength: max } = CUSTOMER_LIMITS;
    expect(parseNewCustomer({ ...valid, phoneNumber: '1'.repeat(min) }).phoneNumber).toHaveLength(min);
    expect(parseNewCustomer({ ...valid, phoneNumber: '1'.repeat(max) }).phoneNumber).toHaveLength(max);
    expect(refusedField(() => parseNewCustomer({ ...valid, phoneNumber: '1'.repeat(min - 1) }))).toBe('phoneNumber');
    expect(refusedField(() => parseNewCustomer({ ...valid, phoneNumber: '1'.repeat(max + 1) }))).toBe('phoneNumber');
    expect(refusedField(() => parseCustomerChanges({ phoneNumber: '1'.repeat(max + 1) }))).toBe('phoneNumber');
  });

  it('document number: at most documentNumberMaxLength characters as sent, separators included', () => {
    const max = CUSTOMER_LIMITS.documentNumberMaxLength;
    const sent = (length: number) => `${'A'.repeat(20)}${'-'.repeat(length - 20)}`;
    expect(parseNewCustomer({ ...valid, document: { type: 'passport', number: sent(max), country: 'BR' } }).document.number).toBe('A'.repeat(20));
    expect(refusedField(() => parseNewCustomer({ ...valid, document: { type: 'passport', number: sent(max + 1), country: 'BR' } }))).toBe('document.number');
  });

  it.each(ADDRESS_FIELDS)('address.%s: at most addressFieldMaxLength characters', (field) => {
    const max = CUSTOMER_LIMITS.addressFieldMaxLength;
    expect(parseNewCustomer({ ...valid, address: { [field]: 'x'.repeat(max) } }).address?.[field]).toHaveLength(max);
    expect(refusedField(() => parseNewCustomer({ ...valid, address: { [field]: 'x'.repeat(max + 1) } }))).toBe(`address.${field}`);
    expect(parseCustomerChanges({ address: { [field]: 'x'.repeat(max) } }).address?.[field]).toHaveLength(max);
    expect(refusedField(() => parseCustomerChanges({ address: { [field]: 'x'.repeat(max + 1) } }))).toBe(`address.${field}`);
  });
});
