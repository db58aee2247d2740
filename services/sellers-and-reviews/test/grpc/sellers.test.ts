import { randomUUID } from 'node:crypto';
import { legalEntity, naturalPerson } from '../fixtures';
import { failureOf, startSellersAndReviews, type RunningSellersAndReviews } from '../support';

let running: RunningSellersAndReviews;

beforeAll(async () => {
  running = await startSellersAndReviews();
});

afterAll(async () => {
  await running.stop();
});

async function subjects(clientId: string): Promise<string[]> {
  const { rows } = await running.pool.query(`SELECT subject FROM outbox WHERE payload->>'clientId' = $1 ORDER BY id`, [clientId]);
  return rows.map((r: { subject: string }) => r.subject);
}

describe('sellers over gRPC', () => {
  it('creates a natural person registered at the SANDBOX provider of its merchant (active), with its events', async () => {
    const clientId = randomUUID();
    const merchantId = running.merchants.add(clientId);
    const seller = await running.client.createSeller({ clientId, seller: naturalPerson(merchantId) });
    expect(seller).toMatchObject({ clientId, merchantId, mcc: '5411', status: 'active' });
    expect(seller.providers).toEqual([expect.objectContaining({ providerType: 'SANDBOX', status: 'active' })]);
    expect(seller.owner).toMatchObject({ name: 'Ana Souza', id: expect.any(String), createdAt: expect.any(String), updatedAt: expect.any(String) });
    expect((seller.owner as { address: { id: string } }).address.id).toEqual(expect.any(String));
    expect(seller.business).toBeUndefined();
    expect((await subjects(clientId)).sort()).toEqual(['sellers.seller.active', 'sellers.seller.created']);
    expect(await running.client.getSeller({ clientId, id: seller.id })).toEqual(seller);
  });

  it('creates a legal entity; refuses one without business and a CPF with a wrong check digit, naming the field', async () => {
    const clientId = randomUUID();
    const merchantId = running.merchants.add(clientId);
    const seller = await running.client.createSeller({ clientId, seller: legalEntity(merchantId) });
    expect(seller.business).toMatchObject({ corporateReason: 'Ana Souza Comercio LTDA', id: expect.any(String) });
    const noBusiness = await failureOf(running.client.createSeller({ clientId, seller: legalEntity(merchantId, { business: undefined }) }));
    expect(noBusiness.kind).toBe('validation');
    expect(noBusiness.details).toEqual([expect.objectContaining({ field: 'business' })]);
    const body = naturalPerson(merchantId);
    (body.owner as { document: { number: string } }).document.number = '52998224724';
    const badCpf = await failureOf(running.client.createSeller({ clientId, seller: body }));
    expect(badCpf.details).toEqual([expect.objectContaining({ field: 'owner.document.number' })]);
  });

  it("refuses another client's merchant", async () => {
    const merchantId = running.merchants.add(randomUUID());
    const failure = await failureOf(running.client.createSeller({ clientId: randomUUID(), seller: naturalPerson(merchantId) }));
    expect(failure).toMatchObject({ kind: 'business_rule', businessCode: 'merchant_not_found' });
  });

  it('changes only the fields given, keeps nested ids, and validates the result', async () => {
    const clientId = randomUUID();
    const merchantId = running.merchants.add(clientId);
    const seller = await running.client.createSeller({ clientId, seller: naturalPerson(merchantId) });
    const changed = await running.client.updateSeller({ clientId, id: seller.id, changes: { owner: { name: 'Ana S. Lima', address: { city: 'Campinas' } }, mcc: 5812 } });
    const owner = changed.owner as { name: string; id: string; email: string; address: { city: string; street: string; id: string } };
    const before = seller.owner as typeof owner;
    expect(owner).toMatchObject({ name: 'Ana S. Lima', email: 'ana@example.com', id: before.id });
    expect(owner.address).toMatchObject({ city: 'Campinas', street: 'Rua A', id: before.address.id });
    expect(changed.mcc).toBe('5812');
    const bad = await failureOf(running.client.updateSeller({ clientId, id: seller.id, changes: { owner: { email: 'nope' } } }));
    expect(bad.details).toEqual([expect.objectContaining({ field: 'owner.email' })]);
  });

  it('lists with filters and page meta, scoped by client; delete makes the seller inactive', async () => {
    const clientId = randomUUID();
    const merchantId = running.merchants.add(clientId);
    const a = await running.client.createSeller({ clientId, seller: naturalPerson(merchantId) });
    const b = await running.client.createSeller({ clientId, seller: legalEntity(merchantId, { owner: { ...(legalEntity(merchantId).owner as object), email: 'b@example.com' } }) });
    await running.client.createSeller({ clientId: randomUUID(), seller: naturalPerson(running.merchants.add(randomUUID())) }).catch(() => undefined);
    const all = await running.client.listSellers({ clientId, statuses: [], page: { page: 1, limit: 1, sort: 'DESC' } });
    expect(all.items.map((s) => s.id)).toEqual([b.id]);
    expect(all.meta).toEqual({ itemCount: 1, totalItems: 2, itemsPerPage: 1, totalPages: 2, currentPage: 1 });
    expect((await running.client.listSellers({ clientId, statuses: [], email: 'B@example.com' })).items.map((s) => s.id)).toEqual([b.id]);
    expect((await running.client.listSellers({ clientId, statuses: [], businessName: 'loja' })).items.map((s) => s.id)).toEqual([b.id]);
    expect((await running.client.listSellers({ clientId, statuses: [], id: a.id })).items.map((s) => s.id)).toEqual([a.id]);
    const deleted = await running.client.deleteSeller({ clientId, id: a.id });
    expect(deleted.status).toBe('inactive');
    expect((await running.client.listSellers({ clientId, statuses: ['inactive'] })).items.map((s) => s.id)).toEqual([a.id]);
    expect(await subjects(clientId)).toContain('sellers.seller.inactive');
  });

  it('keeps metadata in the shape it came: a list of objects (what the public Node SDK sends) or an object', async () => {
    const clientId = randomUUID();
    const merchantId = running.merchants.add(clientId);
    const list = [{ key: '768093', value: 'Additional information' }];
    const seller = await running.client.createSeller({ clientId, seller: naturalPerson(merchantId, { metadata: list }) });
    expect(seller.metadataList).toEqual(list);
    expect(seller.metadata).toBeUndefined();
    expect(await running.client.getSeller({ clientId, id: seller.id })).toEqual(seller);
    // A list replaces what was there, even with an empty one; an object is merged key by key over an object.
    expect((await running.client.updateSeller({ clientId, id: seller.id, changes: { metadata: [] } })).metadataList).toEqual([]);
    const asObject = await running.client.updateSeller({ clientId, id: seller.id, changes: { metadata: { erpCode: 'A-17' } } });
    expect(asObject.metadata).toEqual({ erpCode: 'A-17' });
    expect(asObject.metadataList).toBeUndefined();
    const merged = await running.client.updateSeller({ clientId, id: seller.id, changes: { metadata: { region: 'south' } } });
    expect(merged.metadata).toEqual({ erpCode: 'A-17', region: 'south' });
    const cleared = await running.client.updateSeller({ clientId, id: seller.id, changes: { metadata: null } });
    expect(cleared.metadata).toBeUndefined();
    expect(cleared.metadataList).toBeUndefined();
    const notObjects = await failureOf(running.client.createSeller({ clientId, seller: naturalPerson(merchantId, { metadata: [list[0], 'text'] }) }));
    expect(notObjects.details).toEqual([expect.objectContaining({ field: 'metadata.1' })]);
    const text = await failureOf(running.client.createSeller({ clientId, seller: naturalPerson(merchantId, { metadata: 'text' }) }));
    expect(text.details).toEqual([expect.objectContaining({ field: 'metadata', message: 'must be an object or a list of objects' })]);
  });

  it("answers not_found for another client's seller and a malformed id", async () => {
    const clientId = randomUUID();
    const seller = await running.client.createSeller({ clientId, seller: naturalPerson(running.merchants.add(clientId)) });
    expect((await failureOf(running.client.getSeller({ clientId: randomUUID(), id: seller.id }))).kind).toBe('not_found');
    expect((await failureOf(running.client.updateSeller({ clientId: randomUUID(), id: seller.id, changes: {} }))).kind).toBe('not_found');
    expect((await failureOf(running.client.deleteSeller({ clientId: randomUUID(), id: seller.id }))).kind).toBe('not_found');
    expect((await failureOf(running.client.getSeller({ clientId, id: 'not-a-uuid' }))).kind).toBe('not_found');
  });
});

