import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { createLogger, createPool, KIT_MIGRATIONS_DIR, migrate, toPage, type Pool } from '@platform/kit';
import { createTestDatabase } from '@platform/testkit';
import type { Review } from '../../src/domain/review';
import type { Seller } from '../../src/domain/seller';
import { createReviewStore } from '../../src/store/reviewStore';
import { createSellerStore } from '../../src/store/sellerStore';

const log = createLogger({ name: 'sellers-and-reviews-store-test', level: 'silent' });
const sellers = createSellerStore();
const reviews = createReviewStore();
let pool: Pool;

beforeAll(async () => {
  pool = createPool({ url: await createTestDatabase('sellers_and_reviews_store'), log });
  await migrate(pool, [KIT_MIGRATIONS_DIR, path.join(__dirname, '..', '..', 'migrations')], log);
});

afterAll(async () => {
  await pool.end();
});

function seller(clientId: string, overrides: Partial<Seller> = {}): Seller {
  const at = new Date('2026-05-01T10:00:00.000Z');
  return {
    id: randomUUID(),
    clientId,
    merchantId: 'm-1',
    mcc: '5411',
    status: 'active',
    owner: { name: 'Ana', email: 'Ana@Example.com', document: { type: 'cpf', number: '529.982.247-25' } },
    business: null,
    bankAccount: { bank: '341' },
    transferPolicy: null,
    metadata: null,
    rateAgreements: [],
    salesPlanId: '',
    planId: '',
    providers: [{ providerId: 'p-1', providerType: 'SANDBOX', externalId: 'x', externalStatus: 'approved', externalStatusReason: '', status: 'active', createdAt: at, updatedAt: at }],
    createdAt: at,
    updatedAt: at,
    ...overrides,
  };
}

function review(clientId: string, overrides: Partial<Review> = {}): Review {
  const at = new Date();
  return {
    processId: randomUUID(),
    clientId,
    sellerId: null,
    document: '52998224725',
    provider: 'SANDBOX',
    providerId: null,
    reviewType: 'acp',
    status: 'unmatched',
    deadlineAt: new Date(at.getTime() + 86_400_000),
    expiresAt: new Date(at.getTime() + 6 * 86_400_000),
    raw: null,
    fields: null,
    submitted: null,
    failureReason: '',
    createdAt: at,
    updatedAt: at,
    ...overrides,
  };
}

describe('seller store', () => {
  it('reads back what it stored, for its client only, and filters by e-mail, business name and document', async () => {
    const clientId = randomUUID();
    const a = seller(clientId);
    expect(await sellers.insert(pool, a)).toEqual(a);
    expect(await sellers.findById(pool, randomUUID(), a.id)).toBeNull();
    const b = await sellers.insert(pool, seller(clientId, { business: { name: '100% Loja_Boa', corporateReason: 'X' }, createdAt: new Date('2026-05-02T00:00:00Z') }));
    const page = toPage({ page: 1, limit: 10 });
    expect((await sellers.list(pool, clientId, { email: 'ana@example.com' }, page)).totalItems).toBe(2);
    expect((await sellers.list(pool, clientId, { businessName: '100%' }, page)).items.map((s) => s.id)).toEqual([b.id]);
    expect((await sellers.list(pool, clientId, { businessName: '%' }, page)).items.map((s) => s.id)).toEqual([b.id]);
    expect((await sellers.list(pool, randomUUID(), {}, page)).totalItems).toBe(0);
    expect((await sellers.findByDocument(pool, clientId, '52998224725')).map((s) => s.id)).toEqual([a.id, b.id]);
  });
});

describe('review store', () => {
  it('lists by statuses and type with a total, and finds unmatched processes by document', async () => {
    const clientId = randomUUID();
    const unmatched = await reviews.insert(pool, review(clientId));
    await reviews.insert(pool, review(clientId, { status: 'canceled', reviewType: 'aci' }));
    const page = toPage({ page: 1, limit: 1 }, 100);
    const both = await reviews.list(pool, clientId, { statuses: ['unmatched', 'canceled'] }, page);
    expect(both.items).toHaveLength(1);
    expect(both.totalItems).toBe(2);
    expect((await reviews.list(pool, clientId, { statuses: [], reviewType: 'acp' }, page)).items.map((r) => r.processId)).toEqual([unmatched.processId]);
    expect((await reviews.unmatchedFor(pool, clientId, ['52998224725'])).map((r) => r.processId)).toEqual([unmatched.processId]);
    expect(await reviews.unmatchedFor(pool, randomUUID(), ['52998224725'])).toEqual([]);
  });
});
