import { customers } from '@platform/contracts';
import { ApiKeyRevokedSchema, CustomerCardLinkSchema, CustomerCardSchema, CustomerSchema, toApiKeyRevokedJson, toCustomerCardJson, toCustomerCardLinkJson, toCustomerJson } from '../src';

const at = new Date('2026-03-01T12:00:00.000Z');

describe('the customer answers', () => {
  it('are what their schema (the one the OpenAPI document publishes) says, with nothing more', () => {
    const full = toCustomerJson(
      customers.Customer.fromPartial({
        id: 'cus_1',
        clientId: 'cli_1',
        name: 'Ana',
        email: 'ana@example.com',
        phoneNumber: '+5511999999999',
        document: { type: 'cpf', number: '52998224725', country: 'BR' },
        address: { country: 'BR', city: 'São Paulo', street: 'Av. Paulista' },
        createdAt: at,
        updatedAt: at,
      }),
    );
    expect(CustomerSchema.strict().parse(full)).toEqual(full);
    expect(full.address).toMatchObject({ city: 'São Paulo', state: null, complement: null });

    const bare = toCustomerJson(customers.Customer.fromPartial({ id: 'cus_2', clientId: 'cli_1', name: 'Bia', email: 'bia@example.com', createdAt: at, updatedAt: at }));
    expect(CustomerSchema.strict().parse(bare)).toEqual(bare);
    expect([bare.phoneNumber, bare.document, bare.address]).toEqual([null, null, null]);

    const card = toCustomerCardJson(
      customers.CustomerCard.fromPartial({ id: 'card_1', status: 'active', brand: 'visa', first6digits: '411111', last4digits: '1111', expirationMonth: 12, expirationYear: 2030, createdAt: at, linkedAt: at }),
    );
    expect(CustomerCardSchema.strict().parse(card)).toEqual(card);
  });

  it('are refused by their schema when a field is missing or of another type', () => {
    const json = toCustomerJson(customers.Customer.fromPartial({ id: 'cus_3', clientId: 'cli_1', name: 'Caio', email: 'caio@example.com', createdAt: at, updatedAt: at }));
    expect(CustomerSchema.safeParse({ ...json, createdAt: 'yesterday' }).success).toBe(false);
    expect(CustomerSchema.safeParse({ ...json, address: { country: 'BR' } }).success).toBe(false);
  });
});

describe('the event data without an answer of their own', () => {
  it('is what its schema says, with nothing more', () => {
    const link = toCustomerCardLinkJson('cus_1', { id: 'card_1', brand: 'visa', last4digits: '1111' });
    expect(CustomerCardLinkSchema.strict().parse(link)).toEqual(link);
    const revoked = toApiKeyRevokedJson({ keyId: 'key_1', kind: 'secret', revokedAt: at });
    expect(ApiKeyRevokedSchema.strict().parse(revoked)).toEqual(revoked);
  });
});
