import { SAMPLE } from '../../openapi/samples';
import type { z } from '../../openapi/zod';
import type { CreateCustomerBody, CustomerSchema, UpdateCustomerBody } from './schemas';

export const CREATE_CUSTOMER: z.input<typeof CreateCustomerBody> = {
  name: 'Ana Souza',
  email: 'ana@example.com',
  phoneNumber: '+55 11 99999-0000',
  document: { type: 'cpf', number: '123.456.789-09', country: 'BR' },
  address: { street: 'Av. Paulista', streetNumber: '1000', city: 'São Paulo', state: 'SP', zipCode: '01310100', country: 'BR' },
};

export const CUSTOMER: z.input<typeof CustomerSchema> = {
  id: SAMPLE.customerId,
  clientId: SAMPLE.clientId,
  name: 'Ana Souza',
  email: 'ana@example.com',
  phoneNumber: '+55 11 99999-0000',
  document: { type: 'cpf', number: '12345678909', country: 'BR' },
  address: { country: 'BR', state: 'SP', city: 'São Paulo', district: null, zipCode: '01310100', street: 'Av. Paulista', streetNumber: '1000', complement: null },
  createdAt: SAMPLE.createdAt,
  updatedAt: SAMPLE.createdAt,
};

export const UPDATE_CUSTOMER: z.input<typeof UpdateCustomerBody> = { name: 'Ana M. Souza', address: { complement: 'Sala 5', district: '' } };

export const UPDATED_CUSTOMER: z.input<typeof CustomerSchema> = {
  ...CUSTOMER,
  name: 'Ana M. Souza',
  address: { country: 'BR', state: 'SP', city: 'São Paulo', district: null, zipCode: '01310100', street: 'Av. Paulista', streetNumber: '1000', complement: 'Sala 5' },
  updatedAt: SAMPLE.updatedAt,
};
