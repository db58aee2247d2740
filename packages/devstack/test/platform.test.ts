import { SERVICES, serviceByName } from '@platform/catalog';
import { completeKeys, replicaCounts, replicaName, serviceEnv } from '../src/platform';

const service = (name: string) => {
  const entry = serviceByName(name);
  if (!entry) throw new Error(`${name} is not in the catalog`);
  return entry;
};

describe('the launcher and the catalog', () => {
  it('makes one key per catalog secret and keeps the ones a key file already has', () => {
    const keys = completeKeys({ CARD_ENCRYPTION_KEYS: 'a'.repeat(64) });
    const secrets = SERVICES.flatMap((s) => s.secrets.map((x) => x.env));
    expect(Object.keys(keys).sort()).toEqual([...secrets].sort());
    expect(keys.CARD_ENCRYPTION_KEYS).toBe('a'.repeat(64));
    for (const name of secrets) expect(keys[name as keyof typeof keys]).toMatch(/^[0-9a-f]{64}$/);
  });

  it("gives a service its secrets and extra variables, the launcher's environment winning", () => {
    const keys = completeKeys();
    const context = { keys, publicUrl: 'http://localhost:9000', databasePrefix: 'e2e.x_', env: {} };
    expect(serviceEnv(service('payments'), context)).toEqual({
      CARD_ENCRYPTION_KEYS: keys.CARD_ENCRYPTION_KEYS,
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

describe('replicaCounts', () => {
  it('runs one process of each service unless REPLICAS or REPLICAS_<NAME> says otherwise; the launcher option wins', () => {
    expect(Object.values(replicaCounts({}))).toEqual(SERVICES.map(() => 1));
    expect(replicaCounts({ REPLICAS: '3', REPLICAS_PAYMENTS: '2', REPLICAS_SELLERS_AND_REVIEWS: '1' })).toMatchObject({ settings: 3, payments: 2, 'sellers-and-reviews': 1 });
    expect(replicaCounts({ REPLICAS: '3' }, 2)).toMatchObject({ settings: 2, payments: 2 });
    expect(replicaCounts({ REPLICAS: '3' }, { webhooks: 2 })).toMatchObject({ settings: 3, webhooks: 2 });
  });

  it('refuses a count that is not a whole number from 1 to 16', () => {
    expect(() => replicaCounts({ REPLICAS: '0' })).toThrow(/REPLICAS must be a whole number from 1 to 16, got 0/);
    expect(() => replicaCounts({ REPLICAS_PAYMENTS: 'two' })).toThrow(/REPLICAS_PAYMENTS/);
    expect(() => replicaCounts({}, 17)).toThrow(/replicas/);
  });

  it('names a lone process after its service and replicas with their number', () => {
    expect(replicaName('payments', 0, 1)).toBe('payments');
    expect(replicaName('payments', 1, 3)).toBe('payments#2');
  });
});
