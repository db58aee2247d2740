import { randomUUID } from 'node:crypto';
import { enqueueEvent, withTransaction, type Pool } from '@platform/kit';
import { hashApiKey, type ApiKey } from '../../src/domain/apiKeys';
import type { ClientAccount } from '../../src/domain/clients';
import type { LinkSettings } from '../../src/domain/linkSettings';
import { DEFAULT_SUBSCRIPTION_SETTINGS } from '../../src/domain/subscriptionSettings';
import { createStores } from '../../src/store';
import { PNG_BYTES } from '../support/fixtures';
import { migratedPool, outboxEvents } from '../support/database';

const stores = createStores();
let pool: Pool;

beforeAll(async () => {
  pool = await migratedPool('settings_store');
});

afterAll(async () => {
  await pool.end();
});

const at = new Date('2025-03-01T12:00:00.000Z');

async function newClient(overrides: Partial<ClientAccount> = {}): Promise<ClientAccount> {
  const client: ClientAccount = { id: randomUUID(), name: 'Acme', environment: 'sandbox', prepaymentEnabled: false, createdAt: at, updatedAt: at, ...overrides };
  await stores.clients.insert(pool, client);
  return client;
}

function key(clientId: string, overrides: Partial<ApiKey> = {}): ApiKey {
  return { id: randomUUID(), clientId, kind: 'secret', scopes: [], expiresAt: null, revokedAt: null, createdAt: at, ...overrides };
}

function linkSettings(clientId: string, merchantId: string | null, overrides: Partial<LinkSettings> = {}): LinkSettings {
  return { id: randomUUID(), clientId, merchantId, logoId: null, createdAt: at, updatedAt: at, ...overrides };
}

describe('client store', () => {
  it('round-trips a client and applies partial changes', async () => {
    const client = await newClient({ environment: 'live' });
    expect(await stores.clients.findById(pool, client.id)).toEqual(client);
    const later = new Date('2025-03-02T00:00:00.000Z');
    const updated = await stores.clients.update(pool, client.id, { prepaymentEnabled: true }, later);
    expect(updated).toEqual({ ...client, prepaymentEnabled: true, updatedAt: later });
    expect(await stores.clients.update(pool, randomUUID(), { name: 'x' }, later)).toBeUndefined();
  });
});

describe('API key store', () => {
  it('finds a credential only by its hash together with its own client id', async () => {
    const owner = await newClient();
    const other = await newClient();
    const stored = key(owner.id);
    const hash = hashApiKey('sk_sandbox_store-test-key');
    await stores.apiKeys.insert(pool, stored, hash);

    const found = await stores.apiKeys.findCredentialByClientIdKeyHash(pool, owner.id, hash);
    expect(found?.key).toEqual(stored);
    expect(found?.client).toEqual(owner);
    expect(found?.keyHash.equals(hash)).toBe(true);
    expect(await stores.apiKeys.findCredentialByClientIdKeyHash(pool, other.id, hash)).toBeUndefined();
    expect(await stores.apiKeys.findCredentialByClientIdKeyHash(pool, owner.id, hashApiKey('other'))).toBeUndefined();
  });

  it('keeps scopes and expiry of a public key and never the key itself', async () => {
    const owner = await newClient();
    const publicKey = key(owner.id, { kind: 'public', scopes: ['cards', 'tokens'], expiresAt: new Date('2025-03-01T13:00:00.000Z') });
    await stores.apiKeys.insert(pool, publicKey, hashApiKey('pk_sandbox_x'));
    expect(await stores.apiKeys.findByClientIdKeyId(pool, owner.id, publicKey.id)).toEqual(publicKey);
    const { rows } = await pool.query('SELECT * FROM api_keys WHERE id = $1', [publicKey.id]);
    expect(JSON.stringify(rows[0])).not.toContain('pk_sandbox_x');
  });

  it('refuses scopes or an expiry on a secret key', async () => {
    const owner = await newClient();
    await expect(stores.apiKeys.insert(pool, key(owner.id, { scopes: ['cards'] }), hashApiKey('k1'))).rejects.toMatchObject({ code: '23514' });
  });

  it('revokes only a key of the given client', async () => {
    const owner = await newClient();
    const other = await newClient();
    const stored = key(owner.id);
    await stores.apiKeys.insert(pool, stored, hashApiKey('sk_sandbox_revoke'));
    await stores.apiKeys.markRevoked(pool, other.id, stored.id, at);
    expect((await stores.apiKeys.findByClientIdKeyId(pool, owner.id, stored.id))?.revokedAt).toBeNull();
    expect(await stores.apiKeys.findByClientIdKeyId(pool, other.id, stored.id)).toBeUndefined();
    await stores.apiKeys.markRevoked(pool, owner.id, stored.id, at);
    expect((await stores.apiKeys.findByClientIdKeyId(pool, owner.id, stored.id))?.revokedAt).toEqual(at);
  });
});

