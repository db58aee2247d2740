import type { settings } from '@platform/contracts';
import { AppError } from '@platform/kit';
import request from 'supertest';
import { auth, buildGateway, CLIENT_ID, CREATED_AT, PUBLIC_URL, UPDATED_AT, upstreamCalls } from './helpers';

const MERCHANT_ID = '7f1c2d3e-4b5a-4c6d-8e9f-0a1b2c3d4e5f';
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('not really a png')]);

function linkSettings(overrides: Partial<settings.LinkSettings> = {}): settings.LinkSettings {
  return {
    id: 'c8b1f0d2-5e4a-4b3c-9d2e-1f0a9b8c7d6e',
    clientId: CLIENT_ID,
    merchantId: '',
    mainColor: '#1A73E8',
    secondaryColor: '',
    attentionColor: '',
    errorColor: '#D93025',
    successColor: '',
    backgroundColor: '',
    companyUrl: 'https://shop.example.com',
    logoId: 'logo-123',
    createdAt: CREATED_AT,
    updatedAt: UPDATED_AT,
    ...overrides,
  };
}

describe('/v1/settings (payment-link settings)', () => {
  it('GET asks for the client default without X-Merchant-Id, the merchant with it, and maps the answer', async () => {
    const gw = buildGateway({ settings: { getLinkSettings: async () => linkSettings() } });
    const res = await request(gw.app).get('/v1/settings').set(auth());
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: 'c8b1f0d2-5e4a-4b3c-9d2e-1f0a9b8c7d6e',
      clientId: CLIENT_ID,
      merchantId: null,
      mainColor: '#1A73E8',
      secondaryColor: null,
      attentionColor: null,
      errorColor: '#D93025',
      successColor: null,
      backgroundColor: null,
      companyUrl: 'https://shop.example.com',
      logo: `${PUBLIC_URL}/v1/settings/logos/logo-123`,
      createdAt: '2026-03-04T05:06:07.089Z',
      updatedAt: '2026-03-05T05:06:07.001Z',
    });
    await request(gw.app).get('/v1/settings').set(auth()).set('X-Merchant-Id', MERCHANT_ID);
    expect(upstreamCalls(gw.settingsCalls).map((c) => c.request)).toEqual([
      { clientId: CLIENT_ID, merchantId: '' },
      { clientId: CLIENT_ID, merchantId: MERCHANT_ID },
    ]);
  });

  it('answers logo null when no logo is stored', async () => {
    const gw = buildGateway({ settings: { getLinkSettings: async () => linkSettings({ logoId: '', merchantId: MERCHANT_ID }) } });
    const res = await request(gw.app).get('/v1/settings').set(auth());
    expect(res.body).toMatchObject({ logo: null, merchantId: MERCHANT_ID });
  });

  it('POST with JSON sends the text fields, ignores empty strings and a logo field, and answers 201', async () => {
    const gw = buildGateway({ settings: { createLinkSettings: async () => linkSettings() } });
    const res = await request(gw.app)
      .post('/v1/settings')
      .set(auth())
      .send({ mainColor: '#1A73E8', secondaryColor: '', companyUrl: 'https://shop.example.com', logo: 'https://evil.example/x.svg', id: 'forged' });
    expect(res.status).toBe(201);
    const [call] = upstreamCalls(gw.settingsCalls);
    expect(call!.method).toBe('createLinkSettings');
    expect(call!.request).toEqual({
      clientId: CLIENT_ID,
      merchantId: '',
      fields: { mainColor: '#1A73E8', companyUrl: 'https://shop.example.com' },
    });
    expect(call!.request.logo).toBeUndefined();
    expect(Object.values(call!.request.fields as object).filter((v) => v !== undefined)).toHaveLength(2);
  });

  it('PATCH with multipart sends the fields and the logo bytes with their content type, on the X-Merchant-Id scope', async () => {
    const gw = buildGateway({ settings: { updateLinkSettings: async () => linkSettings({ merchantId: MERCHANT_ID }) } });
    const res = await request(gw.app)
      .patch('/v1/settings')
      .set(auth())
      .set('X-Merchant-Id', MERCHANT_ID)
      .field('mainColor', '#000000')
      .field('errorColor', '')
      .attach('logo', PNG, { filename: 'logo.png', contentType: 'image/png' });
    expect(res.status).toBe(200);
    expect(res.body.merchantId).toBe(MERCHANT_ID);
    const [call] = upstreamCalls(gw.settingsCalls);
    expect(call!.method).toBe('updateLinkSettings');
    const sent = call!.request as unknown as settings.UpdateLinkSettingsRequest;
    expect(sent.clientId).toBe(CLIENT_ID);
    expect(sent.merchantId).toBe(MERCHANT_ID);
    expect(sent.fields).toEqual({ mainColor: '#000000' });
    expect(sent.logo?.contentType).toBe('image/png');
    expect(Buffer.compare(sent.logo!.data, PNG)).toBe(0);
  });

  it('PATCH with only a logo file is sent too (the service decides what is effective)', async () => {
    const gw = buildGateway({ settings: { updateLinkSettings: async () => linkSettings() } });
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>');
    const res = await request(gw.app).patch('/v1/settings').set(auth()).attach('logo', svg, { filename: 'l.svg', contentType: 'image/svg+xml' });
    expect(res.status).toBe(200);
    const sent = upstreamCalls(gw.settingsCalls)[0]!.request as unknown as settings.UpdateLinkSettingsRequest;
    expect(sent.logo).toEqual({ contentType: 'image/svg+xml', data: svg });
  });

  it('PATCH with no effective field answers the 422 the service raises', async () => {
    const gw = buildGateway({
      settings: {
        updateLinkSettings: async () => {
          throw new AppError('business_rule', 'Nothing to update', { businessCode: 'no_effective_fields' });
        },
      },
    });
    const res = await request(gw.app).patch('/v1/settings').set(auth()).send({ mainColor: '', companyUrl: '' });
    expect(res.status).toBe(422);
    expect(res.body.error).toEqual({
      type: 'invalid_request_error',
      code: 422,
      message: 'Nothing to update',
      businessCode: 'no_effective_fields',
      key: 'no_effective_fields',
    });
    expect(upstreamCalls(gw.settingsCalls)[0]!.request.fields).toEqual({});
  });

  it('refuses a logo over 1 MB with 413, without calling the service', async () => {
    const gw = buildGateway();
    const res = await request(gw.app)
      .patch('/v1/settings')
      .set(auth())
      .attach('logo', Buffer.alloc(1024 * 1024 + 1, 0x41), { filename: 'big.png', contentType: 'image/png' });
    expect(res.status).toBe(413);
    expect(res.body.error).toMatchObject({ type: 'invalid_request_error', code: 413, key: 'payload_too_large' });
    expect(upstreamCalls(gw.settingsCalls)).toHaveLength(0);
  });

  it('refuses a logo of another type, another file field and non-text fields with details', async () => {
    const gw = buildGateway();
    const html = await request(gw.app)
      .post('/v1/settings')
      .set(auth())
      .attach('logo', Buffer.from('<html></html>'), { filename: 'x.html', contentType: 'text/html' });
    expect(html.status).toBe(400);
    expect(html.body.error.details).toEqual([{ field: 'logo', message: 'must be one of image/png, image/jpeg, image/svg+xml' }]);
    const other = await request(gw.app).post('/v1/settings').set(auth()).attach('avatar', PNG, { filename: 'a.png', contentType: 'image/png' });
    expect(other.status).toBe(400);
    expect(other.body.error.details).toEqual([{ field: 'avatar', message: 'unexpected file' }]);
    const json = await request(gw.app).post('/v1/settings').set(auth()).send({ mainColor: 12, companyUrl: ['a'] });
    expect(json.status).toBe(400);
    expect(json.body.error.details.map((d: { field: string }) => d.field).sort()).toEqual(['companyUrl', 'mainColor']);
    expect(upstreamCalls(gw.settingsCalls)).toHaveLength(0);
  });

  it('answers 415 for a body that is neither JSON nor multipart', async () => {
    const gw = buildGateway();
    const res = await request(gw.app).post('/v1/settings').set(auth()).set('Content-Type', 'application/x-www-form-urlencoded').send('mainColor=%23fff');
    expect(res.status).toBe(415);
    expect(res.body.error.key).toBe('unsupported_media_type');
  });
});

