import { randomUUID } from 'node:crypto';
import { customerRequest, customerRowsOf, digits, failureOf, outboxOf, startCustomers, uniqueEmail, type RunningCustomers } from '../support/service';

let running: RunningCustomers;

beforeAll(async () => {
  running = await startCustomers();
});

afterAll(async () => {
  await running.stop();
});

describe('CreateCustomer', () => {
  it('creates a customer with normalised fields', async () => {
    const clientId = randomUUID();
    const customer = await running.client.createCustomer({
      clientId,
      name: ' Maria Souza ',
      email: ' Maria.Souza@Example.COM ',
      phoneNumber: '+55 (11) 99999-0000',
      document: { type: 'CPF', number: '123.456.789-09', country: '' },
      address: { city: 'São Paulo', zipCode: '01310-100', street: '' },
      force: false,
    });
    expect(customer).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      clientId,
      name: 'Maria Souza',
      email: 'maria.souza@example.com',
      phoneNumber: '+55 (11) 99999-0000',
      document: { type: 'cpf', number: '12345678909', country: 'BR' },
      address: { city: 'São Paulo', zipCode: '01310-100' },
      createdAt: expect.any(Date),
      updatedAt: expect.any(Date),
    });
    expect(await running.client.getCustomer({ clientId, id: customer.id })).toEqual(customer);
  });

  it('refuses invalid input with a detail per field', async () => {
    const error = await failureOf(
      running.client.createCustomer({
        clientId: randomUUID(),
        name: '',
        email: 'nobody',
        phoneNumber: 'call me',
        document: { type: 'cpf', number: '123', country: 'Brazil' },
        force: false,
      }),
    );
    expect(error.kind).toBe('validation');
    expect((error.details ?? []).map((d) => d.field).sort()).toEqual(['document.country', 'document.number', 'email', 'name', 'phoneNumber']);
  });

  it('refuses a create without document', async () => {
    const error = await failureOf(running.client.createCustomer(customerRequest(randomUUID(), { document: undefined })));
    expect(error.kind).toBe('validation');
    expect(error.details).toEqual([{ field: 'document', message: 'is required' }]);
  });

  it('refuses a client id that is not a UUID', async () => {
    const error = await failureOf(running.client.createCustomer(customerRequest('client-1')));
    expect(error.kind).toBe('validation');
    expect(error.details).toEqual([{ field: 'clientId', message: 'must be a UUID' }]);
  });

  it('leaves no row and no event when the create is invalid', async () => {
    const clientId = randomUUID();
    await failureOf(running.client.createCustomer(customerRequest(clientId, { email: 'broken' })));
    await failureOf(running.client.createCustomer(customerRequest(clientId, { document: { type: 'cnpj', number: '1', country: 'BR' } }), { idempotencyKey: randomUUID() }));
    expect(await customerRowsOf(running.pool, clientId)).toEqual([]);
    expect(await outboxOf(running.pool, clientId)).toEqual([]);
  });

  it('answers conflict customer_email_exists for a duplicate e-mail', async () => {
    const clientId = randomUUID();
    const first = await running.client.createCustomer(customerRequest(clientId));
    const error = await failureOf(running.client.createCustomer(customerRequest(clientId, { email: first.email.toUpperCase() })));
    expect(error.kind).toBe('conflict');
    expect(error.key).toBe('customer_email_exists');
    expect(error.message).toMatch(/email/);
    expect(await customerRowsOf(running.pool, clientId)).toHaveLength(1);
    expect((await outboxOf(running.pool, clientId)).map((e) => e.subject)).toEqual(['customers.customer.created']);
  });

  it('answers conflict customer_document_exists for a duplicate document, however it is formatted', async () => {
    const clientId = randomUUID();
    await running.client.createCustomer(customerRequest(clientId, { document: { type: 'cnpj', number: '12345678000195', country: 'BR' } }));
    const error = await failureOf(
      running.client.createCustomer(customerRequest(clientId, { document: { type: 'CNPJ', number: '12.345.678/0001-95', country: 'BR' } })),
    );
    expect(error.kind).toBe('conflict');
    expect(error.key).toBe('customer_document_exists');
    expect(error.message).toMatch(/document/);
  });

  it('allows the same document number under another document type', async () => {
    const clientId = randomUUID();
    const number = digits(11);
    await running.client.createCustomer(customerRequest(clientId, { document: { type: 'cpf', number, country: 'BR' } }));
    const other = await running.client.createCustomer(customerRequest(clientId, { document: { type: 'other', number, country: 'BR' } }));
    expect(other.document).toEqual({ type: 'other', number, country: 'BR' });
  });

  it('stores duplicates when forced', async () => {
    const clientId = randomUUID();
    const first = await running.client.createCustomer(customerRequest(clientId));
    const forced = await running.client.createCustomer(customerRequest(clientId, { email: first.email, document: first.document, force: true }));
    expect(forced.id).not.toBe(first.id);
    expect(forced.email).toBe(first.email);
    expect(forced.document).toEqual(first.document);
    expect(await customerRowsOf(running.pool, clientId)).toHaveLength(2);
    // A forced duplicate still counts for the next create that is not forced.
    const error = await failureOf(running.client.createCustomer(customerRequest(clientId, { email: first.email })));
    expect(error.key).toBe('customer_email_exists');
  });

  it('keeps uniqueness per client', async () => {
    const email = uniqueEmail();
    const document = { type: 'cpf', number: digits(11), country: 'BR' };
    const a = await running.client.createCustomer(customerRequest(randomUUID(), { email, document }));
    const b = await running.client.createCustomer(customerRequest(randomUUID(), { email, document }));
    expect(b.id).not.toBe(a.id);
  });

  it('lets exactly one of 20 concurrent creates with the same e-mail succeed', async () => {
    const clientId = randomUUID();
    const email = uniqueEmail();
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, () => running.client.createCustomer(customerRequest(clientId, { email }))),
    );
    const succeeded = results.filter((r) => r.status === 'fulfilled');
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(succeeded).toHaveLength(1);
    expect(refused.map((r) => (r.reason as { key?: string }).key)).toEqual(Array(19).fill('customer_email_exists'));
    expect(await customerRowsOf(running.pool, clientId)).toHaveLength(1);
    expect(await outboxOf(running.pool, clientId)).toHaveLength(1);
  });

  it('lets exactly one of 20 concurrent creates with the same document succeed', async () => {
    const clientId = randomUUID();
    const document = { type: 'cpf', number: digits(11), country: 'BR' };
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, () => running.client.createCustomer(customerRequest(clientId, { document }))),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(
      results.filter((r): r is PromiseRejectedResult => r.status === 'rejected').map((r) => (r.reason as { key?: string }).key),
    ).toEqual(Array(19).fill('customer_document_exists'));
  });

  it('replays the same customer for the same idempotency key and body', async () => {
    const clientId = randomUUID();
    const request = customerRequest(clientId);
    const idempotencyKey = randomUUID();
    const first = await running.client.createCustomer(request, { idempotencyKey });
    const replay = await running.client.createCustomer(request, { idempotencyKey });
    expect(replay).toEqual(first);
    expect(await customerRowsOf(running.pool, clientId)).toHaveLength(1);
    expect(await outboxOf(running.pool, clientId)).toHaveLength(1);
  });

  it('refuses the same idempotency key with another body', async () => {
    const clientId = randomUUID();
    const idempotencyKey = randomUUID();
    await running.client.createCustomer(customerRequest(clientId), { idempotencyKey });
    const error = await failureOf(running.client.createCustomer(customerRequest(clientId), { idempotencyKey }));
    expect(error.kind).toBe('business_rule');
    expect(error.businessCode).toBe('idempotency_key_reused');
    expect(await customerRowsOf(running.pool, clientId)).toHaveLength(1);
  });

  it('creates one customer per call without an idempotency key', async () => {
    const clientId = randomUUID();
    const request = customerRequest(clientId, { force: true });
    const first = await running.client.createCustomer(request);
    const second = await running.client.createCustomer(request);
    expect(second.id).not.toBe(first.id);
  });

  it('frees the e-mail and document of a deleted customer', async () => {
    const clientId = randomUUID();
    const first = await running.client.createCustomer(customerRequest(clientId));
    await running.client.deleteCustomer({ clientId, id: first.id });
    const again = await running.client.createCustomer(customerRequest(clientId, { email: first.email, document: first.document }));
    expect(again.id).not.toBe(first.id);
    expect(again.email).toBe(first.email);
  });
});