describe('link settings store', () => {
  it('falls back from the merchant row to the client default, and reads exact scopes without fallback', async () => {
    const client = await newClient();
    const merchantId = randomUUID();
    const fallback = linkSettings(client.id, null, { mainColor: '#111111' });
    await stores.linkSettings.insert(pool, fallback);

    expect(await stores.linkSettings.findByClientIdMerchantIdOrDefault(pool, client.id, merchantId)).toEqual(fallback);
    expect(await stores.linkSettings.findByClientIdScope(pool, client.id, merchantId)).toBeUndefined();

    const own = linkSettings(client.id, merchantId, { mainColor: '#222222', companyUrl: 'https://m.example.com' });
    await stores.linkSettings.insert(pool, own);
    expect(await stores.linkSettings.findByClientIdMerchantIdOrDefault(pool, client.id, merchantId)).toEqual(own);
    expect(await stores.linkSettings.findByClientIdMerchantIdOrDefault(pool, client.id, null)).toEqual(fallback);
    expect(await stores.linkSettings.findByClientIdScope(pool, client.id, null)).toEqual(fallback);

    const other = await newClient();
    expect(await stores.linkSettings.findByClientIdMerchantIdOrDefault(pool, other.id, merchantId)).toBeUndefined();
  });

  it('allows one row per scope', async () => {
    const client = await newClient();
    const merchantId = randomUUID();
    await stores.linkSettings.insert(pool, linkSettings(client.id, null));
    await stores.linkSettings.insert(pool, linkSettings(client.id, merchantId));
    await expect(stores.linkSettings.insert(pool, linkSettings(client.id, null))).rejects.toMatchObject({
      kind: 'conflict',
      key: 'link_settings_exist',
      message: 'Payment-link settings already exist for the client default',
    });
    await expect(stores.linkSettings.insert(pool, linkSettings(client.id, merchantId))).rejects.toMatchObject({
      kind: 'conflict',
      key: 'link_settings_exist',
      message: `Payment-link settings already exist for merchant ${merchantId}`,
    });
  });

  it('updates the row of its scope only', async () => {
    const client = await newClient();
    const merchantId = randomUUID();
    const fallback = linkSettings(client.id, null, { mainColor: '#111' });
    const merchant = linkSettings(client.id, merchantId, { mainColor: '#222' });
    await stores.linkSettings.insert(pool, fallback);
    await stores.linkSettings.insert(pool, merchant);
    const later = new Date('2025-03-03T00:00:00.000Z');
    await stores.linkSettings.update(pool, { ...merchant, mainColor: '#333', errorColor: '#f00', updatedAt: later });
    expect(await stores.linkSettings.findByClientIdScope(pool, client.id, merchantId)).toEqual({ ...merchant, mainColor: '#333', errorColor: '#f00', updatedAt: later });
    expect(await stores.linkSettings.findByClientIdScope(pool, client.id, null)).toEqual(fallback);
  });
});

describe('logo store', () => {
  it('round-trips bytes and deletes a logo only once nothing points at it', async () => {
    const client = await newClient();
    const logoId = randomUUID();
    await stores.logos.insert(pool, { id: logoId, clientId: client.id, contentType: 'image/png', data: PNG_BYTES, createdAt: at });
    const logo = await stores.logos.findById(pool, logoId);
    expect(logo?.contentType).toBe('image/png');
    expect(logo?.data.equals(PNG_BYTES)).toBe(true);

    const settings = linkSettings(client.id, null, { logoId });
    await stores.linkSettings.insert(pool, settings);
    await stores.logos.deleteUnreferenced(pool, client.id, logoId);
    expect(await stores.logos.findById(pool, logoId)).toBeDefined();

    await stores.linkSettings.update(pool, { ...settings, logoId: null });
    await stores.logos.deleteUnreferenced(pool, client.id, logoId);
    expect(await stores.logos.findById(pool, logoId)).toBeUndefined();
  });
});

describe('subscription settings store', () => {
  it('applies changes onto the defaults the first time and onto the stored row after', async () => {
    const client = await newClient();
    expect(await stores.subscriptionSettings.findByClientId(pool, client.id)).toBeUndefined();

    const first = await stores.subscriptionSettings.upsert(pool, client.id, { statementDescriptor: 'ACME' }, DEFAULT_SUBSCRIPTION_SETTINGS, at);
    expect(first).toEqual({ clientId: client.id, ...DEFAULT_SUBSCRIPTION_SETTINGS, statementDescriptor: 'ACME', createdAt: at, updatedAt: at });

    const later = new Date('2025-03-04T00:00:00.000Z');
    const second = await stores.subscriptionSettings.upsert(
      pool,
      client.id,
      { retryPolicy: [{ daysAfterLastAttempt: 7 }], cancelAfterAllRetries: true },
      DEFAULT_SUBSCRIPTION_SETTINGS,
      later,
    );
    expect(second).toEqual({
      clientId: client.id,
      retryPolicy: [{ daysAfterLastAttempt: 7 }],
      cancelAfterAllRetries: true,
      statementDescriptor: 'ACME',
      createdAt: at,
      updatedAt: later,
    });
    expect(await stores.subscriptionSettings.findByClientId(pool, client.id)).toEqual(second);
  });

  it('answers not_found for settings of an unknown client', async () => {
    await expect(
      stores.subscriptionSettings.upsert(pool, randomUUID(), { cancelAfterAllRetries: true }, DEFAULT_SUBSCRIPTION_SETTINGS, at),
    ).rejects.toMatchObject({ kind: 'not_found' });
  });
});

describe('outbox', () => {
  it('keeps neither the row nor its event when the transaction fails', async () => {
    const client = await newClient();
    const settings = linkSettings(client.id, null);
    await expect(
      withTransaction(pool, async (tx) => {
        await stores.linkSettings.insert(tx, settings);
        await enqueueEvent(tx, { type: 'settings.link_settings.created', clientId: client.id, data: { id: settings.id } });
        await stores.linkSettings.insert(tx, linkSettings(client.id, null));
      }),
    ).rejects.toMatchObject({ kind: 'conflict' });
    expect(await stores.linkSettings.findByClientIdScope(pool, client.id, null)).toBeUndefined();
    expect(await outboxEvents(pool, client.id)).toEqual([]);
  });
});