describe('GET /v1/settings/logos/{logoId}', () => {
  it('is public and serves the bytes with the stored type and headers that keep an SVG from running script', async () => {
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><rect width="1" height="1"/></svg>');
    const gw = buildGateway({ settings: { getLogo: async () => ({ id: 'logo-123', contentType: 'image/svg+xml', data: svg }) } });
    const res = await request(gw.app).get('/v1/settings/logos/logo-123').buffer(true).parse((r, done) => {
      const chunks: Buffer[] = [];
      r.on('data', (c: Buffer) => chunks.push(c));
      r.on('end', () => done(null, Buffer.concat(chunks)));
    });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^image\/svg\+xml/);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-security-policy']).toBe("default-src 'none'; style-src 'unsafe-inline'; sandbox");
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(Buffer.compare(res.body as Buffer, svg)).toBe(0);
    expect(gw.settingsCalls).toEqual([{ method: 'getLogo', request: { logoId: 'logo-123' }, meta: expect.objectContaining({ requestId: expect.any(String) }) }]);
  });

  it('answers an unknown logo with the 404 envelope', async () => {
    const gw = buildGateway({
      settings: {
        getLogo: async () => {
          throw new AppError('not_found', 'logo nope not found', { key: 'not_found' });
        },
      },
    });
    const res = await request(gw.app).get('/v1/settings/logos/nope');
    expect(res.status).toBe(404);
    expect(res.body.error).toMatchObject({ code: 404, type: 'invalid_request_error', key: 'not_found' });
  });
});

