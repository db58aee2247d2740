import { cardNumberEnding, eventually } from '@platform/testkit';
import { apiClient, createClient, naturalPerson, startTestPlatform, type Credentials, type TestPlatform } from './platform';

type Json = Record<string, unknown>;
type ErrorBody = { error: { code: number; details?: Array<{ field: string }> } };
type SellerBody = Json & { id: string; status: string; owner: Json; business: Json | null; providers: Array<{ status: string; providerType: string }> };

const CNPJ = '11.222.333/0001-81';

function legalEntity(merchantId: string): Json {
  const base = naturalPerson(merchantId, 'loja@example.com');
  return {
    ...base,
    owner: { ...(base.owner as Json), document: { type: 'cnpj', number: CNPJ, country: 'BR' } },
    business: { name: 'Loja da Ana', corporateReason: 'Ana Souza Comercio LTDA', document: { type: 'cnpj', number: CNPJ, country: 'BR' } },
  };
}

describe('REST /v1/sellers through the gateway', () => {
  let platform: TestPlatform;
  let api: ReturnType<typeof apiClient>;
  let alice: Credentials;
  let bob: Credentials;
  let merchantId: string;
  let bobMerchantId: string;

  beforeAll(async () => {
    platform = await startTestPlatform('e2esell');
    api = apiClient(platform.gatewayUrl);
    alice = await createClient(platform.adminUrl, platform.adminToken, 'Alice Sellers');
    bob = await createClient(platform.adminUrl, platform.adminToken, 'Bob Sellers');
    const merchant = await api<{ id: string }>('POST', '/v1/merchants', {
      auth: alice,
      body: { mcc: '5999', name: 'Loja', providers: [{ name: 'sandbox', priority: 1, credentials: { type: 'SANDBOX', apiKey: 'k' } }] },
    });
    expect(merchant.status).toBe(201);
    merchantId = merchant.body.id;
    const bobs = await api<{ id: string }>('POST', '/v1/merchants', {
      auth: bob,
      body: { mcc: '5999', name: 'Loja do Bob', providers: [{ name: 'sandbox', priority: 1, credentials: { type: 'SANDBOX', apiKey: 'k' } }] },
    });
    expect(bobs.status).toBe(201);
    bobMerchantId = bobs.body.id;
  });
  afterAll(async () => {
    await platform?.stop();
  });

  it('creates, lists, changes and deletes a natural person and a legal entity', async () => {
    const person = await api<SellerBody>('POST', '/v1/sellers', { auth: alice, body: naturalPerson(merchantId) });
    expect(person.status).toBe(201);
    expect(person.body).toMatchObject({ clientId: alice.clientId, merchantId, mcc: '5411', status: 'active', business: null });
    expect(person.body.providers).toEqual([expect.objectContaining({ providerType: 'SANDBOX', status: 'active' })]);
    expect(person.body.owner).toMatchObject({ id: expect.any(String), createdAt: expect.any(String), updatedAt: expect.any(String) });

    const company = await api<SellerBody>('POST', '/v1/sellers', { auth: alice, body: legalEntity(merchantId) });
    expect(company.status).toBe(201);
    expect(company.body.business).toMatchObject({ corporateReason: 'Ana Souza Comercio LTDA', id: expect.any(String) });

    const page = await api<{ items: SellerBody[]; meta: Json }>('GET', '/v1/sellers?limit=1', { auth: alice });
    expect(page.status).toBe(200);
    expect(page.body.items.map((s) => s.id)).toEqual([company.body.id]);
    expect(page.body.meta).toEqual({ itemCount: 1, totalItems: 2, itemsPerPage: 1, totalPages: 2, currentPage: 1 });
    const byName = await api<{ items: SellerBody[] }>('GET', '/v1/sellers?businessName=Loja', { auth: alice });
    expect(byName.body.items.map((s) => s.id)).toEqual([company.body.id]);
    expect((await api<{ items: SellerBody[] }>('GET', '/v1/sellers', { auth: bob })).body.items).toEqual([]);
    expect((await api('GET', `/v1/sellers/${person.body.id}`, { auth: bob })).status).toBe(404);

    const changed = await api<SellerBody>('PATCH', `/v1/sellers/${person.body.id}`, { auth: alice, body: { owner: { name: 'Ana Lima' } } });
    expect(changed.status).toBe(200);
    expect(changed.body.owner).toMatchObject({ name: 'Ana Lima', email: 'ana@example.com', id: person.body.owner.id });

    expect((await api('DELETE', `/v1/sellers/${person.body.id}`, { auth: alice })).status).toBe(204);
    expect((await api<SellerBody>('GET', `/v1/sellers/${person.body.id}`, { auth: alice })).body.status).toBe('inactive');
    const inactive = await api<{ items: SellerBody[] }>('GET', '/v1/sellers?status=inactive', { auth: alice });
    expect(inactive.body.items.map((s) => s.id)).toEqual([person.body.id]);
  });

  it('answers 400 naming business for a legal entity without it, and the document for a wrong CPF check digit', async () => {
    const company = legalEntity(merchantId);
    delete company.business;
    const noBusiness = await api<ErrorBody>('POST', '/v1/sellers', { auth: alice, body: company });
    expect(noBusiness.status).toBe(400);
    expect(noBusiness.body.error.details?.map((d) => d.field)).toEqual(['business']);

    const person = naturalPerson(merchantId);
    (person.owner as { document: Json }).document = { type: 'cpf', number: '529.982.247-24', country: 'BR' };
    const badCpf = await api<ErrorBody>('POST', '/v1/sellers', { auth: alice, body: person });
    expect(badCpf.status).toBe(400);
    expect(badCpf.body.error.details?.map((d) => d.field)).toEqual(['owner.document.number']);
  });

  it("refuses another client's merchant", async () => {
    const answer = await api<ErrorBody>('POST', '/v1/sellers', { auth: bob, body: naturalPerson(merchantId) });
    expect(answer.status).toBe(422);
  });

  describe('registration reviews', () => {
    type Review = Json & { processId: string; status: string; requestedFields?: { raw: string[]; fields: Array<Json & { path: string }> } };
    const inDays = (days: number) => new Date(Date.now() + days * 24 * 3600_000).toISOString();
    const statusOf = (path: string, status: string) =>
      eventually(async () => ((await api<Json>('GET', path, { auth: alice })).body.status === status ? true : undefined), `${path} ${status}`, { timeoutMs: 15_000 });
    const RAW = ['legal_representative.birth_date', 'address.zip_code', 'bank_account.type', 'company.favourite_colour'];

    it('opens a process with raw fields shown translated, refuses a bad date, and a good submission ends finished', async () => {
      const seller = await api<SellerBody>('POST', '/v1/sellers', { auth: alice, body: naturalPerson(merchantId, 'review@example.com') });
      const opened = await api<Review>('POST', `/v1/sellers/${seller.body.id}/registration-reviews`, {
        auth: alice,
        body: { reviewType: 'acp', deadlineAt: inDays(3.5), raw: RAW },
      });
      expect(opened.status).toBe(201);
      expect(opened.body).toMatchObject({ status: 'pending', sellerId: seller.body.id, daysRemaining: 3, requestedFieldsPending: false });
      const fields = opened.body.requestedFields!.fields;
      expect(fields.map((f) => f.path)).toEqual(['owner.birthdate', 'owner.address.zipCode', 'bankAccount.type', 'company.favourite_colour']);
      expect(fields[0]).toMatchObject({ type: 'date', pattern: '^\\d{4}-\\d{2}-\\d{2}$', providerField: 'legal_representative.birth_date' });
      expect(fields.filter((f) => f.unmapped === true).map((f) => f.path)).toEqual(['company.favourite_colour']);

      const id = opened.body.processId;
      const values = { 'owner.birthdate': '1985-01-31', 'owner.address.zipCode': '04538132', 'bankAccount.type': 'conta_pagamento', 'company.favourite_colour': 'blue' };
      const bad = await api<ErrorBody>('POST', `/v1/sellers/registration-reviews/${id}/submission`, { auth: alice, body: { fields: { ...values, 'owner.birthdate': '31/01/1985' } } });
      expect(bad.status).toBe(400);
      expect(bad.body.error.details?.map((d) => d.field)).toEqual(['owner.birthdate']);

      const good = await api<Review>('POST', `/v1/sellers/registration-reviews/${id}/submission`, { auth: alice, body: { fields: values } });
      expect(good.status).toBe(202);
      expect(good.body.status).toBe('submitting');
      await statusOf(`/v1/sellers/registration-reviews/${id}`, 'finished');
      const after = await api<SellerBody>('GET', `/v1/sellers/${seller.body.id}`, { auth: alice });
      expect(after.body.owner).toMatchObject({ birthdate: '1985-01-31', address: expect.objectContaining({ zipCode: '04538132' }) });
      expect(after.body.bankAccount).toMatchObject({ type: 'conta_pagamento' });
      const again = await api<ErrorBody & { error: { businessCode?: string } }>('POST', `/v1/sellers/registration-reviews/${id}/submission`, { auth: alice, body: { fields: values } });
      expect(again.status).toBe(422);
    });

    it('expires a process past its expiry within seconds and blocks its seller', async () => {
      const seller = await api<SellerBody>('POST', '/v1/sellers', { auth: alice, body: naturalPerson(merchantId, 'expiry@example.com') });
      const soon = new Date(Date.now() + 2000).toISOString();
      const opened = await api<Review>('POST', `/v1/sellers/${seller.body.id}/registration-reviews`, { auth: alice, body: { reviewType: 'aci', deadlineAt: soon, expiresAt: soon } });
      expect(opened.status).toBe(201);
      expect(opened.body.requestedFieldsPending).toBe(true);
      await statusOf(`/v1/sellers/registration-reviews/${opened.body.processId}`, 'expired');
      await statusOf(`/v1/sellers/${seller.body.id}`, 'blocked');
      const blocked = await api<SellerBody>('GET', `/v1/sellers/${seller.body.id}`, { auth: alice });
      expect(blocked.body.providers.map((p) => p.status)).toEqual(['blocked']);

      // Payments asks sellers-and-reviews about the receivers of a split: the blocked seller is refused by name,
      // and a seller that can receive is taken.
      const active = await api<SellerBody>('POST', '/v1/sellers', { auth: alice, body: naturalPerson(merchantId, 'receiver@example.com') });
      expect(active.status).toBe(201);
      const charge = (sellerId: string) =>
        api<Json & { error?: { businessCode?: string; message: string } }>('POST', '/v1/charges', {
          auth: alice,
          body: {
            merchantId,
            amount: 10_000,
            paymentMethod: { paymentType: 'credit', installments: 1 },
            paymentSource: { sourceType: 'card', card: { cardHolderName: 'Ana Souza', cardNumber: cardNumberEnding(0), cardCvv: '870', cardExpirationDate: `12/${new Date().getUTCFullYear() + 5}` } },
            splitRules: [
              { sellerId: active.body.id, percentage: 5000, processingFee: true, chargeRemainderFee: true, liable: true },
              { sellerId, percentage: 5000, processingFee: false, chargeRemainderFee: false, liable: false },
            ],
          },
        });
      const refused = await charge(seller.body.id);
      expect(refused.status).toBe(422);
      expect(refused.body.error).toMatchObject({ businessCode: 'split_seller_blocked' });
      expect(refused.body.error!.message).toContain(seller.body.id);
      const other = await api<SellerBody>('POST', '/v1/sellers', { auth: alice, body: naturalPerson(merchantId, 'second@example.com') });
      const taken = await charge(other.body.id);
      expect(taken.status).toBe(201);
      expect(taken.body.status).toBe('authorized');
      // Another client's seller is refused as unknown.
      const foreign = await api<SellerBody>('POST', '/v1/sellers', { auth: bob, body: naturalPerson(bobMerchantId, 'foreign@example.com') });
      expect(foreign.status).toBe(201);
      expect((await charge(foreign.body.id)).body.error).toMatchObject({ businessCode: 'split_seller_not_found' });
    });

    it('lists with status, reviewType, page and limit, with meta; an unmatched process matches a new seller', async () => {
      const opened = await api<Review>('POST', '/v1/sellers/registration-reviews', {
        auth: bob,
        body: { document: { type: 'cpf', number: '12345678909' }, reviewType: 'acp', deadlineAt: inDays(10) },
      });
      expect(opened.body.status).toBe('unmatched');
      await api('POST', '/v1/sellers/registration-reviews', { auth: bob, body: { document: { type: 'cpf', number: '11144477735' }, reviewType: 'aci', deadlineAt: inDays(10) } });
      const page = await api<{ items: Review[]; meta: Json }>('GET', '/v1/sellers/registration-reviews?status=unmatched,pending&limit=1', { auth: bob });
      expect(page.status).toBe(200);
      expect(page.body.meta).toEqual({ itemCount: 1, totalItems: 2, itemsPerPage: 1, totalPages: 2, currentPage: 1 });
      const acp = await api<{ items: Review[]; meta: Json }>('GET', '/v1/sellers/registration-reviews?reviewType=acp', { auth: bob });
      expect(acp.body.items.map((r) => r.processId)).toEqual([opened.body.processId]);
      expect(acp.body.meta).toMatchObject({ itemsPerPage: 100, currentPage: 1 });
      expect((await api('GET', '/v1/sellers/registration-reviews?limit=101', { auth: bob })).status).toBe(400);
      expect((await api('GET', '/v1/sellers/registration-reviews?page=0', { auth: bob })).status).toBe(400);
      expect((await api('GET', '/v1/sellers/registration-reviews?status=open', { auth: bob })).status).toBe(400);

      const bobMerchant = await api<{ id: string }>('POST', '/v1/merchants', {
        auth: bob,
        body: { mcc: '5999', name: 'Bob', providers: [{ name: 'sandbox', priority: 1, credentials: { type: 'SANDBOX', apiKey: 'k' } }] },
      });
      const person = naturalPerson(bobMerchant.body.id, 'bob@example.com');
      (person.owner as Json).document = { type: 'cpf', number: '123.456.789-09', country: 'BR' };
      const seller = await api<SellerBody>('POST', '/v1/sellers', { auth: bob, body: person });
      expect(seller.status).toBe(201);
      const matched = await api<Review>('GET', `/v1/sellers/registration-reviews/${opened.body.processId}`, { auth: bob });
      expect(matched.body).toMatchObject({ status: 'pending', sellerId: seller.body.id });
      const own = await api<{ items: Review[] }>('GET', `/v1/sellers/${seller.body.id}/registration-reviews`, { auth: bob });
      expect(own.body.items.map((r) => r.processId)).toEqual([opened.body.processId]);
    });
  });
});
