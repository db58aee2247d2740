import { banner } from '../src/banner';

describe('the start banner', () => {
  const credentials = { clientId: 'c0ffee00-0000-4000-8000-000000000001', apiKey: 'sk_sandbox_abcdef', adminToken: 'admin-token-123' };
  const options = { port: 8080, credentialsFile: '/data/credentials.json', credentials };

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
});
