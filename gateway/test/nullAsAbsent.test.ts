import type { FieldViolation } from '@platform/kit';
import request from 'supertest';
import { parsePart } from '../src/http/validation';
import { z } from '../src/openapi/zod';
import { auth, buildGateway, CLIENT_ID, upstreamCalls } from './helpers';
import { CARD_ID, MERCHANT_ID, sampleCharge } from './paymentSamples';

describe('optional fields sent as null are absent', () => {
  const schema = z.object({
    name: z.string(),
    nickname: z.string().optional(),
    capture: z.boolean().default(true),
    note: z.string().nullable().optional(),
    address: z.object({ street: z.string(), complement: z.string().optional() }).optional(),
    tags: z.array(z.string()).optional(),
  });
  const parse = (input: unknown) => {
    const violations: FieldViolation[] = [];
    return { value: parsePart(schema, input, 'body', violations), violations };
  };

  it('drops a null optional field, applies the default of a null defaulted one, at any depth', () => {
    expect(parse({ name: 'Ana', nickname: null, capture: null, address: { street: 'Rua A', complement: null } })).toEqual({
      value: { name: 'Ana', capture: true, address: { street: 'Rua A' } },
      violations: [],
    });
    expect(parse({ name: 'Ana', address: null }).value).toEqual({ name: 'Ana', capture: true });
  });

  it('keeps null where the schema accepts it', () => {
    expect(parse({ name: 'Ana', note: null }).value).toEqual({ name: 'Ana', capture: true, note: null });
  });

  it('refuses null for a required field, naming it, beside the other problems', () => {
    expect(parse({ name: null, nickname: null, address: { street: null }, capture: 'yes' })).toEqual({
      value: undefined,
      violations: [
        { field: 'name', message: 'must not be null' },
        { field: 'capture', message: 'Invalid input: expected boolean, received string' },
        { field: 'address.street', message: 'must not be null' },
      ],
    });
  });

  it('does not drop a null item of an array', () => {
    expect(parse({ name: 'Ana', tags: ['a', null] }).violations).toEqual([{ field: 'tags.1', message: 'Invalid input: expected string, received null' }]);
  });

  it('leaves the input as it was sent', () => {
    const input = { name: 'Ana', nickname: null, address: { street: 'Rua A', complement: null } };
    parse(input);
    expect(input).toEqual({ name: 'Ana', nickname: null, address: { street: 'Rua A', complement: null } });
  });
});

describe('POST /v1/charges with the nulls a client library sends', () => {
  it('takes customerId, orderId and capture given as null as absent', async () => {
    const gw = buildGateway({ payments: { createCharge: async () => sampleCharge() } });
    const res = await request(gw.app)
      .post('/v1/charges')
      .set(auth())
      .send({
        merchantId: MERCHANT_ID,
        amount: 1500,
        customerId: null,
        orderId: null,
        capture: null,
        fraudAnalysis: null,
        paymentMethod: { paymentType: 'credit', installments: null },
        paymentSource: { sourceType: 'card', cardId: CARD_ID, cardCvv: null },
      });
    expect(res.status).toBe(201);
    const [call] = upstreamCalls(gw.paymentsCalls);
    expect(call!.request).toMatchObject({ clientId: CLIENT_ID, customerId: '', orderId: '', capture: true, paymentMethod: { paymentType: 'credit', installments: 1 } });
    expect(call!.request).toMatchObject({ paymentSource: { sourceType: 'card', cardId: CARD_ID, cardCvv: '' } });
  });

  it('refuses a required field given as null with a detail for it', async () => {
    const gw = buildGateway();
    const res = await request(gw.app).post('/v1/charges').set(auth()).send({ merchantId: null, amount: 1500, paymentMethod: { paymentType: 'credit' }, paymentSource: null });
    expect(res.status).toBe(400);
    expect(res.body.error.details).toEqual([
      { field: 'merchantId', message: 'must not be null' },
      { field: 'paymentSource', message: 'must not be null' },
    ]);
    expect(upstreamCalls(gw.paymentsCalls)).toHaveLength(0);
  });
});
