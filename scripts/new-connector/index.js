#!/usr/bin/env node
'use strict';
// npm run new-connector <name> [-- --title "<Provider name>"] [--dry-run] [--root <dir>]
//
// Starts a real provider's connector from scripts/new-connector/templates/ (every `__x__` placeholder filled in):
//   services/payments/src/modules/connectors/<name>/   credentials, transformers, status and decline tables,
//                                                      error mapper, notifications, the adapter, its definition
//   packages/simulators/src/<name>/simulator.ts        its loopback simulator
//   packages/simulators/test/<name>.test.ts            the simulator's tests
//   services/payments/test/connectors/<name>/          the connector's tests against the simulator
// and adds it where the platform learns about connectors:
//   services/payments/src/modules/connectors/catalog.ts   one import, one entry
//   packages/simulators/src/index.ts                      one export
//   packages/api-model/src/enums.ts                       its credentials.type in PROVIDER_CREDENTIAL_TYPES
// The template speaks a small JSON card API; docs/adding-a-connector.md says what to change for a real provider.
//
// <name> is lowercase letters and digits, words joined by "-" (`getnet`, `pag-seguro`); its credentials.type is the
// UPPER_SNAKE form (GETNET, PAG_SEGURO) and its operator variable `<TYPE>_API_URL`.

const fs = require('node:fs');
const path = require('node:path');

const TEMPLATES = path.join(__dirname, 'templates');
const CATALOG = path.join('services', 'payments', 'src', 'modules', 'connectors', 'catalog.ts');
const SIMULATORS = path.join('packages', 'simulators', 'src', 'index.ts');
const ENUMS = path.join('packages', 'api-model', 'src', 'enums.ts');
const IMPORT_MARK = "// `npm run new-connector` adds a connector's import above this line.";
const ENTRY_MARK = '  // `npm run new-connector` adds a connector above this line.';
const EXPORT_MARK = "// `npm run new-connector` adds a simulator's export above this line.";
const TYPE_MARK = "  // `npm run new-connector` adds a connector's type above this line.";
const RESERVED = ['kit', 'domain', 'app', 'sandbox', 'catalog', 'http', 'pix', 'cielo', 'rede'];

function parseArgs(argv) {
  const options = { dryRun: false, root: path.resolve(__dirname, '..', '..') };
  const rest = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--dry-run') options.dryRun = true;
    else if (arg === '--root') options.root = path.resolve(argv[++i]);
    else if (arg === '--title') options.title = argv[++i];
    else if (arg.startsWith('--')) throw new Error(`unknown option ${arg}`);
    else rest.push(arg);
  }
  if (rest.length !== 1) throw new Error('usage: npm run new-connector <name> [-- --title "<Provider name>"] [--dry-run]');
  options.name = rest[0];
  return options;
}

/** Every form of the name the templates use. */
function namesOf(name, options = {}) {
  if (!/^[a-z][a-z0-9]*(-[a-z0-9]+)*$/.test(name) || name.length > 30) {
    throw new Error(`"${name}" is not a connector name: lowercase letters and digits, words joined by "-" (getnet, pag-seguro)`);
  }
  if (RESERVED.includes(name)) throw new Error(`"${name}" is reserved`);
  const camel = name.replace(/-([a-z0-9])/g, (_m, c) => c.toUpperCase());
  const pascal = camel.charAt(0).toUpperCase() + camel.slice(1);
  const upper = name.replace(/-/g, '_').toUpperCase();
  const words = name.replace(/-/g, ' ');
  const title = options.title || `${words.charAt(0).toUpperCase()}${words.slice(1)}`;
  return { name, camel, Pascal: pascal, UPPER: upper, title };
}

function fill(text, names) {
  return text.replace(/__(name|camel|Pascal|UPPER|title)__/g, (_m, key) => names[key]);
}

/** [{ path (relative to the repository), content }] for every template. */
function renderTemplates(names) {
  const files = [];
  const walk = (dir) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith('.tmpl')) {
        const relative = fill(path.relative(TEMPLATES, full).slice(0, -'.tmpl'.length), names);
        files.push({ path: relative, content: fill(fs.readFileSync(full, 'utf8'), names) });
      }
    }
  };
  walk(TEMPLATES);
  return files.sort((a, b) => a.path.localeCompare(b.path));
}

function insertBefore(text, mark, lines, file) {
  const index = text.indexOf(mark);
  if (index < 0) throw new Error(`${file}: the line "${mark.trim()}" is missing`);
  return `${text.slice(0, index)}${lines}\n${text.slice(index)}`;
}

/** The edits to existing files: [{ path, content }]. */
function renderEdits(root, names) {
  const read = (file) => fs.readFileSync(path.join(root, file), 'utf8');
  const enums = read(ENUMS);
  if (enums.includes(`'${names.UPPER}',`)) throw new Error(`${names.UPPER} is already a credentials type in ${ENUMS}`);
  return [
    {
      path: CATALOG,
      content: insertBefore(
        insertBefore(read(CATALOG), IMPORT_MARK, `import { ${names.camel}Connector } from './${names.name}';`, CATALOG),
        ENTRY_MARK,
        `  ${names.camel}Connector,`,
        CATALOG,
      ),
    },
    { path: SIMULATORS, content: insertBefore(read(SIMULATORS), EXPORT_MARK, `export * from './${names.name}/simulator';`, SIMULATORS) },
    { path: ENUMS, content: insertBefore(enums, TYPE_MARK, `  '${names.UPPER}',`, ENUMS) },
  ];
}

function generate(options) {
  const names = namesOf(options.name, options);
  const files = renderTemplates(names);
  for (const file of files) {
    if (fs.existsSync(path.join(options.root, file.path))) throw new Error(`${file.path} already exists`);
  }
  const edits = renderEdits(options.root, names);
  if (!options.dryRun) {
    for (const file of [...files, ...edits]) {
      const target = path.join(options.root, file.path);
      fs.mkdirSync(path.dirname(target), { recursive: true });
      fs.writeFileSync(target, file.content);
    }
  }
  return { names, files, edits };
}

function main() {
  try {
    const options = parseArgs(process.argv.slice(2));
    const { names, files, edits } = generate(options);
    const verb = options.dryRun ? 'would write' : 'wrote';
    for (const file of files) console.log(`  ${verb} ${file.path}`);
    for (const edit of edits) console.log(`  ${options.dryRun ? 'would edit' : 'edited'} ${edit.path}`);
    if (options.dryRun) return;
    console.log(
      [
        '',
        `${names.name}: next steps (docs/adding-a-connector.md)`,
        '  npm run build',
        `  npx jest packages/simulators/test/${names.name}.test.ts services/payments/test/connectors/${names.name}`,
        `  then replace the template's API with ${names.title}'s own, table by table, from its manual`,
      ].join('\n'),
    );
  } catch (error) {
    console.error(`new-connector: ${error.message}`);
    process.exit(1);
  }
}

module.exports = { generate, namesOf, renderTemplates };
if (require.main === module) main();