describe('CheckSplitReceivers', () => {
  it("accepts the caller's active sellers of the merchant and names a foreign, other-merchant or inactive one", async () => {
    const clientId = randomUUID();
    const merchantId = running.merchants.add(clientId);
    const a = await running.client.createSeller({ clientId, seller: naturalPerson(merchantId) });
    const b = await running.client.createSeller({ clientId, seller: legalEntity(merchantId) });
    expect(await running.client.checkSplitReceivers({ clientId, merchantId, sellerIds: [a.id, b.id] })).toEqual({ sellerIds: [a.id, b.id] });
    const foreign = await failureOf(running.client.checkSplitReceivers({ clientId: randomUUID(), merchantId, sellerIds: [a.id] }));
    expect(foreign).toMatchObject({ kind: 'business_rule', businessCode: 'split_seller_not_found' });
    expect(foreign.message).toContain(a.id);
    const other = await failureOf(running.client.checkSplitReceivers({ clientId, merchantId: running.merchants.add(clientId), sellerIds: [a.id] }));
    expect(other.businessCode).toBe('split_seller_wrong_merchant');
    await running.client.deleteSeller({ clientId, id: b.id });
    expect((await failureOf(running.client.checkSplitReceivers({ clientId, merchantId, sellerIds: [a.id, b.id] }))).businessCode).toBe('split_seller_inactive');
  });
});
