import type { sellers } from '@platform/contracts';
import request from 'supertest';
import { auth, buildGateway, CLIENT_ID, CREATED_AT, UPDATED_AT, upstreamCalls } from './helpers';

const SELLER_ID = '0c5b3a1e-7d2f-4e8a-9b6c-1d2e3f4a5b6c';
const MERCHANT_ID = '6f1e2d3c-4b5a-4968-8776-a5b4c3d2e1f0';
/** What the public Node SDK's `sellers.create` sends (its type is `Record<string, string>[]`). */
const SDK_METADATA = [{ key: '768093', value: 'Additional information' }];

function sampleSeller(overrides: Partial<sellers.Seller> = {}): sellers.Seller {
  return {
    id: SELLER_ID,
    clientId: CLIENT_ID,
    merchantId: MERCHANT_ID,
    mcc: '5411',
    status: 'active',
    owner: { name: 'Ana Souza' },
    bankAccount: { bank: '341' },
    rateAgreements: [],
    salesPlanId: '',
    planId: '',
    providers: [],
    createdAt: CREATED_AT,
    updatedAt: UPDATED_AT,
    ...overrides,
  };
}

const body = (metadata: unknown) => ({ merchantId: MERCHANT_ID, mcc: 5411, owner: { name: 'Ana Souza' }, bankAccount: { bank: '341' }, metadata });

describe('seller metadata at the gateway', () => {
  it('takes the list of objects the public Node SDK sends, passes it on as it came and answers it in that shape', async () => {
    const gw = buildGateway({
      sellersAndReviews: {
        createSeller: async () => sampleSeller({ metadataList: SDK_METADATA }),
        updateSeller: async () => sampleSeller({ metadataList: [] }),
        getSeller: async () => sampleSeller({ metadataList: SDK_METADATA }),
      },
    });
    const created = await request(gw.app).post('/v1/sellers').set(auth()).send(body(SDK_METADATA));
    expect(created.status).toBe(201);
    expect(created.body.metadata).toEqual(SDK_METADATA);
    const updated = await request(gw.app).patch(`/v1/sellers/${SELLER_ID}`).set(auth()).send({ metadata: [] });
    expect(updated.status).toBe(200);
    expect(updated.body.metadata).toEqual([]);
    expect((await request(gw.app).get(`/v1/sellers/${SELLER_ID}`).set(auth())).body.metadata).toEqual(SDK_METADATA);
    const [create, update] = upstreamCalls(gw.sellersAndReviewsCalls);
    expect((create!.request as unknown as sellers.CreateSellerRequest).seller!.metadata).toEqual(SDK_METADATA);
    expect((update!.request as unknown as sellers.UpdateSellerRequest).changes!.metadata).toEqual([]);
  });

  it('keeps the object form the description documents, and null when there is none', async () => {
    const gw = buildGateway({
      sellersAndReviews: {
        createSeller: async () => sampleSeller({ metadata: { erpCode: 'A-17' } }),
        getSeller: async () => sampleSeller(),
      },
    });
    const created = await request(gw.app).post('/v1/sellers').set(auth()).send(body({ erpCode: 'A-17' }));
    expect(created.status).toBe(201);
    expect(created.body.metadata).toEqual({ erpCode: 'A-17' });
    expect((await request(gw.app).get(`/v1/sellers/${SELLER_ID}`).set(auth())).body.metadata).toBeNull();
  });

  it('refuses metadata that is neither an object nor a list of objects with 400 naming the field, asking nothing', async () => {
    const gw = buildGateway();
    for (const metadata of ['text', 42, ['text'], [{ key: 'a' }, 7]]) {
      const res = await request(gw.app).post('/v1/sellers').set(auth()).send(body(metadata));
      expect(res.status).toBe(400);
      expect(res.body.error.details).toEqual([expect.objectContaining({ field: expect.stringMatching(/^metadata/) })]);
    }
    expect(upstreamCalls(gw.sellersAndReviewsCalls)).toEqual([]);
  });
});
