import { Malga } from 'malga';
import { apiClient, createClient, startTestPlatform, type Credentials, type TestPlatform } from './platform';

type Json = Record<string, unknown>;

describe('the malga SDK against /v1/sellers', () => {
  let platform: TestPlatform;
  let credentials: Credentials;
  let malga: Malga;
  let merchantId: string;

  beforeAll(async () => {
    platform = await startTestPlatform('e2esellsdk');
    const api = apiClient(platform.gatewayUrl);
    credentials = await createClient(platform.gatewayUrl, platform.adminToken, 'SDK Sellers');
    process.env.MALGA_API_URL = `${platform.gatewayUrl}/v1`;
    malga = new Malga({ clientId: credentials.clientId, apiKey: credentials.apiKey, options: { sandbox: true } });
    const merchant = await api<{ id: string }>('POST', '/v1/merchants', {
      auth: credentials,
      body: { mcc: '5999', name: 'SDK Sellers', providers: [{ name: 'sandbox', priority: 1, credentials: { type: 'SANDBOX' } }] },
    });
    expect(merchant.status).toBe(201);
    merchantId = merchant.body.id;
  });

  afterAll(async () => {
    delete process.env.MALGA_API_URL;
    await platform?.stop();
  });

  it('creates, finds, lists by status, updates and removes a seller', async () => {
    const payload = {
      merchantId,
      mcc: 5411,
      owner: {
        name: 'Homer Simpson',
        email: 'homer@example.com',
        birthdate: '1980-05-12',
        document: { type: 'cpf', number: '52998224725', country: 'BR' },
        address: { street: 'Evergreen Terrace', streetNumber: '742', zipCode: '01310100', country: 'BR', state: 'SP', city: 'Springfield', district: 'Suburb' },
      },
      bankAccount: {
        holderName: 'Homer Simpson',
        holderDocument: '52998224725',
        bank: '341',
        branchNumber: '1234',
        accountNumber: '123456',
        accountCheckDigit: '7',
        type: 'conta_corrente',
      },
    };
    const created = (await malga.sellers.create(payload as never)) as unknown as Json;
    expect(created).toMatchObject({ merchantId, mcc: '5411', status: 'active' });
    const id = created.id as string;
    expect(await malga.sellers.find(id)).toMatchObject({ id, owner: expect.objectContaining({ name: 'Homer Simpson' }) });
    const listed = (await malga.sellers.list({ page: 1, limit: 5, status: ['active', 'pending'] } as never)) as unknown as { items: Json[]; meta: Json };
    expect(listed.items.map((s) => s.id)).toEqual([id]);
    expect(listed.meta).toMatchObject({ totalItems: 1, currentPage: 1 });
    const updated = (await malga.sellers.update(id, { owner: { name: 'Homer J. Simpson' } } as never)) as unknown as Json;
    expect(updated.owner).toMatchObject({ name: 'Homer J. Simpson', email: 'homer@example.com' });
    await malga.sellers.remove(id, { merchantId } as never);
    expect(await malga.sellers.find(id)).toMatchObject({ id, status: 'inactive' });
  });
});
