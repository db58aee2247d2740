import { randomUUID } from 'node:crypto';
import { toMerchantJson } from '@platform/api-model';
import { failureOf, merchantRequest, outboxOf, providerInput, providerSecret, startPayments, type RunningPayments, merchantsPortOf } from '../support/payments';

let running: RunningPayments;

beforeAll(async () => {
  running = await startPayments();
});

afterAll(async () => {
  await running.stop();
});

async function merchantRows(clientId: string): Promise<Array<{ id: string }>> {
  const { rows } = await running.pool.query('SELECT id FROM merchants WHERE client_id = $1', [clientId]);
  return rows;
}

describe('CreateMerchant', () => {
  it('creates a merchant with its providers, showing only the credentials type', async () => {
    const clientId = randomUUID();
    const secret = providerSecret();
    const merchant = await running.client.createMerchant(
      merchantRequest(clientId, {
        mcc: ' 5411 ',
        providers: [
          providerInput({ name: 'backup', priority: 2, credentials: { type: 'SUBACQUIRER', apiKey: secret }, options: { softDescriptor: 'LOJA' } }),
          providerInput({ name: 'main', priority: 1, credentials: { type: 'SANDBOX', apiKey: secret } }),
          providerInput({ name: 'antifraud', priority: 1, credentials: { type: 'SANDBOX_ANTIFRAUD', apiKey: secret } }),
        ],
      }),
    );
    expect(merchant).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      clientId,
      mcc: '5411',
      name: 'Loja Centro',
      merchantName: 'LOJA CENTRO',
      merchantUrl: 'https://loja.example.com',
      status: 'active',
      platformFeeEnabled: false,
      providers: [
        expect.objectContaining({ name: 'main', priority: 1, credentialsType: 'SANDBOX', merchantId: merchant.id }),
        expect.objectContaining({ name: 'antifraud', priority: 1, credentialsType: 'SANDBOX_ANTIFRAUD' }),
        expect.objectContaining({ name: 'backup', priority: 2, credentialsType: 'SUBACQUIRER', options: { softDescriptor: 'LOJA' } }),
      ],
      createdAt: expect.any(Date),
      updatedAt: expect.any(Date),
    });
    expect(JSON.stringify(merchant)).not.toContain(secret);
    expect(await running.client.getMerchant({ clientId, id: merchant.id })).toEqual(merchant);
  });

  it('keeps the credentials sealed at rest and opens them only for a charge', async () => {
    const clientId = randomUUID();
    const credentials = { type: 'SANDBOX', apiKey: providerSecret(), nested: { merchantKey: providerSecret() } };
    const merchant = await running.client.createMerchant(merchantRequest(clientId, { providers: [providerInput({ credentials })] }));
    const { rows } = await running.pool.query<{ credentials_encrypted: Buffer; options: unknown }>(
      'SELECT credentials_encrypted, options FROM providers WHERE merchant_id = $1',
      [merchant.id],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]!.credentials_encrypted.toString('latin1')).not.toContain(credentials.apiKey);
    expect(rows[0]!.credentials_encrypted.toString('hex')).not.toContain(Buffer.from(credentials.apiKey).toString('hex'));
    const loaded = await merchantsPortOf(running).loadForCharge(running.pool, clientId, merchant.id, 'credit');
    expect(loaded.providers[0]!.credentials).toEqual(credentials);
  });

  it('writes payments.merchant.created in the outbox, without credentials', async () => {
    const clientId = randomUUID();
    const secret = providerSecret();
    const merchant = await running.client.createMerchant(merchantRequest(clientId, { providers: [providerInput({ credentials: { type: 'SANDBOX', apiKey: secret } })] }));
    const events = await outboxOf(running.pool, clientId);
    expect(events.map((e) => e.subject)).toEqual(['payments.merchant.created']);
    expect(events[0]!.payload).toMatchObject({
      type: 'payments.merchant.created',
      clientId,
      data: { id: merchant.id, mcc: '5411', providers: [{ id: merchant.providers[0]!.id, credentials: { type: 'SANDBOX' }, priority: 1 }] },
    });
    expect(events[0]!.payload.data).toEqual(toMerchantJson(merchant));
    expect(JSON.stringify(events)).not.toContain(secret);
  });

  it('refuses invalid input with a detail per field and stores nothing', async () => {
    const clientId = randomUUID();
    const error = await failureOf(
      running.client.createMerchant(
        merchantRequest(clientId, {
          mcc: '54',
          merchantUrl: 'ftp://loja',
          providers: [providerInput({ name: '', priority: 0, credentials: { type: 'PAYPAL' } })],
        }),
      ),
    );
    expect(error.kind).toBe('validation');
    expect((error.details ?? []).map((d) => d.field).sort()).toEqual(['mcc', 'merchantUrl', 'providers.0.credentials.type', 'providers.0.name', 'providers.0.priority']);
    expect(await merchantRows(clientId)).toEqual([]);
    expect(await outboxOf(running.pool, clientId)).toEqual([]);
  });

  it('refuses a merchant without providers or without credentials', async () => {
    const none = await failureOf(running.client.createMerchant(merchantRequest(randomUUID(), { providers: [] })));
    expect(none.details?.map((d) => d.field)).toEqual(['providers']);
    const noCredentials = await failureOf(running.client.createMerchant(merchantRequest(randomUUID(), { providers: [providerInput({ credentials: undefined })] })));
    expect(noCredentials.details?.map((d) => d.field)).toEqual(['providers.0.credentials']);
  });

  it('refuses two payment providers with the same priority', async () => {
    const error = await failureOf(
      running.client.createMerchant(merchantRequest(randomUUID(), { providers: [providerInput({ priority: 1 }), providerInput({ name: 'other', priority: 1 })] })),
    );
    expect(error.kind).toBe('validation');
    expect(error.details?.map((d) => d.field)).toEqual(['providers.1.priority']);
  });

  it('refuses a client id that is not a UUID', async () => {
    const error = await failureOf(running.client.createMerchant(merchantRequest('client-1')));
    expect(error.kind).toBe('validation');
    expect(error.details).toEqual([{ field: 'clientId', message: 'must be a UUID' }]);
  });

  it('replays the same merchant for the same idempotency key and body', async () => {
    const clientId = randomUUID();
    const request = merchantRequest(clientId);
    const idempotencyKey = randomUUID();
    const first = await running.client.createMerchant(request, { idempotencyKey });
    const replay = await running.client.createMerchant(request, { idempotencyKey });
    expect(replay).toEqual(first);
    expect(await merchantRows(clientId)).toHaveLength(1);
    expect(await outboxOf(running.pool, clientId)).toHaveLength(1);
  });

  it('refuses the same idempotency key with other credentials', async () => {
    const clientId = randomUUID();
    const idempotencyKey = randomUUID();
    await running.client.createMerchant(merchantRequest(clientId), { idempotencyKey });
    const error = await failureOf(running.client.createMerchant(merchantRequest(clientId), { idempotencyKey }));
    expect(error.businessCode).toBe('idempotency_key_reused');
    expect(await merchantRows(clientId)).toHaveLength(1);
  });

  it('keeps no credential in clear in the idempotency record', async () => {
    const clientId = randomUUID();
    const secret = providerSecret();
    await running.client.createMerchant(merchantRequest(clientId, { providers: [providerInput({ credentials: { type: 'SANDBOX', apiKey: secret } })] }), {
      idempotencyKey: randomUUID(),
    });
    const { rows } = await running.pool.query<{ record: string }>(`SELECT row_to_json(k)::text AS record FROM idempotency_keys k WHERE client_id = $1`, [clientId]);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.record).not.toContain(secret);
    expect(rows[0]!.record).not.toContain(Buffer.from(secret).toString('hex'));
  });
});
