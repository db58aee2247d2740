import { SERVICES, serviceByName } from '@platform/catalog';
import { completeKeys, serviceEnv } from '../src/platform';

const service = (name: string) => {
  const entry = serviceByName(name);
  if (!entry) throw new Error(`${name} is not in the catalog`);
  return entry;
};

describe('the launcher and the catalog', () => {
  it('makes one key per catalog secret and keeps the ones a key file already has', () => {
    const keys = completeKeys({ CARD_ENCRYPTION_KEY: 'a'.repeat(64) });
    const secrets = SERVICES.flatMap((s) => s.secrets.map((x) => x.env));
    expect(Object.keys(keys).sort()).toEqual([...secrets].sort());
    expect(keys.CARD_ENCRYPTION_KEY).toBe('a'.repeat(64));
    for (const name of secrets) expect(keys[name as keyof typeof keys]).toMatch(/^[0-9a-f]{64}$/);
  });

  it("gives a service its secrets and extra variables, the launcher's environment winning", () => {
    const keys = completeKeys();
    const context = { keys, publicUrl: 'http://localhost:9000', databasePrefix: 'e2e.x_', env: {} };
    expect(serviceEnv(service('payments'), context)).toEqual({
      CARD_ENCRYPTION_KEY: keys.CARD_ENCRYPTION_KEY,
      CARD_FINGERPRINT_KEY: keys.CARD_FINGERPRINT_KEY,
      PUBLIC_URL: 'http://localhost:9000',
    });
    expect(serviceEnv(service('webhooks'), context)).toEqual({
      WEBHOOKS_SIGNING_KEY: keys.WEBHOOKS_SIGNING_KEY,
      WEBHOOKS_ALLOW_PRIVATE_TARGETS: 'true',
      WEBHOOKS_FANOUT_DURABLE: 'e2e_x_webhooks-fanout',
    });
    const overridden = serviceEnv(service('webhooks'), { ...context, env: { WEBHOOKS_ALLOW_PRIVATE_TARGETS: 'false', WEBHOOKS_SIGNING_KEY: 'b'.repeat(64) } });
    expect(overridden).toMatchObject({ WEBHOOKS_ALLOW_PRIVATE_TARGETS: 'false', WEBHOOKS_SIGNING_KEY: 'b'.repeat(64) });
    expect(serviceEnv(service('customers'), context)).toEqual({});
  });
});
