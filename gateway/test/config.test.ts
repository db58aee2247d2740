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
});
