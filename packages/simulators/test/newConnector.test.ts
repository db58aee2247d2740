import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const repoRoot = path.resolve(__dirname, '..', '..', '..');
const script = path.join(repoRoot, 'scripts', 'new-connector', 'index.js');
const EDITED = ['services/payments/src/modules/connectors/catalog.ts', 'packages/simulators/src/index.ts', 'packages/api-model/src/enums.ts'];

/** A scratch copy of the files the generator edits. */
function scratchRepo(): string {
  const root = mkdtempSync(path.join(os.tmpdir(), 'new-connector-'));
  for (const file of EDITED) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    cpSync(path.join(repoRoot, file), path.join(root, file));
  }
  return root;
}

function run(root: string, ...args: string[]): string {
  return execFileSync(process.execPath, [script, ...args, '--root', root], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

function failure(root: string, ...args: string[]): string {
  try {
    run(root, ...args);
  } catch (error) {
    return String((error as { stderr?: string }).stderr);
  }
  throw new Error('expected the generator to fail');
}

describe('npm run new-connector', () => {
  let root: string;
  beforeEach(() => {
    root = scratchRepo();
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('writes the connector, its simulator and their tests, and registers it in three places', () => {
    run(root, 'pag-seguro', '--title', 'PagSeguro');
    const connector = 'services/payments/src/modules/connectors/pag-seguro';
    for (const file of [
      `${connector}/credentials.ts`,
      `${connector}/transformers.ts`,
      `${connector}/statusTable.ts`,
      `${connector}/declineTable.ts`,
      `${connector}/errors.ts`,
      `${connector}/notifications.ts`,
      `${connector}/connector.ts`,
      `${connector}/index.ts`,
      'packages/simulators/src/pag-seguro/simulator.ts',
      'packages/simulators/test/pag-seguro.test.ts',
      'services/payments/test/connectors/pag-seguro/connector.test.ts',
    ]) {
      expect({ file, exists: existsSync(path.join(root, file)) }).toEqual({ file, exists: true });
    }
    const read = (file: string) => readFileSync(path.join(root, file), 'utf8');
    expect(read(`${connector}/connector.ts`)).toContain("export const PAG_SEGURO_TYPE = 'PAG_SEGURO';");
    expect(read(`${connector}/connector.ts`)).toContain("'PAG_SEGURO_API_URL'");
    expect(read(`${connector}/index.ts`)).toContain('export const pagSeguroConnector: ConnectorDefinition');
    expect(read('packages/simulators/src/pag-seguro/simulator.ts')).toContain('export async function startPagSeguroSimulator');
    expect(read(EDITED[0]!)).toMatch(/import \{ pagSeguroConnector \} from '\.\/pag-seguro';\n\/\/ `npm run new-connector` adds/);
    expect(read(EDITED[0]!)).toMatch(/ {2}pagSeguroConnector,\n {2}\/\/ `npm run new-connector` adds a connector above/);
    expect(read(EDITED[1]!)).toContain("export * from './pag-seguro/simulator';");
    expect(read(EDITED[2]!)).toMatch(/ {2}'PAG_SEGURO',\n {2}\/\/ `npm run new-connector` adds a connector's type/);
    // No placeholder is left in anything written.
    for (const file of [`${connector}/connector.ts`, `${connector}/transformers.ts`, 'packages/simulators/src/pag-seguro/simulator.ts']) {
      expect(read(file)).not.toMatch(/__[a-zA-Z]+__/);
    }
  });

  it('refuses a name that is not one, a reserved one and a type that exists', () => {
    expect(failure(root, 'Bad_Name')).toContain('is not a connector name');
    expect(failure(root, 'cielo')).toContain('is reserved');
    expect(failure(root, 'subacquirer')).toContain('SUBACQUIRER is already a credentials type');
  });

  it('changes nothing with --dry-run', () => {
    const before = EDITED.map((file) => readFileSync(path.join(root, file), 'utf8'));
    expect(run(root, 'getnet', '--dry-run')).toContain('would write services/payments/src/modules/connectors/getnet/connector.ts');
    expect(EDITED.map((file) => readFileSync(path.join(root, file), 'utf8'))).toEqual(before);
    expect(existsSync(path.join(root, 'services/payments/src/modules/connectors/getnet'))).toBe(false);
  });
});