describe('/v1/subscriptions/settings', () => {
  const stored: settings.SubscriptionSettings = {
    clientId: CLIENT_ID,
    retryPolicy: [{ daysAfterLastAttempt: 1 }, { daysAfterLastAttempt: 3 }],
    cancelAfterAllRetries: true,
    statementDescriptor: 'STORE*SUB',
    createdAt: CREATED_AT,
    updatedAt: UPDATED_AT,
  };

  it('GET maps the settings, with null timestamps and descriptor while on the defaults', async () => {
    const gw = buildGateway({
      settings: { getSubscriptionSettings: async () => ({ ...stored, statementDescriptor: '', createdAt: undefined, updatedAt: undefined }) },
    });
    const res = await request(gw.app).get('/v1/subscriptions/settings').set(auth());
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      clientId: CLIENT_ID,
      retryPolicy: [{ daysAfterLastAttempt: 1 }, { daysAfterLastAttempt: 3 }],
      cancelAfterAllRetries: true,
      statementDescriptor: null,
      createdAt: null,
      updatedAt: null,
    });
    expect(upstreamCalls(gw.settingsCalls)[0]!.request).toEqual({ clientId: CLIENT_ID });
  });

  it('PATCH wraps the retry policy so that an absent one is not an empty one', async () => {
    const gw = buildGateway({ settings: { updateSubscriptionSettings: async () => stored } });
    const res = await request(gw.app)
      .patch('/v1/subscriptions/settings')
      .set(auth())
      .send({ retryPolicy: [{ daysAfterLastAttempt: 2, note: 'x' }], statementDescriptor: 'STORE*SUB' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ statementDescriptor: 'STORE*SUB', createdAt: '2026-03-04T05:06:07.089Z' });
    await request(gw.app).patch('/v1/subscriptions/settings').set(auth()).send({ cancelAfterAllRetries: false });
    const [first, second] = upstreamCalls(gw.settingsCalls).map((c) => c.request);
    expect(first).toEqual({ clientId: CLIENT_ID, retryPolicy: { steps: [{ daysAfterLastAttempt: 2 }] }, statementDescriptor: 'STORE*SUB' });
    expect(second).toEqual({ clientId: CLIENT_ID, cancelAfterAllRetries: false });
    expect(second!.retryPolicy).toBeUndefined();
  });

  it('PATCH validates the types with details', async () => {
    const gw = buildGateway();
    const res = await request(gw.app)
      .patch('/v1/subscriptions/settings')
      .set(auth())
      .send({ retryPolicy: [{ daysAfterLastAttempt: 1.5 }, {}], cancelAfterAllRetries: 'yes' });
    expect(res.status).toBe(400);
    expect(res.body.error.details.map((d: { field: string }) => d.field).sort()).toEqual([
      'cancelAfterAllRetries',
      'retryPolicy.0.daysAfterLastAttempt',
      'retryPolicy.1.daysAfterLastAttempt',
    ]);
  });
});
