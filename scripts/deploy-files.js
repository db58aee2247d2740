#!/usr/bin/env node
'use strict';
// Writes the parts of the deploy files that list the services, from the service catalog (packages/catalog):
//
//   docker-compose.yml                      the gRPC addresses, one block per service, the gateway's depends_on
//   deploy/compose/initdb/01-databases.sql  one role and database per service
//   deploy/helm/platform/values.yaml        one entry per service under `services:`
//   deploy/README.md                        the Secrets to create before `helm install`
//
// Each part sits between a `>>> catalog:<part>` line and a `<<< catalog:<part>` line; everything outside them is
// written by hand and kept as it is. Plain Node; reads the built catalog (packages/catalog/dist).
//
//   node scripts/deploy-files.js            rewrite the parts (npm run deploy:generate)
//   node scripts/deploy-files.js --check    exit 1 when a committed file differs from the catalog (npm run deploy:check)

const fs = require('node:fs');
const path = require('node:path');

const repoRoot = path.resolve(__dirname, '..');
const GRPC_PORT = 50051;

/** A catalog description as a comment: capitalised, with a full stop. */
const sentence = (text) => `${text.charAt(0).toUpperCase()}${text.slice(1)}${/[.!?]$/.test(text) ? '' : '.'}`;

// --- docker-compose.yml -------------------------------------------------------------------------------------

function composeAddresses(services) {
  return services.map((s) => `  ${s.addressEnv}: ${s.name}:${GRPC_PORT}`);
}

function composeServices(services) {
  const lines = [];
  for (const s of services) {
    lines.push(`  ${s.name}:`, '    <<: *service', `    command: ["node", "services/${s.name}/dist/main.js"]`, '    environment:', '      <<: *service-env');
    lines.push(`      DATABASE_URL: postgres://${s.database}:${s.database}@postgres:5432/${s.database}`);
    for (const extra of s.env) {
      if (extra.compose === undefined) continue;
      lines.push(`      # ${sentence(extra.description)}`, `      ${extra.env}: ${extra.compose}`);
    }
    for (const secret of s.secrets) {
      lines.push(`      # Placeholder for local use (32 bytes, hex): ${secret.description}. Production reads it from a secret store.`);
      lines.push(`      ${secret.env}: \${${secret.env}:-${secret.composePlaceholder}}`);
    }
    lines.push('');
  }
  lines.pop();
  return lines;
}

function composeDependsOn(services) {
  return services.flatMap((s) => [`      ${s.name}:`, '        condition: service_healthy']);
}

// --- deploy/compose/initdb ----------------------------------------------------------------------------------

function databases(services) {
  const lines = [];
  for (const s of services) {
    lines.push(`CREATE ROLE ${s.database} LOGIN PASSWORD '${s.database}';`, `CREATE DATABASE ${s.database} OWNER ${s.database};`, `REVOKE ALL ON DATABASE ${s.database} FROM PUBLIC;`, '');
  }
  lines.pop();
  return lines;
}

// --- Helm values --------------------------------------------------------------------------------------------

const yamlString = (value) => (/^[A-Za-z0-9_./:-]+$/.test(value) && !/^(true|false|null|yes|no|on|off|~|[0-9.]+)$/i.test(value) ? value : JSON.stringify(value));

function helmServices(services) {
  const lines = [];
  for (const s of services) {
    lines.push(`  ${s.name}:`, '    enabled: true', `    grpcPort: ${GRPC_PORT}`);
    // A service that reads PUBLIC_URL (and is given no value of its own) gets the gateway's publicUrl.
    if (s.env.some((e) => e.env === 'PUBLIC_URL' && e.helm === undefined)) lines.push('    # Reads PUBLIC_URL: the chart sets it to gateway.publicUrl.', '    readsPublicUrl: true');
    const resources = s.deploy && s.deploy.resources;
    if (resources) {
      lines.push('    resources:');
      for (const kind of ['requests', 'limits']) {
        lines.push(`      ${kind}:`, `        cpu: ${yamlString(resources[kind].cpu)}`, `        memory: ${yamlString(resources[kind].memory)}`);
      }
    }
    if (s.deploy && s.deploy.note) lines.push(`    # ${s.deploy.note}`);
    if (s.secrets.length > 0) {
      lines.push('    secretEnv:');
      for (const secret of s.secrets) {
        lines.push(`      # ${sentence(secret.description).slice(0, -1)}; ${secret.lifecycle ?? 'it must never change'} (create the Secret before installing).`);
        lines.push(`      ${secret.env}:`, `        secretName: ${secret.helm.secretName}`, `        key: ${secret.helm.key}`);
      }
    }
    const env = s.env.filter((e) => e.helm !== undefined);
    if (env.length > 0) {
      lines.push('    env:');
      for (const extra of env) lines.push(`      # ${sentence(extra.description)}`, `      ${extra.env}: ${JSON.stringify(extra.helm)}`);
    }
    lines.push('');
  }
  lines.pop();
  return lines;
}

