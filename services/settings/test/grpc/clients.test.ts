import { toClientJson } from '@platform/api-model';
import { createHash, randomUUID } from 'node:crypto';
import { failure, fieldsOf } from '../support/fixtures';
import { outboxEvents } from '../support/database';
import { newClient, startSettings, type SettingsUnderTest } from '../support/service';

let settings: SettingsUnderTest;

beforeAll(async () => {
  settings = await startSettings();
});

afterAll(async () => {
  await settings.stop();
});

describe('CreateClient', () => {
  it('creates the client with a secret key shown once and kept only as its SHA-256', async () => {
    const created = await settings.client.createClient({ name: 'Acme', environment: 'sandbox', prepaymentEnabled: true });
    const clientId = created.client!.id;
    expect(created.client).toMatchObject({ name: 'Acme', environment: 'sandbox', prepaymentEnabled: true });
    expect(created.apiKey).toMatch(/^sk_sandbox_[A-Za-z0-9_-]{43}$/);

    const { rows } = await settings.pool.query<{ id: string; kind: string; key_hash: Buffer }>('SELECT * FROM api_keys WHERE client_id = $1', [clientId]);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.id).toBe(created.keyId);
    expect(rows[0]!.kind).toBe('secret');
    expect(rows[0]!.key_hash.equals(createHash('sha256').update(created.apiKey).digest())).toBe(true);
    expect(JSON.stringify(rows)).not.toContain(created.apiKey);
  });

  it('writes settings.client.created with the client and no key', async () => {
    const created = await settings.client.createClient({ name: 'Evented', environment: 'live', prepaymentEnabled: false });
    const events = await outboxEvents(settings.pool, created.client!.id);
    expect(events.map((e) => e.type)).toEqual(['settings.client.created']);
    expect(events[0]!.data).toEqual({
      clientId: created.client!.id,
      name: 'Evented',
      environment: 'live',
      prepaymentEnabled: false,
      createdAt: created.client!.createdAt!.toISOString(),
      updatedAt: created.client!.updatedAt!.toISOString(),
    });
    expect(events[0]!.data).toEqual(toClientJson(created.client!));
    expect(JSON.stringify(events)).not.toContain(created.apiKey);
  });

  it('refuses a bad name or environment and writes nothing', async () => {
    const before = await settings.pool.query('SELECT count(*)::int AS n FROM clients');
    const error = await failure(settings.client.createClient({ name: '', environment: 'prod', prepaymentEnabled: false }));
    expect(error.kind).toBe('validation');
    expect(fieldsOf(error).sort()).toEqual(['environment', 'name']);
    const after = await settings.pool.query('SELECT count(*)::int AS n FROM clients');
    expect(after.rows[0].n).toBe(before.rows[0].n);
  });
});

describe('GetClient', () => {
  it('returns the client', async () => {
    const { clientId } = await newClient(settings.client, { name: 'Readable' });
    expect(await settings.client.getClient({ clientId })).toMatchObject({ id: clientId, name: 'Readable', environment: 'sandbox' });
  });

  it('answers not_found for an unknown client', async () => {
    expect((await failure(settings.client.getClient({ clientId: randomUUID() }))).kind).toBe('not_found');
  });

  it.each(['nope', ''])('answers validation for the malformed client id %p', async (clientId) => {
    const error = await failure(settings.client.getClient({ clientId }));
    expect(error.kind).toBe('validation');
    expect(error.details).toEqual([{ field: 'clientId', message: 'must be a UUID' }]);
  });
});

describe('UpdateClient', () => {
  it('changes only the given fields and writes settings.client.updated', async () => {
    const { clientId } = await newClient(settings.client, { name: 'Before' });
    settings.clock.advanceSeconds(5);
    const updated = await settings.client.updateClient({ clientId, prepaymentEnabled: true });
    expect(updated).toMatchObject({ id: clientId, name: 'Before', prepaymentEnabled: true });
    expect(updated.updatedAt!.getTime()).toBeGreaterThan(updated.createdAt!.getTime());

    const renamed = await settings.client.updateClient({ clientId, name: 'After' });
    expect(renamed).toMatchObject({ name: 'After', prepaymentEnabled: true });
    expect(await settings.client.getClient({ clientId })).toEqual(renamed);

    const events = await outboxEvents(settings.pool, clientId, 'settings.client.updated');
    expect(events.map((e) => [e.data.name, e.data.prepaymentEnabled])).toEqual([
      ['Before', true],
      ['After', true],
    ]);
  });

  it('refuses an update with no field', async () => {
    const { clientId } = await newClient(settings.client);
    const error = await failure(settings.client.updateClient({ clientId }));
    expect(error.kind).toBe('validation');
    expect(await outboxEvents(settings.pool, clientId, 'settings.client.updated')).toEqual([]);
  });

  it('answers not_found for an unknown client', async () => {
    expect((await failure(settings.client.updateClient({ clientId: randomUUID(), name: 'x' }))).kind).toBe('not_found');
  });
});

describe('CreateApiKey', () => {
  it('adds a working secret key beside the existing one', async () => {
    const { clientId, apiKey } = await newClient(settings.client, { environment: 'live' });
    const second = await settings.client.createApiKey({ clientId });
    expect(second.apiKey).toMatch(/^sk_live_/);
    expect(second.apiKey).not.toBe(apiKey);
    expect((await settings.client.authenticate({ clientId, apiKey: second.apiKey })).keyId).toBe(second.keyId);
    expect((await settings.client.authenticate({ clientId, apiKey })).keyKind).toBe('secret');
  });

  it('answers not_found for an unknown client', async () => {
    expect((await failure(settings.client.createApiKey({ clientId: randomUUID() }))).kind).toBe('not_found');
  });
});

describe('RevokeApiKey', () => {
  it('revokes a key once and writes settings.api_key.revoked', async () => {
    const { clientId, apiKey, keyId } = await newClient(settings.client);
    await settings.client.revokeApiKey({ clientId, keyId });
    await settings.client.revokeApiKey({ clientId, keyId });
    expect((await failure(settings.client.authenticate({ clientId, apiKey }))).kind).toBe('unauthenticated');
    const events = await outboxEvents(settings.pool, clientId, 'settings.api_key.revoked');
    expect(events).toHaveLength(1);
    expect(events[0]!.data).toMatchObject({ keyId, kind: 'secret' });
  });

  it('answers not_found for another client\'s key and leaves it working', async () => {
    const owner = await newClient(settings.client);
    const other = await newClient(settings.client);
    const error = await failure(settings.client.revokeApiKey({ clientId: other.clientId, keyId: owner.keyId }));
    expect(error.kind).toBe('not_found');
    expect((await settings.client.authenticate(owner)).keyId).toBe(owner.keyId);
  });

  it.each([randomUUID(), 'not-a-key-id'])('answers not_found for the unknown key %p', async (keyId) => {
    const { clientId } = await newClient(settings.client);
    expect((await failure(settings.client.revokeApiKey({ clientId, keyId }))).kind).toBe('not_found');
  });
});
