import { createHash } from 'node:crypto';
import { SERVICES } from '@platform/catalog';
import { loadGatewayConfig } from '../src/config';

const base = {
  ...Object.fromEntries(SERVICES.map((s) => [s.addressEnv, `${s.name}:50051`])),
  CUSTOMERS_GRPC_URL: '127.0.0.1:50052',
  ADMIN_TOKEN: 'a'.repeat(16),
};

describe('gateway config', () => {
  it('applies the defaults, with PUBLIC_URL from the port', () => {
    expect(loadGatewayConfig({ ...base, PORT: '9090' })).toMatchObject({
      PORT: 9090,
      HOST: '0.0.0.0',
      PUBLIC_URL: 'http://localhost:9090',
      AUTH_CACHE_TTL_MS: 2000,
      LOG_LEVEL: 'info',
      BODY_LIMIT: '1mb',
    });
    expect(loadGatewayConfig({ ...base, PUBLIC_URL: 'https://api.example.com/' }).PUBLIC_URL).toBe('https://api.example.com');
  });

  it('fails naming each missing or malformed variable', () => {
    expect(() => loadGatewayConfig({ ADMIN_TOKEN: 'short', CUSTOMERS_GRPC_URL: 'no-port', BODY_LIMIT: 'lots' })).toThrow(
      /SETTINGS_GRPC_URL.*CUSTOMERS_GRPC_URL.*PAYMENTS_GRPC_URL.*ADMIN_TOKEN.*BODY_LIMIT/,
    );
    expect(() => loadGatewayConfig({ ...base, PAYMENTS_GRPC_URL: 'payments' })).toThrow(/PAYMENTS_GRPC_URL/);
  });

  it('serves the admin API on ADMIN_PORT (8081 unless set), and trusts no proxy unless TRUST_PROXY is set', () => {
    expect(loadGatewayConfig(base)).toMatchObject({ ADMIN_PORT: 8081, ADMIN_HOST: '0.0.0.0' });
    expect(loadGatewayConfig(base).TRUST_PROXY).toBeUndefined();
    expect(loadGatewayConfig({ ...base, ADMIN_PORT: '0' }).ADMIN_PORT).toBe(0);
    expect(() => loadGatewayConfig({ ...base, ADMIN_PORT: '70000' })).toThrow(/ADMIN_PORT/);
  });

  it('reads TRUST_PROXY as a hop count or a list of addresses and CIDRs, and refuses anything else', () => {
    expect(loadGatewayConfig({ ...base, TRUST_PROXY: '2' }).TRUST_PROXY).toBe(2);
    expect(loadGatewayConfig({ ...base, TRUST_PROXY: '10.0.0.0/8, 192.168.1.7,loopback' }).TRUST_PROXY).toEqual(['10.0.0.0/8', '192.168.1.7', 'loopback']);
    for (const wrong of ['true', '10.0.0.0/99', 'ingress.local', '2.5']) expect(() => loadGatewayConfig({ ...base, TRUST_PROXY: wrong })).toThrow(/TRUST_PROXY/);
  });

  it('takes several admin tokens from ADMIN_TOKENS, named or known by their hash, ADMIN_TOKEN as one more', () => {
    const bare = 'b'.repeat(20);
    const { ADMIN_TOKENS } = loadGatewayConfig({ ...base, ADMIN_TOKENS: ` ops:${'o'.repeat(16)} ,${bare},` });
    expect(ADMIN_TOKENS).toEqual([
      { id: 'ops', token: 'o'.repeat(16) },
      { id: createHash('sha256').update(bare).digest('hex').slice(0, 8), token: bare },
      { id: createHash('sha256').update('a'.repeat(16)).digest('hex').slice(0, 8), token: 'a'.repeat(16) },
    ]);
    // ADMIN_TOKEN also listed in ADMIN_TOKENS (a migration) counts once.
    expect(loadGatewayConfig({ ...base, ADMIN_TOKENS: 'a'.repeat(16) }).ADMIN_TOKENS).toHaveLength(1);
    const { ADMIN_TOKEN: _single, ...withoutSingle } = base;
    expect(loadGatewayConfig({ ...withoutSingle, ADMIN_TOKENS: bare }).ADMIN_TOKENS).toHaveLength(1);
  });

  it('refuses admin tokens that are short, missing or share an id, without printing them', () => {
    const { ADMIN_TOKEN: _single, ...withoutSingle } = base;
    expect(() => loadGatewayConfig(withoutSingle)).toThrow(/at least one admin token/);
    const short = 'ops:short-secret';
    let message = '';
    try {
      loadGatewayConfig({ ...base, ADMIN_TOKENS: `${'x'.repeat(16)},${short}` });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/ADMIN_TOKENS: entry 2: the token must be at least 16 characters/);
    expect(message).not.toContain('short-secret');
    expect(() => loadGatewayConfig({ ...base, ADMIN_TOKENS: `ops:${'o'.repeat(16)},ops:${'p'.repeat(16)}` })).toThrow(/ADMIN_TOKENS: entries 1 and 2 have the same id/);
  });
});
