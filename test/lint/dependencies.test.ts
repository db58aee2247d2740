import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/**
 * Every runtime dependency of the payments service (where the providers' SDKs are) is used by its code: a package no
 * line imports is weight, an install-time risk and a false statement about how a connector works (the README's
 * notable dependencies table says why each one is there). The ones the service's process needs without importing
 * them are named here with the reason.
 */

const repoRoot = path.resolve(__dirname, '..', '..');

/** Needed by the process, not imported by the service's own code: the dependency and why. */
const NOT_IMPORTED: Record<string, string> = {
  '@grpc/grpc-js': 'one copy of the gRPC runtime for @platform/kit and the generated contracts',
  pg: 'the PostgreSQL driver @platform/kit opens the service\'s pool with',
};

function sourceText(dir: string): string {
  const texts: string[] = [];
  const walk = (current: string) => {
    for (const entry of readdirSync(current, { withFileTypes: true })) {
      const full = path.join(current, entry.name);
      if (entry.isDirectory()) {
        if (!['node_modules', 'dist', 'test'].includes(entry.name)) walk(full);
      } else if (/\.(ts|js|mjs|cjs)$/.test(entry.name) && !entry.name.endsWith('.d.ts')) texts.push(readFileSync(full, 'utf8'));
    }
  };
  for (const root of ['src', 'bin', 'scripts']) {
    const full = path.join(dir, root);
    if (statSync(full, { throwIfNoEntry: false })?.isDirectory()) walk(full);
  }
  return texts.join('\n');
}

describe('runtime dependencies', () => {
  it('the payments service uses every dependency it declares (no provider SDK left unused)', () => {
    const dir = path.join(repoRoot, 'services', 'payments');
    const manifest = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> };
    const text = sourceText(dir);
    const unused = Object.keys(manifest.dependencies ?? {}).filter((name) => {
      if (NOT_IMPORTED[name]) return false;
      const escaped = name.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
      return !new RegExp(`['"\`]${escaped}(/[^'"\`]*)?['"\`]`).test(text);
    });
    expect(unused).toEqual([]);
  });
});
