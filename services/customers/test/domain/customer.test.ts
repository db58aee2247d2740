import { AppError, isUuid, requireClientId } from '@platform/kit';
import { isCountryCode } from '../../src/domain/countries';
import {
  applyChanges,
  mergeAddress,
  normaliseDocumentNumber,
  normaliseEmail,
  normaliseListFilters,
  parseCustomerChanges,
  parseNewCustomer,
  type CreateCustomerInput,
  type Customer,
} from '../../src/domain/customer';

const valid: CreateCustomerInput = {
  name: 'Maria Souza',
  email: 'maria@example.com',
  phoneNumber: '+55 (11) 99999-0000',
  document: { type: 'cpf', number: '12345678909', country: 'BR' },
};

function validationOf(fn: () => unknown): AppError {
  try {
    fn();
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected a validation error');
}

function fieldsOf(error: AppError): string[] {
  return (error.details ?? []).map((d) => d.field).sort();
}

describe('customer normalisation', () => {
  it('trims and lower-cases e-mails', () => {
    expect(normaliseEmail('  Maria.Souza@Example.COM ')).toBe('maria.souza@example.com');
  });

  it('strips the separators of CPF and CNPJ numbers', () => {
    expect(normaliseDocumentNumber('123.456.789-09')).toBe('12345678909');
    expect(normaliseDocumentNumber('12.345.678/0001-95')).toBe('12345678000195');
    expect(normaliseDocumentNumber(' ab 123 ')).toBe('AB123');
  });

  it('normalises every field of a new customer', () => {
    const customer = parseNewCustomer({
      name: '  Maria Souza ',
      email: ' MARIA@Example.com ',
      phoneNumber: ' +55 11 99999-0000 ',
      document: { type: 'CPF', number: '123.456.789-09', country: '' },
      address: { city: ' São Paulo ', street: '', zipCode: '01310-100' },
    });
    expect(customer).toEqual({
      name: 'Maria Souza',
      email: 'maria@example.com',
      phoneNumber: '+55 11 99999-0000',
      document: { type: 'cpf', number: '12345678909', country: 'BR' },
      address: { city: 'São Paulo', zipCode: '01310-100' },
    });
  });

  it('lower-cases the document type and upper-cases the country', () => {
    const customer = parseNewCustomer({ ...valid, document: { type: 'Passport', number: 'x1234567', country: 'pt' } });
    expect(customer.document).toEqual({ type: 'passport', number: 'X1234567', country: 'PT' });
  });

  it('accepts a CNPJ of 14 digits', () => {
    expect(parseNewCustomer({ ...valid, document: { type: 'cnpj', number: '12.345.678/0001-95', country: 'BR' } }).document.number).toBe('12345678000195');
  });

  it('keeps no address when none of its fields has a value', () => {
    expect(parseNewCustomer({ ...valid, address: { city: '  ' } }).address).toBeNull();
    expect(parseNewCustomer(valid).address).toBeNull();
  });

  it('drops fields that are not part of an address', () => {
    const input = { ...valid, address: { city: 'Recife', planet: 'Earth' } as unknown as CreateCustomerInput['address'] };
    expect(parseNewCustomer(input).address).toEqual({ city: 'Recife' });
  });
});

describe('customer validation', () => {
  it('names every invalid field', () => {
    const error = validationOf(() =>
      parseNewCustomer({
        name: ' ',
        email: 'not-an-email',
        phoneNumber: '12ab',
        document: { type: 'rg', number: '1', country: 'XX' },
      }),
    );
    expect(error.kind).toBe('validation');
    expect(fieldsOf(error)).toEqual(['document.country', 'document.type', 'email', 'name', 'phoneNumber']);
  });

  it('requires the document', () => {
    const error = validationOf(() => parseNewCustomer({ ...valid, document: undefined }));
    expect(error.details).toEqual([{ field: 'document', message: 'is required' }]);
  });

  it.each([
    ['cpf', '1234567890', 'must be 11 digits for cpf'],
    ['cpf', '123456789012', 'must be 11 digits for cpf'],
    ['cpf', '1234567890a', 'must be 11 digits for cpf'],
    ['cnpj', '12345678909', 'must be 14 digits for cnpj'],
    ['passport', '', 'must be 1 to 30 letters or digits'],
    ['other', 'AB#12', 'must be 1 to 30 letters or digits'],
  ])('refuses %s number %j', (type, number, message) => {
    const error = validationOf(() => parseNewCustomer({ ...valid, document: { type, number, country: 'BR' } }));
    expect(error.details).toEqual([{ field: 'document.number', message }]);
  });

  it('refuses a name longer than 200 characters and accepts 200', () => {
    expect(parseNewCustomer({ ...valid, name: 'a'.repeat(200) }).name).toHaveLength(200);
    expect(fieldsOf(validationOf(() => parseNewCustomer({ ...valid, name: 'a'.repeat(201) })))).toEqual(['name']);
  });

  it.each(['1234567', '1'.repeat(21), '+55 11 9999.0000', 'abcdefghij'])('refuses phone number %j', (phoneNumber) => {
    expect(fieldsOf(validationOf(() => parseNewCustomer({ ...valid, phoneNumber })))).toEqual(['phoneNumber']);
  });

  it.each(['12345678', '(11) 9999-0000', '+1 (555) 010-9999'])('accepts phone number %j', (phoneNumber) => {
    expect(parseNewCustomer({ ...valid, phoneNumber }).phoneNumber).toBe(phoneNumber);
  });

  it.each(['a@b', 'two words@example.com', '@example.com', 'maria@'])('refuses e-mail %j', (email) => {
    expect(fieldsOf(validationOf(() => parseNewCustomer({ ...valid, email })))).toEqual(['email']);
  });

  it('accepts only assigned ISO 3166 alpha-2 countries', () => {
    expect(isCountryCode('BR')).toBe(true);
    expect(isCountryCode('US')).toBe(true);
    expect(isCountryCode('UK')).toBe(false);
    expect(isCountryCode('ZZ')).toBe(false);
    expect(fieldsOf(validationOf(() => parseNewCustomer({ ...valid, document: { type: 'cpf', number: '12345678909', country: 'BRA' } })))).toEqual([
      'document.country',
    ]);
  });

  it('refuses a client id that is not a UUID', () => {
    expect(validationOf(() => requireClientId('client-1')).details).toEqual([{ field: 'clientId', message: 'must be a UUID' }]);
    expect(requireClientId('6F9619FF-8B86-D011-B42D-00CF4FC964FF')).toBe('6f9619ff-8b86-d011-b42d-00cf4fc964ff');
  });

  it('recognises UUIDs only in their canonical form', () => {
    expect(isUuid('6f9619ff-8b86-d011-b42d-00cf4fc964ff')).toBe(true);
    expect(isUuid('6f9619ff8b86d011b42d00cf4fc964ff')).toBe(false);
    expect(isUuid("' OR 1=1 --")).toBe(false);
    expect(isUuid('')).toBe(false);
  });
});

describe('customer changes', () => {
  it('refuses an update without any field', () => {
    expect(validationOf(() => parseCustomerChanges({})).kind).toBe('validation');
    expect(validationOf(() => parseCustomerChanges({ address: {} })).kind).toBe('validation');
  });

  it('validates the fields it changes', () => {
    expect(fieldsOf(validationOf(() => parseCustomerChanges({ name: '', phoneNumber: 'x' })))).toEqual(['name', 'phoneNumber']);
  });

  it('turns an empty address field into a removal', () => {
    expect(parseCustomerChanges({ address: { street: 'Rua Nova', complement: '' } })).toEqual({
      address: { street: 'Rua Nova', complement: null },
    });
  });

  it('merges an address field by field', () => {
    const current = { city: 'Recife', street: 'Rua Velha', complement: 'apto 1' };
    expect(mergeAddress(current, { street: 'Rua Nova', complement: null })).toEqual({ city: 'Recife', street: 'Rua Nova' });
    expect(mergeAddress(null, { city: 'Olinda' })).toEqual({ city: 'Olinda' });
    expect(mergeAddress({ city: 'Recife' }, { city: null })).toBeNull();
  });

  it('applies only the changed fields and moves updatedAt', () => {
    const customer: Customer = {
      id: '6f9619ff-8b86-d011-b42d-00cf4fc964ff',
      clientId: '0b0f4c3e-5d1a-4a4e-9a43-3a1b3f1b8b55',
      name: 'Maria',
      email: 'maria@example.com',
      phoneNumber: '12345678',
      document: { type: 'cpf', number: '12345678909', country: 'BR' },
      address: { city: 'Recife', street: 'Rua Velha' },
      createdAt: new Date('2024-01-01T00:00:00Z'),
      updatedAt: new Date('2024-01-01T00:00:00Z'),
      deletedAt: null,
    };
    const at = new Date('2024-02-01T00:00:00Z');
    expect(applyChanges(customer, { phoneNumber: '87654321', address: { street: 'Rua Nova' } }, at)).toEqual({
      ...customer,
      phoneNumber: '87654321',
      address: { city: 'Recife', street: 'Rua Nova' },
      updatedAt: at,
    });
  });
});

describe('list filters', () => {
  it('normalises filters like the stored values and ignores empty ones', () => {
    expect(
      normaliseListFilters({ id: ' 6F9619FF-8B86-D011-B42D-00CF4FC964FF ', documentType: 'CPF', documentNumber: '123.456.789-09', email: ' A@B.COM' }),
    ).toEqual({ id: '6f9619ff-8b86-d011-b42d-00cf4fc964ff', documentType: 'cpf', documentNumber: '12345678909', email: 'a@b.com' });
    expect(normaliseListFilters({ email: '', documentType: ' ' })).toEqual({});
  });
});
