import { banner } from '../src/banner';

describe('the start banner', () => {
  const credentials = { clientId: 'c0ffee00-0000-4000-8000-000000000001', apiKey: 'sk_sandbox_abcdef', adminToken: 'admin-token-123' };
  const metricsPorts = { gateway: 9464, settings: 9465, 'payouts-and-prepayment': 9466 };
  const options = { port: 8080, adminPort: 8081, metricsPorts, credentialsFile: '/data/credentials.json', credentials };

  it('prints the API key and admin token on the first start', () => {
    const text = banner({ ...options, firstStart: true }).join('\n');
    expect(text).toContain('sk_sandbox_abcdef');
    expect(text).toContain('admin-token-123');
    expect(text).toContain('/data/credentials.json');
  });

  it('later says only where the credentials are', () => {
    const text = banner({ ...options, firstStart: false }).join('\n');
    expect(text).not.toContain('sk_sandbox_abcdef');
    expect(text).not.toContain('admin-token-123');
    expect(text).toContain('Credentials (client id, API key, admin token) are in /data/credentials.json');
    expect(text).toContain('http://localhost:8080');
  });

  it('says where the admin API is: its own port, not the public one', () => {
    for (const firstStart of [true, false]) expect(banner({ ...options, firstStart })).toContain('Admin API (X-Admin-Token): http://localhost:8081/admin/v1');
  });

  it('says where each process serves its metrics, one line each, the gateway first', () => {
    for (const firstStart of [true, false]) {
      const lines = banner({ ...options, firstStart });
      const metrics = lines.filter((line) => /^ {2}\S+ +http:\/\/localhost:\d+\/metrics$/.test(line));
      expect(metrics).toEqual([
        '  gateway                 http://localhost:9464/metrics',
        '  settings                http://localhost:9465/metrics',
        '  payouts-and-prepayment  http://localhost:9466/metrics',
      ]);
      expect(lines).toContain('Try: curl -s http://localhost:9464/metrics | grep http_server_requests_total');
    }
  });
});