// --- deploy/README.md ---------------------------------------------------------------------------------------

function readmeSecrets(services) {
  const lines = ['```sh'];
  lines.push('kubectl -n payments create secret generic platform-database-urls \\');
  services.forEach((s, i) => {
    const last = i === services.length - 1;
    lines.push(`  --from-literal=${s.name}='postgres://${s.database}:...@pg.example.internal:5432/${s.database}?sslmode=require'${last ? '' : ' \\'}`);
  });
  // ADMIN_TOKENS: one or more, comma-separated, `name:token` names each in the audit log (rotation: docs/operations.md).
  lines.push('', 'kubectl -n payments create secret generic platform-gateway \\', '  --from-literal=admin-tokens="ops:$(openssl rand -hex 32)"');
  const bySecret = new Map();
  for (const s of services) {
    for (const secret of s.secrets) {
      if (!bySecret.has(secret.helm.secretName)) bySecret.set(secret.helm.secretName, []);
      bySecret.get(secret.helm.secretName).push(secret);
    }
  }
  if (bySecret.size > 0) lines.push('', '# Keys that must never change: keep a copy in your secret store.');
  for (const [secretName, secrets] of bySecret) {
    lines.push(`kubectl -n payments create secret generic ${secretName} \\`);
    secrets.forEach((secret, i) => lines.push(`  --from-literal=${secret.helm.key}="$(openssl rand -hex 32)"${i === secrets.length - 1 ? '' : ' \\'}`));
  }
  lines.push('```', '', '| Service | Database | Address variable | Secrets (Secret / key) | Other variables |', '|---|---|---|---|---|');
  for (const s of services) {
    const secrets = s.secrets.map((x) => `\`${x.env}\` (\`${x.helm.secretName}\` / \`${x.helm.key}\`)`).join(', ') || '-';
    const env = s.env.filter((e) => e.helm !== undefined).map((e) => `\`${e.env}=${e.helm}\``).join(', ') || '-';
    lines.push(`| ${s.name} | \`${s.database}\` | \`${s.addressEnv}\` | ${secrets} | ${env} |`);
  }
  return lines;
}

// --- regions ------------------------------------------------------------------------------------------------

const FILES = {
  'docker-compose.yml': { addresses: composeAddresses, services: composeServices, 'gateway-depends-on': composeDependsOn },
  'deploy/compose/initdb/01-databases.sql': { databases },
  'deploy/helm/platform/values.yaml': { services: helmServices },
  'deploy/README.md': { secrets: readmeSecrets },
};

/** Replaces every `>>> catalog:<part>` ... `<<< catalog:<part>` region of `text` with what `parts` renders. */
function fill(text, parts, services, file) {
  const lines = text.split('\n');
  const out = [];
  const seen = new Set();
  for (let i = 0; i < lines.length; i++) {
    out.push(lines[i]);
    const begin = /(?:^|\s)>>> catalog:([\w-]+)/.exec(lines[i]);
    if (!begin) continue;
    const part = begin[1];
    if (!parts[part]) throw new Error(`${file}:${i + 1}: unknown part catalog:${part}`);
    const end = lines.findIndex((line, j) => j > i && line.includes(`<<< catalog:${part}`));
    if (end < 0) throw new Error(`${file}:${i + 1}: catalog:${part} has no end line`);
    out.push(...parts[part](services));
    out.push(lines[end]);
    i = end;
    seen.add(part);
  }
  for (const part of Object.keys(parts)) if (!seen.has(part)) throw new Error(`${file}: the catalog:${part} region is missing`);
  return out.join('\n');
}

/** Every deploy file as the catalog says it should be: [{ file, current, expected }]. */
function render(services, root = repoRoot) {
  return Object.entries(FILES).map(([file, parts]) => {
    const current = fs.readFileSync(path.join(root, file), 'utf8');
    return { file, current, expected: fill(current, parts, services, file) };
  });
}

function loadServices() {
  try {
    return require(path.join(repoRoot, 'packages', 'catalog', 'dist')).SERVICES;
  } catch {
    console.error('deploy-files: build the catalog first (npx turbo run build --filter=@platform/catalog)');
    process.exit(1);
  }
}

function main() {
  const check = process.argv.includes('--check');
  const results = render(loadServices());
  const stale = results.filter((r) => r.current !== r.expected);
  if (check) {
    if (stale.length > 0) {
      console.error(`deploy-files: not in line with packages/catalog: ${stale.map((r) => r.file).join(', ')}\n  run: npm run deploy:generate`);
      process.exit(1);
    }
    console.log(`deploy-files: ${results.length} files in line with the catalog`);
    return;
  }
  for (const r of stale) fs.writeFileSync(path.join(repoRoot, r.file), r.expected);
  console.log(stale.length === 0 ? 'deploy-files: nothing to change' : `deploy-files: rewrote ${stale.map((r) => r.file).join(', ')}`);
}

module.exports = { render, fill, FILES };
if (require.main === module) main();
