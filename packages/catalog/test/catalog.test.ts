import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { grpcServices } from '@platform/contracts';
import { addressEnvOf, camelCase, checkCatalog, SERVICES, type ServiceEntry } from '../src';

const repoRoot = path.resolve(__dirname, '..', '..', '..');

describe('the service catalog', () => {
  it('is consistent: unique names, databases, contracts, scopes and secrets in their expected form', () => {
    expect(checkCatalog()).toEqual([]);
  });

  it('names a folder under services/ and a gRPC service of proto/ for every entry', () => {
    for (const service of SERVICES) {
      const manifest = path.join(repoRoot, 'services', service.name, 'package.json');
      expect(existsSync(manifest)).toBe(true);
      expect(JSON.parse(readFileSync(manifest, 'utf8')).main).toBe('dist/main.js');
      expect(Object.keys(grpcServices)).toContain(service.grpcService);
    }
  });

  it('lists every folder under services/', () => {
    const folders = readdirSync(path.join(repoRoot, 'services'))
      .filter((name) => existsSync(path.join(repoRoot, 'services', name, 'package.json')))
      .sort();
    expect(SERVICES.map((s) => s.name).sort()).toEqual(folders);
  });

  it('reports what the types cannot catch', () => {
    const entry: ServiceEntry = SERVICES[0];
    const broken: ServiceEntry[] = [
      entry,
      { ...entry, name: 'Sellers', client: 'sellers', addressEnv: 'X', database: 'settings', scopes: ['settings'], grpcService: 'nope' },
    ];
    const problems = checkCatalog(broken).join('\n');
    for (const expected of ['lowercase DNS label', 'client must be', 'addressEnv must be', 'database settings is already used', 'scope settings is already used', 'is not <package>.<Service>']) {
      expect(problems).toContain(expected);
    }
  });

  it('derives names the way the generator and Helm do', () => {
    expect(camelCase('sellers-and-reviews')).toBe('sellersAndReviews');
    expect(addressEnvOf('sellers-and-reviews')).toBe('SELLERS_AND_REVIEWS_GRPC_URL');
  });
});
