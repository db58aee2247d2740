import { toLinkSettingsJson } from '@platform/api-model';
import { randomUUID } from 'node:crypto';
import type { payments } from '@platform/contracts';
import { AppError, errors, type PromiseClient } from '@platform/kit';
import { createPaymentsMerchantsPort } from '../../src/app/merchantsPort';
import { failure, fieldsOf, JPEG_BYTES, PNG_BYTES, SVG_TEXT } from '../support/fixtures';
import { outboxEvents } from '../support/database';
import { newClient, startSettings, type SettingsUnderTest } from '../support/service';

let settings: SettingsUnderTest;

beforeAll(async () => {
  settings = await startSettings();
});

afterAll(async () => {
  await settings.stop();
});

async function count(table: 'logos' | 'link_settings', clientId: string): Promise<number> {
  const { rows } = await settings.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table} WHERE client_id = $1`, [clientId]);
  return rows[0]!.n;
}

describe('GetLinkSettings', () => {
  it('returns the merchant settings when they exist, else the client default', async () => {
    const { clientId } = await newClient(settings.client);
    const merchantId = settings.merchants.add(clientId, randomUUID());
    const fallback = await settings.client.createLinkSettings({ clientId, merchantId: '', fields: { mainColor: '#111111' } });
    expect(fallback).toMatchObject({ merchantId: '', mainColor: '#111111', secondaryColor: '', logoId: '' });

    expect(await settings.client.getLinkSettings({ clientId, merchantId })).toEqual(fallback);
    const own = await settings.client.createLinkSettings({ clientId, merchantId, fields: { mainColor: '#222222' } });
    expect(await settings.client.getLinkSettings({ clientId, merchantId })).toEqual(own);
    expect(own.merchantId).toBe(merchantId);
    expect(await settings.client.getLinkSettings({ clientId, merchantId: '' })).toEqual(fallback);
    expect(await settings.client.getLinkSettings({ clientId, merchantId: settings.merchants.add(clientId, randomUUID()) })).toEqual(fallback);
  });

  it("answers the platform's defaults while the client stored none, for the client default and any merchant", async () => {
    const { clientId } = await newClient(settings.client);
    const defaults = await settings.client.getLinkSettings({ clientId, merchantId: '' });
    expect(defaults).toMatchObject({
      clientId,
      merchantId: '',
      mainColor: '#1A73E8',
      secondaryColor: '#FFFFFF',
      attentionColor: '#F9AB00',
      errorColor: '#D93025',
      successColor: '#188038',
      backgroundColor: '#F8F9FA',
      companyUrl: '',
      logoId: '',
    });
    expect(defaults.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(await settings.client.getLinkSettings({ clientId, merchantId: settings.merchants.add(clientId, randomUUID()) })).toEqual(defaults);
    expect(await count('link_settings', clientId)).toBe(0);
  });

  it('answers not_found for an unknown client', async () => {
    expect((await failure(settings.client.getLinkSettings({ clientId: randomUUID(), merchantId: '' }))).kind).toBe('not_found');
  });

  it("never shows another client's settings", async () => {
    const owner = await newClient(settings.client);
    const other = await newClient(settings.client);
    await settings.client.createLinkSettings({ clientId: owner.clientId, merchantId: '', fields: { mainColor: '#abc' } });
    expect(await settings.client.getLinkSettings({ clientId: other.clientId, merchantId: '' })).toMatchObject({ clientId: other.clientId, mainColor: '#1A73E8' });
  });

  it('refuses a malformed merchant id', async () => {
    const { clientId } = await newClient(settings.client);
    expect(fieldsOf(await failure(settings.client.getLinkSettings({ clientId, merchantId: 'm-1' })))).toEqual(['merchantId']);
  });
});

describe('CreateLinkSettings', () => {
  it('stores every field and a logo, and writes settings.link_settings.created', async () => {
    const { clientId } = await newClient(settings.client);
    const fields = {
      mainColor: '#123',
      secondaryColor: '#456789',
      attentionColor: '#ffcc00aa',
      errorColor: '#f00',
      successColor: '#0f0',
      backgroundColor: '#FFFFFF',
      companyUrl: 'https://shop.example.com',
    };
    const created = await settings.client.createLinkSettings({ clientId, merchantId: '', fields, logo: { contentType: 'image/png', data: PNG_BYTES } });
    expect(created).toMatchObject({ clientId, ...fields });
    expect(created.logoId).not.toBe('');

    const events = await outboxEvents(settings.pool, clientId, 'settings.link_settings.created');
    expect(events).toHaveLength(1);
    expect(events[0]!.data).toMatchObject({ id: created.id, merchantId: null, mainColor: '#123', logo: `http://localhost:8080/v1/settings/logos/${created.logoId}` });
    expect(events[0]!.data).toEqual(toLinkSettingsJson(created, 'http://localhost:8080'));
  });

  it('answers conflict when the scope already has settings, leaving neither a logo nor an event behind', async () => {
    const { clientId } = await newClient(settings.client);
    await settings.client.createLinkSettings({ clientId, merchantId: '', fields: { mainColor: '#000' } });
    const error = await failure(
      settings.client.createLinkSettings({ clientId, merchantId: '', fields: { mainColor: '#fff' }, logo: { contentType: 'image/png', data: PNG_BYTES } }),
    );
    expect(error.kind).toBe('conflict');
    expect(await count('logos', clientId)).toBe(0);
    expect(await count('link_settings', clientId)).toBe(1);
    expect(await outboxEvents(settings.pool, clientId, 'settings.link_settings.created')).toHaveLength(1);
    expect((await settings.client.getLinkSettings({ clientId, merchantId: '' })).mainColor).toBe('#000');
  });

  it('names each invalid field and writes nothing', async () => {
    const { clientId } = await newClient(settings.client);
    const error = await failure(
      settings.client.createLinkSettings({ clientId, merchantId: '', fields: { mainColor: 'red', companyUrl: 'javascript:alert(1)' } }),
    );
    expect(error.kind).toBe('validation');
    expect(fieldsOf(error).sort()).toEqual(['companyUrl', 'mainColor']);
    expect(await count('link_settings', clientId)).toBe(0);
  });

  it('replays the first answer for the same X-Idempotency-Key and refuses the key with another body', async () => {
    const { clientId } = await newClient(settings.client);
    const request = { clientId, merchantId: '', fields: { mainColor: '#abcdef' } };
    const first = await settings.client.createLinkSettings(request, { idempotencyKey: 'link-1' });
    expect(await settings.client.createLinkSettings(request, { idempotencyKey: 'link-1' })).toEqual(first);
    const reused = await failure(settings.client.createLinkSettings({ ...request, fields: { mainColor: '#000000' } }, { idempotencyKey: 'link-1' }));
    expect(reused).toMatchObject({ kind: 'business_rule', businessCode: 'idempotency_key_reused' });
    expect(await outboxEvents(settings.pool, clientId, 'settings.link_settings.created')).toHaveLength(1);
  });

  it('answers not_found for an unknown client', async () => {
    expect((await failure(settings.client.createLinkSettings({ clientId: randomUUID(), merchantId: '', fields: { mainColor: '#fff' } }))).kind).toBe(
      'not_found',
    );
  });
});

