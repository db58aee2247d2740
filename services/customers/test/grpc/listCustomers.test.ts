import { randomUUID } from 'node:crypto';
import type { customers } from '@platform/contracts';
import { customerRequest, failureOf, startCustomers, type RunningCustomers } from '../support/service';

let running: RunningCustomers;

beforeAll(async () => {
  running = await startCustomers();
});

afterAll(async () => {
  await running.stop();
});

async function createMany(clientId: string, count: number): Promise<customers.Customer[]> {
  const created: customers.Customer[] = [];
  for (let i = 0; i < count; i++) created.push(await running.client.createCustomer(customerRequest(clientId, { name: `Customer ${i}` })));
  return created;
}

describe('ListCustomers', () => {
  const clientId = randomUUID();
  let created: customers.Customer[];

  beforeAll(async () => {
    created = await createMany(clientId, 12);
  });

  it('lists newest first with 10 per page by default', async () => {
    const page = await running.client.listCustomers({ clientId });
    expect(page.items.map((c) => c.id)).toEqual(created.slice(2).reverse().map((c) => c.id));
    expect(page.meta).toEqual({ itemCount: 10, totalItems: 12, itemsPerPage: 10, totalPages: 2, currentPage: 1 });
  });

  it('lists oldest first when sort is ASC', async () => {
    const page = await running.client.listCustomers({ clientId, page: { page: 1, limit: 3, sort: 'ASC' } });
    expect(page.items.map((c) => c.id)).toEqual(created.slice(0, 3).map((c) => c.id));
  });

  it('answers the meta of a later page', async () => {
    const page = await running.client.listCustomers({ clientId, page: { page: 3, limit: 5, sort: '' } });
    expect(page.items.map((c) => c.id)).toEqual([created[1]!.id, created[0]!.id]);
    expect(page.meta).toEqual({ itemCount: 2, totalItems: 12, itemsPerPage: 5, totalPages: 3, currentPage: 3 });
  });

  it('answers an empty page past the end with the real total', async () => {
    const page = await running.client.listCustomers({ clientId, page: { page: 9, limit: 5, sort: '' } });
    expect(page.items).toEqual([]);
    expect(page.meta).toEqual({ itemCount: 0, totalItems: 12, itemsPerPage: 5, totalPages: 3, currentPage: 9 });
  });

  it('caps the page size at 100', async () => {
    const page = await running.client.listCustomers({ clientId, page: { page: 1, limit: 500, sort: '' } });
    expect(page.meta?.itemsPerPage).toBe(100);
    expect(page.items).toHaveLength(12);
  });

  it('filters by id', async () => {
    const target = created[4]!;
    const page = await running.client.listCustomers({ clientId, id: target.id });
    expect(page.items).toEqual([target]);
    expect(page.meta?.totalItems).toBe(1);
  });

  it('answers an empty list for a malformed id filter', async () => {
    const page = await running.client.listCustomers({ clientId, id: 'not-a-uuid' });
    expect(page.items).toEqual([]);
    expect(page.meta?.totalItems).toBe(0);
  });

  it('filters by e-mail, matched on the normalised value', async () => {
    const target = created[7]!;
    const page = await running.client.listCustomers({ clientId, email: `  ${target.email.toUpperCase()} ` });
    expect(page.items).toEqual([target]);
  });

  it('filters by document type and number, matched on the normalised values', async () => {
    const other = randomUUID();
    const cpf = await running.client.createCustomer(customerRequest(other, { document: { type: 'cpf', number: '123.456.789-09', country: 'BR' } }));
    const cnpj = await running.client.createCustomer(customerRequest(other, { document: { type: 'cnpj', number: '12345678000195', country: 'BR' } }));
    expect((await running.client.listCustomers({ clientId: other, documentNumber: '123.456.789-09' })).items).toEqual([cpf]);
    expect((await running.client.listCustomers({ clientId: other, documentType: 'CNPJ' })).items).toEqual([cnpj]);
    expect((await running.client.listCustomers({ clientId: other, documentType: 'cpf', documentNumber: '12.345.678/0001-95' })).items).toEqual([]);
    expect((await running.client.listCustomers({ clientId: other, documentType: 'cnpj', documentNumber: '12.345.678/0001-95' })).items).toEqual([cnpj]);
  });

  it('leaves out deleted customers', async () => {
    const other = randomUUID();
    const [kept, removed] = await createMany(other, 2);
    await running.client.deleteCustomer({ clientId: other, id: removed!.id });
    const page = await running.client.listCustomers({ clientId: other });
    expect(page.items).toEqual([kept]);
    expect(page.meta?.totalItems).toBe(1);
    expect((await running.client.listCustomers({ clientId: other, id: removed!.id })).items).toEqual([]);
  });

  it("never lists another client's customers", async () => {
    const stranger = randomUUID();
    const page = await running.client.listCustomers({ clientId: stranger, email: created[0]!.email });
    expect(page.items).toEqual([]);
    expect((await running.client.listCustomers({ clientId: stranger })).meta?.totalItems).toBe(0);
  });

  it('refuses a client id that is not a UUID', async () => {
    expect((await failureOf(running.client.listCustomers({ clientId: 'x' }))).kind).toBe('validation');
  });
});
