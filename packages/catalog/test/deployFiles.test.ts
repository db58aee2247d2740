import path from 'node:path';
import { SERVICES, type ServiceEntry } from '../src';

interface Rendered {
  file: string;
  current: string;
  expected: string;
}
// Plain Node script shared with `npm run deploy:generate`.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const deployFiles = require(path.resolve(__dirname, '..', '..', '..', 'scripts', 'deploy-files.js')) as {
  render(services: readonly ServiceEntry[]): Rendered[];
};

const sessions: ServiceEntry = {
  name: 'sessions',
  client: 'sessions',
  summary: 'Checkout sessions',
  database: 'sessions',
  grpcService: 'sessions.v1.SessionsService',
  addressEnv: 'SESSIONS_GRPC_URL',
  scopes: ['sessions'],
  secrets: [
    {
      env: 'SESSIONS_KEY',
      description: 'signs session links',
      devstack: 'hex32',
      helm: { secretName: 'platform-sessions-keys', key: 'session-key' },
      composePlaceholder: '04'.repeat(32),
    },
  ],
  env: [{ env: 'SESSIONS_TTL', description: 'session lifetime', compose: '900', helm: '900' }],
};

describe('deploy files written from the catalog', () => {
  it('are in line with the catalog as committed (npm run deploy:generate rewrites them)', () => {
    for (const { file, current, expected } of deployFiles.render(SERVICES)) {
      expect({ file, content: current }).toEqual({ file, content: expected });
    }
  });

  it('give a new entry its compose block, address, database, Helm entry and Secrets', () => {
    const rendered = Object.fromEntries(deployFiles.render([...SERVICES, sessions]).map((r) => [r.file, r.expected]));
    const compose = rendered['docker-compose.yml']!;
    expect(compose).toContain('  SESSIONS_GRPC_URL: sessions:50051');
    expect(compose).toContain('    command: ["node", "services/sessions/dist/main.js"]');
    expect(compose).toContain('      DATABASE_URL: postgres://sessions:sessions@postgres:5432/sessions');
    expect(compose).toContain(`      SESSIONS_KEY: \${SESSIONS_KEY:-${'04'.repeat(32)}}`);
    expect(compose).toMatch(/ {6}sessions:\n {8}condition: service_healthy/);
    expect(rendered['deploy/compose/initdb/01-databases.sql']).toContain('CREATE DATABASE sessions OWNER sessions;');
    const values = rendered['deploy/helm/platform/values.yaml']!;
    expect(values).toMatch(/ {2}sessions:\n {4}enabled: true\n {4}grpcPort: 50051\n/);
    expect(values).toMatch(/ {6}SESSIONS_KEY:\n {8}secretName: platform-sessions-keys\n {8}key: session-key/);
    expect(values).toContain('      SESSIONS_TTL: "900"');
    expect(rendered['deploy/README.md']).toContain('kubectl -n payments create secret generic platform-sessions-keys');
  });
});