describe('UpdateLinkSettings', () => {
  it('changes the non-empty fields of exactly that scope and writes settings.link_settings.updated', async () => {
    const { clientId } = await newClient(settings.client);
    const merchantId = settings.merchants.add(clientId, randomUUID());
    const fallback = await settings.client.createLinkSettings({ clientId, merchantId: '', fields: { mainColor: '#111', companyUrl: 'https://a.example' } });
    await settings.client.createLinkSettings({ clientId, merchantId, fields: { mainColor: '#222' } });

    const updated = await settings.client.updateLinkSettings({ clientId, merchantId, fields: { mainColor: '', errorColor: '#f00', companyUrl: 'http://m.example' } });
    expect(updated).toMatchObject({ merchantId, mainColor: '#222', errorColor: '#f00', companyUrl: 'http://m.example' });
    expect(await settings.client.getLinkSettings({ clientId, merchantId: '' })).toEqual(fallback);

    const events = await outboxEvents(settings.pool, clientId, 'settings.link_settings.updated');
    expect(events.map((e) => e.data)).toEqual([expect.objectContaining({ id: updated.id, merchantId, errorColor: '#f00' })]);
  });

  it('does not fall back to the client default', async () => {
    const { clientId } = await newClient(settings.client);
    await settings.client.createLinkSettings({ clientId, merchantId: '', fields: { mainColor: '#111' } });
    const merchantId = settings.merchants.add(clientId, randomUUID());
    const error = await failure(settings.client.updateLinkSettings({ clientId, merchantId, fields: { mainColor: '#333' } }));
    expect(error.kind).toBe('not_found');
    expect(error.message).toBe(`Payment-link settings for merchant ${merchantId} not found`);
    expect((await settings.client.getLinkSettings({ clientId, merchantId: '' })).mainColor).toBe('#111');
  });

  it("changes the platform's defaults of a client that never stored settings, keeping their id", async () => {
    const { clientId } = await newClient(settings.client);
    const defaults = await settings.client.getLinkSettings({ clientId, merchantId: '' });
    expect((await failure(settings.client.updateLinkSettings({ clientId, merchantId: settings.merchants.add(clientId, randomUUID()), fields: { mainColor: '#333' } }))).kind).toBe('not_found');
    expect(await count('link_settings', clientId)).toBe(0);

    const updated = await settings.client.updateLinkSettings({ clientId, merchantId: '', fields: { mainColor: '#123456' } });
    expect(updated).toMatchObject({ ...defaults, mainColor: '#123456', updatedAt: expect.any(Date) });
    expect(updated.id).toBe(defaults.id);
    expect(await settings.client.getLinkSettings({ clientId, merchantId: '' })).toEqual(updated);
    expect(await count('link_settings', clientId)).toBe(1);
    const events = await outboxEvents(settings.pool, clientId, 'settings.link_settings.updated');
    expect(events.map((e) => e.data)).toEqual([expect.objectContaining({ id: defaults.id, mainColor: '#123456', secondaryColor: '#FFFFFF' })]);
  });

  it('stores the defaults once when two first changes come at once', async () => {
    const { clientId } = await newClient(settings.client);
    const [a, b] = await Promise.all([
      settings.client.updateLinkSettings({ clientId, merchantId: '', fields: { mainColor: '#aaaaaa' } }),
      settings.client.updateLinkSettings({ clientId, merchantId: '', fields: { errorColor: '#bbbbbb' } }),
    ]);
    expect(a.id).toBe(b.id);
    expect(await count('link_settings', clientId)).toBe(1);
    expect(await settings.client.getLinkSettings({ clientId, merchantId: '' })).toMatchObject({ mainColor: '#aaaaaa', errorColor: '#bbbbbb' });
  });

  it('answers business_rule no_effective_fields when only empty or absent fields are sent', async () => {
    const { clientId } = await newClient(settings.client);
    await settings.client.createLinkSettings({ clientId, merchantId: '', fields: { mainColor: '#111' } });
    for (const request of [{ clientId, merchantId: '' }, { clientId, merchantId: '', fields: { mainColor: '', companyUrl: '  ' } }]) {
      const error = await failure(settings.client.updateLinkSettings(request));
      expect(error).toMatchObject({ kind: 'business_rule', businessCode: 'no_effective_fields' });
    }
    expect(await outboxEvents(settings.pool, clientId, 'settings.link_settings.updated')).toEqual([]);
  });

  it('accepts a logo alone and replaces the previous logo', async () => {
    const { clientId } = await newClient(settings.client);
    const created = await settings.client.createLinkSettings({ clientId, merchantId: '', logo: { contentType: 'image/png', data: PNG_BYTES } });
    const updated = await settings.client.updateLinkSettings({ clientId, merchantId: '', logo: { contentType: 'image/svg+xml', data: Buffer.from(SVG_TEXT) } });
    expect(updated.logoId).not.toBe(created.logoId);
    expect((await failure(settings.client.getLogo({ logoId: created.logoId }))).kind).toBe('not_found');
    const logo = await settings.client.getLogo({ logoId: updated.logoId });
    expect(logo.contentType).toBe('image/svg+xml');
    // Stored as sanitised: the root element alone, without the prolog.
    expect(logo.data.toString('utf8')).toBe('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>');
    expect(await count('logos', clientId)).toBe(1);
  });

  it.each([
    ['PNG bytes declared as JPEG', 'image/jpeg', PNG_BYTES],
    ['JPEG bytes declared as PNG', 'image/png', JPEG_BYTES],
    ['a GIF', 'image/gif', Buffer.from('GIF89a....')],
    ['HTML declared as SVG', 'image/svg+xml', Buffer.from('<html><body>hi</body></html>')],
    ['a file over 1 MiB', 'image/png', Buffer.concat([PNG_BYTES, Buffer.alloc(1024 * 1024)])],
  ])('refuses %s on field logo and keeps the previous settings', async (_what, contentType, data) => {
    const { clientId } = await newClient(settings.client);
    const created = await settings.client.createLinkSettings({ clientId, merchantId: '', fields: { mainColor: '#111' } });
    const error = await failure(settings.client.updateLinkSettings({ clientId, merchantId: '', fields: { mainColor: '#222' }, logo: { contentType, data } }));
    expect(error.kind).toBe('validation');
    expect(fieldsOf(error)).toEqual(['logo']);
    expect(await settings.client.getLinkSettings({ clientId, merchantId: '' })).toEqual(created);
    expect(await count('logos', clientId)).toBe(0);
  });
});

