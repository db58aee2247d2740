/** Bodies of POST /v1/sellers for the tests: a natural person (CPF) and a legal entity (CNPJ). */
export const VALID_CPF = '529.982.247-25';
export const VALID_CNPJ = '11.222.333/0001-81';

export function naturalPerson(merchantId: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    merchantId,
    mcc: 5411,
    owner: {
      name: 'Ana Souza',
      email: 'ana@example.com',
      phoneNumber: '+55 11 98888-7777',
      birthdate: '1990-04-12',
      document: { type: 'cpf', number: VALID_CPF, country: 'BR' },
      address: { street: 'Rua A', streetNumber: '10', zipCode: '01310100', country: 'BR', state: 'SP', city: 'São Paulo', district: 'Centro' },
    },
    bankAccount: {
      holderName: 'Ana Souza',
      holderDocument: '52998224725',
      bank: '341',
      branchNumber: '1234',
      branchCheckDigit: '5',
      accountNumber: '123456',
      accountCheckDigit: '7',
      type: 'conta_corrente',
    },
    ...overrides,
  };
}

export function legalEntity(merchantId: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const base = naturalPerson(merchantId);
  return {
    ...base,
    owner: { ...(base.owner as object), document: { type: 'cnpj', number: VALID_CNPJ, country: 'BR' } },
    business: {
      name: 'Loja da Ana',
      corporateReason: 'Ana Souza Comercio LTDA',
      email: 'loja@example.com',
      annualRevenue: 120000.5,
      document: { type: 'cnpj', number: VALID_CNPJ, country: 'BR' },
      address: { street: 'Rua B', streetNumber: '20', zipCode: '01310200', country: 'BR', state: 'SP', city: 'São Paulo', district: 'Centro' },
    },
    ...overrides,
  };
}
