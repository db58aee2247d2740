import { randomUUID } from 'node:crypto';
import { generateApiKey } from '../../src/domain/apiKeys';
import { failure, fieldsOf } from '../support/fixtures';
import { newClient, startSettings, type SettingsUnderTest } from '../support/service';

let settings: SettingsUnderTest;

beforeAll(async () => {
  settings = await startSettings();
});

afterAll(async () => {
  await settings.stop();
});

const REFUSAL = { kind: 'unauthenticated', message: 'Invalid client id or API key' };

describe('Authenticate', () => {
  it('resolves a client id and its secret key to the client', async () => {
    const { clientId, apiKey, keyId } = await newClient(settings.client, { name: 'Shop', environment: 'live', prepaymentEnabled: true });
    const auth = await settings.client.authenticate({ clientId, apiKey });
    expect(auth.client).toMatchObject({ id: clientId, name: 'Shop', environment: 'live', prepaymentEnabled: true });
    expect(auth.keyKind).toBe('secret');
    expect(auth.scopes).toEqual([]);
    expect(auth.keyId).toBe(keyId);
  });

  it('refuses every wrong combination with the same error', async () => {
    const mine = await newClient(settings.client);
    const theirs = await newClient(settings.client);
    const attempts = [
      { clientId: mine.clientId, apiKey: generateApiKey('secret', 'sandbox') },
      { clientId: mine.clientId, apiKey: theirs.apiKey },
      { clientId: randomUUID(), apiKey: mine.apiKey },
      { clientId: 'not-a-uuid', apiKey: mine.apiKey },
      { clientId: mine.clientId, apiKey: 'garbage' },
      { clientId: mine.clientId, apiKey: '' },
      { clientId: mine.clientId, apiKey: mine.apiKey.toUpperCase() },
    ];
    for (const attempt of attempts) {
      expect(await failure(settings.client.authenticate(attempt))).toMatchObject(REFUSAL);
    }
    expect((await settings.client.authenticate(mine)).client?.id).toBe(mine.clientId);
  });

  it('refuses a revoked key while the client\'s other keys keep working', async () => {
    const { clientId, apiKey, keyId } = await newClient(settings.client);
    const second = await settings.client.createApiKey({ clientId });
    await settings.client.revokeApiKey({ clientId, keyId });
    expect(await failure(settings.client.authenticate({ clientId, apiKey }))).toMatchObject(REFUSAL);
    expect((await settings.client.authenticate({ clientId, apiKey: second.apiKey })).keyId).toBe(second.keyId);
  });

  it('returns the scopes of a public key until it expires', async () => {
    const { clientId } = await newClient(settings.client);
    const token = await settings.client.createClientToken({ clientId, scope: ['cards', 'tokens'], expires: 60 });
    const auth = await settings.client.authenticate({ clientId, apiKey: token.publicKey });
    expect(auth).toMatchObject({ keyKind: 'public', scopes: ['cards', 'tokens'], keyId: token.keyId });

    settings.clock.advanceSeconds(59);
    expect((await settings.client.authenticate({ clientId, apiKey: token.publicKey })).keyKind).toBe('public');
    settings.clock.advanceSeconds(1);
    expect(await failure(settings.client.authenticate({ clientId, apiKey: token.publicKey }))).toMatchObject(REFUSAL);
  });

  it('refuses a public key whose stored expiry has passed', async () => {
    const { clientId } = await newClient(settings.client);
    const token = await settings.client.createClientToken({ clientId, scope: ['*'], expires: 0 });
    expect((await settings.client.authenticate({ clientId, apiKey: token.publicKey })).scopes).toEqual(['*']);
    await settings.pool.query(`UPDATE api_keys SET expires_at = now() - interval '1 day' WHERE id = $1 AND client_id = $2`, [token.keyId, clientId]);
    expect(await failure(settings.client.authenticate({ clientId, apiKey: token.publicKey }))).toMatchObject(REFUSAL);
  });
});

describe('CreateClientToken', () => {
  it('creates a hashed public key with its scopes and expiry', async () => {
    const { clientId } = await newClient(settings.client, { environment: 'live' });
    const token = await settings.client.createClientToken({ clientId, scope: ['charges', 'charges', 'sessions'], expires: 3600 });
    expect(token.publicKey).toMatch(/^pk_live_/);
    expect(token).toMatchObject({ clientId, scope: ['charges', 'sessions'], expires: 3600 });
    expect(token.expiresAt!.getTime() - token.createdAt!.getTime()).toBe(3600_000);

    const { rows } = await settings.pool.query('SELECT kind, scopes, key_hash FROM api_keys WHERE id = $1', [token.keyId]);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ kind: 'public', scopes: ['charges', 'sessions'] });
    expect(JSON.stringify(rows)).not.toContain(token.publicKey);
  });

  it('makes a key that never expires for expires 0', async () => {
    const { clientId } = await newClient(settings.client);
    const token = await settings.client.createClientToken({ clientId, scope: ['*'], expires: 0 });
    expect(token.expiresAt).toBeUndefined();
    settings.clock.advanceSeconds(10 * 365 * 24 * 3600);
    expect((await settings.client.authenticate({ clientId, apiKey: token.publicKey })).keyKind).toBe('public');
  });

  it.each([
    [[], 60, ['scope']],
    [['admin'], 60, ['scope.0']],
    [['cards'], -1, ['expires']],
    [['cards'], 31_536_001, ['expires']],
  ])('refuses scope %p with expires %p', async (scope, expires, fields) => {
    const { clientId } = await newClient(settings.client);
    const error = await failure(settings.client.createClientToken({ clientId, scope, expires }));
    expect(error.kind).toBe('validation');
    expect(fieldsOf(error)).toEqual(fields);
  });

  it('answers not_found for an unknown client', async () => {
    expect((await failure(settings.client.createClientToken({ clientId: randomUUID(), scope: ['*'], expires: 0 }))).kind).toBe('not_found');
  });

  it('can be revoked by its key id', async () => {
    const { clientId } = await newClient(settings.client);
    const token = await settings.client.createClientToken({ clientId, scope: ['cards'], expires: 0 });
    await settings.client.revokeApiKey({ clientId, keyId: token.keyId });
    expect(await failure(settings.client.authenticate({ clientId, apiKey: token.publicKey }))).toMatchObject(REFUSAL);
  });
});