describe('GetLogo', () => {
  it('returns the bytes and content type of a stored logo', async () => {
    const { clientId } = await newClient(settings.client);
    const created = await settings.client.createLinkSettings({ clientId, merchantId: '', logo: { contentType: 'image/jpeg', data: JPEG_BYTES } });
    const logo = await settings.client.getLogo({ logoId: created.logoId });
    expect(logo).toMatchObject({ id: created.logoId, contentType: 'image/jpeg' });
    expect(Buffer.from(logo.data).equals(JPEG_BYTES)).toBe(true);
  });

  it.each([randomUUID(), 'logo.png'])('answers not_found for %p', async (logoId) => {
    expect((await failure(settings.client.getLogo({ logoId }))).kind).toBe('not_found');
  });
});

describe("link settings name only the caller's merchants", () => {
  it("answers not_found for another client's merchant or an unknown one on create, update and get, storing nothing", async () => {
    const owner = await newClient(settings.client);
    const theirs = settings.merchants.add(owner.clientId, randomUUID());
    const stored = await settings.client.createLinkSettings({ clientId: owner.clientId, merchantId: theirs, fields: { mainColor: '#010101' } });

    const { clientId } = await newClient(settings.client);
    await settings.client.createLinkSettings({ clientId, merchantId: '', fields: { mainColor: '#111111' } });
    for (const merchantId of [theirs, randomUUID()]) {
      const created = await failure(settings.client.createLinkSettings({ clientId, merchantId, fields: { mainColor: '#222222' } }));
      expect(created).toMatchObject({ kind: 'not_found', message: 'Merchant not found' });
      const updated = await failure(settings.client.updateLinkSettings({ clientId, merchantId, fields: { mainColor: '#333333' } }));
      expect(updated).toMatchObject({ kind: 'not_found', message: 'Merchant not found' });
      // Not the caller's default in its place: the merchant is not the caller's.
      expect(await failure(settings.client.getLinkSettings({ clientId, merchantId }))).toMatchObject({ kind: 'not_found', message: 'Merchant not found' });
    }
    expect(settings.merchants.asked.filter((q) => q.clientId === clientId).map((q) => q.merchantId)).toHaveLength(6);

    const { rows } = await settings.pool.query<{ client_id: string; merchant_id: string | null }>(
      'SELECT client_id, merchant_id FROM link_settings WHERE client_id = $1 OR merchant_id = $2 ORDER BY created_at',
      [clientId, theirs],
    );
    expect(rows).toEqual([
      { client_id: owner.clientId, merchant_id: theirs },
      { client_id: clientId, merchant_id: null },
    ]);
    expect(await settings.client.getLinkSettings({ clientId: owner.clientId, merchantId: theirs })).toEqual(stored);
    expect(await outboxEvents(settings.pool, clientId, 'settings.link_settings.updated')).toEqual([]);
  });

  it('asks nothing for the client default', async () => {
    const { clientId } = await newClient(settings.client);
    await settings.client.createLinkSettings({ clientId, merchantId: '', fields: { mainColor: '#111111' } });
    await settings.client.updateLinkSettings({ clientId, merchantId: '', fields: { mainColor: '#222222' } });
    await settings.client.getLinkSettings({ clientId, merchantId: '' });
    expect(settings.merchants.asked.filter((q) => q.clientId === clientId)).toEqual([]);
  });
});

