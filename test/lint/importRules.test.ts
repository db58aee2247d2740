import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

const repoRoot = path.resolve(__dirname, '..', '..');
const eslintBin = path.join(repoRoot, 'node_modules', 'eslint', 'bin', 'eslint.js');

interface LintMessage {
  ruleId: string | null;
  message: string;
}

/** The rules ESLint reports for `code` as if it were the file at `file` (nothing is written to the tree). */
function lintAs(file: string, code: string): LintMessage[] {
  let out: string;
  try {
    out = execFileSync(process.execPath, [eslintBin, '--stdin', '--stdin-filename', file, '--format', 'json'], { cwd: repoRoot, input: code, encoding: 'utf8' });
  } catch (error) {
    // ESLint exits 1 when it reports errors; its report is still on stdout.
    out = String((error as { stdout?: string }).stdout);
  }
  const [result] = JSON.parse(out) as { messages: LintMessage[] }[];
  return result?.messages ?? [];
}

/** The TypeScript sources the lint rules cover, generated code aside. */
function sources(): string[] {
  const roots = ['services', 'packages'].flatMap((parent) => readdirSync(path.join(repoRoot, parent)).map((name) => path.join(repoRoot, parent, name, 'src')));
  roots.push(path.join(repoRoot, 'gateway', 'src'));
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'gen' && entry.name !== 'node_modules') walk(full);
      } else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) files.push(full);
    }
  };
  for (const root of roots) if (statSync(root, { throwIfNoEntry: false })?.isDirectory()) walk(root);
  return files;
}

function resolveRelative(from: string, specifier: string): string | undefined {
  const base = path.resolve(path.dirname(from), specifier);
  return [`${base}.ts`, path.join(base, 'index.ts')].find((candidate) => statSync(candidate, { throwIfNoEntry: false })?.isFile());
}

/** Every relative import of every source, type-only ones included (which `import-x/no-cycle` does not follow). */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  const pattern = /(?:^|[\s;])(?:import|export)\s(?:[^'"`;]*?\sfrom\s)?['"](\.{1,2}\/[^'"]*)['"]/g;
  for (const file of sources()) {
    const targets = [...readFileSync(file, 'utf8').matchAll(pattern)].map((m) => resolveRelative(file, m[1]!)).filter((t): t is string => t !== undefined);
    graph.set(file, targets);
  }
  return graph;
}

/** The strongly connected components of more than one file, or of one file that imports itself (Tarjan). */
function circles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (file: string) => {
    index.set(file, next);
    low.set(file, next);
    next += 1;
    stack.push(file);
    onStack.add(file);
    for (const target of graph.get(file) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file)!, low.get(target)!));
      } else if (onStack.has(target)) low.set(file, Math.min(low.get(file)!, index.get(target)!));
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(path.relative(repoRoot, member));
    } while (member !== file);
    if (component.length > 1 || (graph.get(file) ?? []).includes(file)) found.push(component.sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return found;
}

describe('the import rules of npm run lint', () => {
  it('refuses an import from grpc/ below it, and a circle, in a service that keeps the floors', () => {
    const rules = lintAs('services/webhooks/src/wire/webhookMessages.ts', "import { createWebhookHandlers } from '../grpc/webhookHandlers';\nexport const handlers = createWebhookHandlers;\n").map((m) => m.ruleId);
    expect(rules).toEqual(expect.arrayContaining(['import-x/no-restricted-paths', 'import-x/no-cycle']));
    const messages = lintAs('services/customers/src/events/probe.ts', "import { createCustomerHandlers } from '../grpc/customerHandlers';\nexport const handlers = createCustomerHandlers;\n");
    expect(messages.map((m) => m.ruleId)).toEqual(['import-x/no-restricted-paths']);
    expect(messages[0]!.message).toContain('codecs live in wire/');
  });

  it('finds no circle in the sources, counting type-only imports', () => {
    const graph = importGraph();
    expect(graph.size).toBeGreaterThan(300);
    expect(circles(graph)).toEqual([]);
  });
});
