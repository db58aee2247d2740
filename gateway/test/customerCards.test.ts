import request from 'supertest';
import { errors } from '@platform/kit';
import { auth, buildGateway, CLIENT_ID, upstreamCalls } from './helpers';

const CUSTOMER = '3f2b8c1d-7a64-4e0b-9d2a-5c8e1f0a6b47';
const CARD = '9a1d2c3b-4e5f-4a6b-8c7d-0e1f2a3b4c5d';

describe('/v1/customers/{id}/cards', () => {
  it('POST links a card with the caller as client and answers 204', async () => {
    const gw = buildGateway({ customers: { addCustomerCard: async () => ({}) } });
    const res = await request(gw.app).post(`/v1/customers/${CUSTOMER}/cards`).set(auth()).send({ cardId: CARD, clientId: 'someone-else' });
    expect(res.status).toBe(204);
    const [call] = upstreamCalls(gw.customersCalls);
    expect(call!.method).toBe('addCustomerCard');
    expect(call!.request).toEqual({ clientId: CLIENT_ID, customerId: CUSTOMER, cardId: CARD });
  });

  it('POST without a cardId names the field; a foreign card is 404', async () => {
    const gw = buildGateway({
      customers: {
        addCustomerCard: async () => {
          throw errors.notFound('Card', CARD);
        },
      },
    });
    const bad = await request(gw.app).post(`/v1/customers/${CUSTOMER}/cards`).set(auth()).send({});
    expect(bad.status).toBe(400);
    expect(bad.body.error.details).toEqual([{ field: 'cardId', message: 'is required' }]);
    const foreign = await request(gw.app).post(`/v1/customers/${CUSTOMER}/cards`).set(auth()).send({ cardId: CARD });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error).toMatchObject({ code: 404, type: 'invalid_request_error' });
  });

  it('GET lists the linked cards with the list envelope and ISO dates', async () => {
    const gw = buildGateway({
      customers: {
        listCustomerCards: async () => ({
          items: [
            {
              id: CARD,
              status: 'active',
              brand: 'visa',
              cardHolderName: 'Ana',
              first6digits: '411111',
              last4digits: '1111',
              expirationMonth: 12,
              expirationYear: 2035,
              fingerprint: 'fp',
              cvvChecked: true,
              createdAt: new Date('2026-01-01T00:00:00.000Z'),
              linkedAt: new Date('2026-01-02T00:00:00.000Z'),
            },
          ],
          meta: { itemCount: 1, totalItems: 1, itemsPerPage: 10, totalPages: 1, currentPage: 1 },
        }),
      },
    });
    const res = await request(gw.app).get(`/v1/customers/${CUSTOMER}/cards?limit=10`).set(auth());
    expect(res.status).toBe(200);
    expect(res.body.items[0]).toMatchObject({ id: CARD, last4digits: '1111', linkedAt: '2026-01-02T00:00:00.000Z', createdAt: '2026-01-01T00:00:00.000Z' });
    expect(res.body.meta.totalItems).toBe(1);
    const [call] = upstreamCalls(gw.customersCalls);
    expect(call!.request).toMatchObject({ clientId: CLIENT_ID, customerId: CUSTOMER, page: { page: 1, limit: 10 } });
  });
});