describe('the merchants port over gRPC', () => {
  function clientAnswering(getMerchant: (request: payments.GetMerchantRequest) => Promise<payments.Merchant>) {
    const asked: payments.GetMerchantRequest[] = [];
    const client = {
      getMerchant: (request: payments.GetMerchantRequest) => {
        asked.push(request);
        return getMerchant(request);
      },
    } as unknown as PromiseClient<typeof payments.PaymentsServiceService>;
    return { client, asked };
  }

  it('asks GetMerchant scoped by the caller', async () => {
    const { client, asked } = clientAnswering(async (request) => ({ id: request.id, clientId: request.clientId }) as payments.Merchant);
    await createPaymentsMerchantsPort(client).requireMerchant('client-a', 'merchant-1');
    expect(asked).toEqual([{ clientId: 'client-a', id: 'merchant-1' }]);
  });

  it('answers the same not_found for an unknown and a foreign merchant, and passes other failures on', async () => {
    const missing = clientAnswering(async (request) => {
      throw errors.notFound('Merchant', request.id);
    });
    expect(await failure(createPaymentsMerchantsPort(missing.client).requireMerchant('client-a', 'merchant-1'))).toMatchObject({
      kind: 'not_found',
      key: 'not_found',
      message: 'Merchant not found',
    });
    const down = clientAnswering(async () => {
      throw new AppError('unavailable', 'A platform service is unavailable');
    });
    expect((await failure(createPaymentsMerchantsPort(down.client).requireMerchant('client-a', 'merchant-1'))).kind).toBe('unavailable');
  });
});
