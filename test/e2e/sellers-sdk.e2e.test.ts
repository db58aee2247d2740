import { Malga, type SellerCreatePayload } from 'malga';
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
    credentials = await createClient(platform.adminUrl, platform.adminToken, 'SDK Sellers');
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

  // The SDK's type and documented example send metadata as a list of objects (`Record<string, string>[]`).
  const sdkMetadata: NonNullable<SellerCreatePayload['metadata']> = [{ key: '768093', value: 'Additional information' }];

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
      metadata: sdkMetadata,
    };
    const created = await malga.sellers.create(payload as never);
    expect(created).toMatchObject({ merchantId, mcc: '5411', status: 'active', metadata: sdkMetadata });
    const id = created.id;
    expect(await malga.sellers.find(id)).toMatchObject({ id, owner: expect.objectContaining({ name: 'Homer Simpson' }), metadata: sdkMetadata });
    const listed = await malga.sellers.list({ page: 1, limit: 5, status: ['active', 'pending'], email: 'homer@example.com' });
    expect(listed.items.map((s) => s.id)).toEqual([id]);
    expect(listed.items[0]!.metadata).toEqual(sdkMetadata);
    expect(listed.meta).toMatchObject({ totalItems: 1, currentPage: 1 });
    const updated = (await malga.sellers.update(id, { owner: { name: 'Homer J. Simpson' } } as never)) as unknown as Json;
    expect(updated.owner).toMatchObject({ name: 'Homer J. Simpson', email: 'homer@example.com' });
    expect(updated.metadata).toEqual(sdkMetadata);
    const relabeled: SellerCreatePayload['metadata'] = [{ key: '768093', value: 'Changed' }, { key: 'store', value: '42' }];
    const changed = await malga.sellers.update(id, { metadata: relabeled } as never);
    expect(changed.metadata).toEqual(relabeled);
    await malga.sellers.remove(id, { merchantId });
    expect(await malga.sellers.find(id)).toMatchObject({ id, status: 'inactive', metadata: relabeled });
  });

  it('keeps the object form of metadata the description documents, over the same routes', async () => {
    const created = await malga.sellers.create({
      merchantId,
      mcc: 5411,
      owner: {
        name: 'Marge Simpson',
        email: 'marge@example.com',
        document: { type: 'cpf', number: '11144477735', country: 'BR' },
      },
      bankAccount: { holderName: 'Marge Simpson', holderDocument: '11144477735', bank: '341', branchNumber: '1234', accountNumber: '654321', accountCheckDigit: '1', type: 'conta_corrente' },
      metadata: { erpCode: 'A-17' },
    } as never);
    expect(created.metadata).toEqual({ erpCode: 'A-17' });
    const merged = await malga.sellers.update(created.id, { metadata: { region: 'south' } } as never);
    expect(merged.metadata).toEqual({ erpCode: 'A-17', region: 'south' });
    expect((await malga.sellers.find(created.id)).metadata).toEqual({ erpCode: 'A-17', region: 'south' });
    await malga.sellers.remove(created.id, { merchantId });
  });
});
