#!/usr/bin/env node
'use strict';
// npm run new-service <name> [-- --database <db>] [--proto <package>] [--title "<one line>"] [--dry-run] [--root <dir>] [--no-deploy]
//
// Writes the skeleton of a new gRPC service from scripts/new-service/templates/ (every `__x__` placeholder filled
// in) and adds it where the platform learns about services:
//   proto/<proto>/v1/<proto>.proto           the contract (CreateItem, GetItem)
//   services/<name>/                         the service: src/{main,config,service}.ts, domain, app, store, wire,
//                                            grpc, events, migrations/001_<snake>.sql, tests, README.md
//   gateway/src/routes/<name>/               routes, schemas and mapping of its REST surface
//   packages/catalog/src/services.ts         its entry (database, contract, address, scopes)
//   gateway/src/app.ts                       one import and one line mounting its routes
// then rewrites the deploy files from the catalog (npm run deploy:generate) unless --no-deploy or --root.
//
// <name> is a lowercase DNS label (`sessions`, `sellers-and-reviews`); the proto package is its snake_case form, or
// --proto <package> (`sellers` for sellers-and-reviews): the contract's folder, package and `@platform/contracts` name.
// --dry-run prints what would be written and changes nothing; --root writes into another copy of the repository.

const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

const TEMPLATES = path.join(__dirname, 'templates');
const CATALOG = path.join('packages', 'catalog', 'src', 'services.ts');
const APP = path.join('gateway', 'src', 'app.ts');
const CATALOG_MARK = '  // new services are added above this line';
const IMPORT_MARK = '// `npm run new-service` adds the import of a new service\'s routes above this line.';
const ROUTES_MARK = '    // `npm run new-service` adds a new service\'s routes above this line.';
const RESERVED = ['gateway', 'health', 'config', 'common', 'google', 'catalog', 'kit', 'testkit', 'devstack', 'contracts'];

function parseArgs(argv) {
  const options = { dryRun: false, deploy: true, root: path.resolve(__dirname, '..', '..') };
  const rest = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--dry-run') options.dryRun = true;
    else if (arg === '--no-deploy') options.deploy = false;
    else if (arg === '--root') {
      options.root = path.resolve(argv[++i]);
      options.deploy = false;
    } else if (arg === '--database') options.database = argv[++i];
    else if (arg === '--title') options.title = argv[++i];
    else if (arg === '--proto') options.proto = argv[++i];
    else if (arg.startsWith('--')) throw new Error(`unknown option ${arg}`);
    else rest.push(arg);
  }
  if (rest.length !== 1) throw new Error('usage: npm run new-service <name> [-- --database <db>] [--proto <package>] [--title "<one line>"] [--dry-run]');
  options.name = rest[0];
  return options;
}

/** Every form of the name the templates use. */
function namesOf(name, options = {}) {
  if (!/^[a-z][a-z0-9]*(-[a-z0-9]+)*$/.test(name) || name.length > 40) {
    throw new Error(`"${name}" is not a service name: lowercase letters and digits, words joined by "-" (sessions, sellers-and-reviews)`);
  }
  if (RESERVED.includes(name)) throw new Error(`"${name}" is reserved`);
  const snake = name.replace(/-/g, '_');
  const camel = name.replace(/-([a-z0-9])/g, (_m, c) => c.toUpperCase());
  const pascal = camel.charAt(0).toUpperCase() + camel.slice(1);
  const words = name.replace(/-/g, ' ');
  const title = options.title || `${words.charAt(0).toUpperCase()}${words.slice(1)}`;
  const database = options.database || snake;
  if (!/^[a-z][a-z0-9_]*$/.test(database)) throw new Error(`"${database}" is not a database name`);
  const proto = options.proto || snake;
  if (!/^[a-z][a-z0-9]*(_[a-z0-9]+)*$/.test(proto) || RESERVED.includes(proto)) throw new Error(`"${proto}" is not a proto package name: lowercase words joined by "_"`);
  const protoCamel = proto.replace(/_([a-z0-9])/g, (_m, c) => c.toUpperCase());
  const protoPascal = protoCamel.charAt(0).toUpperCase() + protoCamel.slice(1);
  return { name, snake, camel, Pascal: pascal, UPPER: snake.toUpperCase(), title, database, proto, protoCamel, ProtoPascal: protoPascal };
}

function fill(text, names) {
  return text.replace(/__(name|snake|camel|Pascal|UPPER|title|database|proto|protoCamel|ProtoPascal)__/g, (_m, key) => names[key]);
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

function catalogEntry(names) {
  return [
    '  {',
    `    name: '${names.name}',`,
    `    client: '${names.camel}',`,
    `    summary: ${JSON.stringify(names.title).replace(/^"|"$/g, "'")},`,
    `    database: '${names.database}',`,
    `    grpcService: '${names.proto}.v1.${names.ProtoPascal}Service',`,
    `    addressEnv: '${names.UPPER}_GRPC_URL',`,
    `    scopes: ['${names.name}'],`,
    '    secrets: [],',
    '    env: [],',
    '  },',
  ].join('\n');
}

function insertBefore(text, mark, lines, file) {
  const index = text.indexOf(mark);
  if (index < 0) throw new Error(`${file}: the line "${mark.trim()}" is missing`);
  return `${text.slice(0, index)}${lines}\n${text.slice(index)}`;
}

/** The edits to existing files: [{ path, content }]. */
function renderEdits(root, names) {
  const catalog = fs.readFileSync(path.join(root, CATALOG), 'utf8');
  if (new RegExp(`name: '${names.name}'`).test(catalog)) throw new Error(`${names.name} is already in ${CATALOG}`);
  if (new RegExp(`database: '${names.database}'`).test(catalog)) throw new Error(`the database ${names.database} is already used; pick another with --database`);
  const app = fs.readFileSync(path.join(root, APP), 'utf8');
  return [
    { path: CATALOG, content: insertBefore(catalog, CATALOG_MARK, catalogEntry(names), CATALOG) },
    {
      path: APP,
      content: insertBefore(
        insertBefore(app, IMPORT_MARK, `import { ${names.camel}Routes } from './routes/${names.name}/routes';`, APP),
        ROUTES_MARK,
        `    ...${names.camel}Routes(clients),`,
        APP,
      ),
    },
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
  let options;
  try {
    options = parseArgs(process.argv.slice(2));
    const { names, files, edits } = generate(options);
    const verb = options.dryRun ? 'would write' : 'wrote';
    for (const file of files) console.log(`  ${verb} ${file.path}`);
    for (const edit of edits) console.log(`  ${options.dryRun ? 'would edit' : 'edited'} ${edit.path}`);
    if (options.dryRun) return;
    if (options.deploy) {
      const result = spawnSync('npm', ['run', '--silent', 'deploy:generate'], { cwd: options.root, stdio: 'inherit' });
      if (result.status !== 0) throw new Error('npm run deploy:generate failed');
    }
    console.log(
      [
        '',
        `${names.name}: next steps (docs/adding-a-service.md)`,
        '  npm install                 link the new workspace',
        '  npm run build && npx jest services/' + names.name,
        '  npm start                   the platform with the new service',
        ...(options.deploy ? [] : ['  npm run deploy:generate     compose, Helm values, initdb']),
      ].join('\n'),
    );
  } catch (error) {
    console.error(`new-service: ${error.message}`);
    process.exit(1);
  }
}

module.exports = { generate, namesOf, renderTemplates, catalogEntry };
if (require.main === module) main();
