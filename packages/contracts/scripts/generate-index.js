#!/usr/bin/env node
'use strict';
// Writes src/gen/index.ts after `buf generate`: one namespace per proto folder (proto/<folder>/v1 -> <folder>,
// v2 -> <folder>V2, snake_case folders in camelCase) and `grpcServices`, every gRPC service by its fully qualified
// name with ts-proto's service definition and client constructor. A new proto folder needs no edit here.
//
//   node scripts/generate-index.js [protoDir] [genDir]

const fs = require('node:fs');
const path = require('node:path');

const packageDir = path.resolve(__dirname, '..');
const protoDir = path.resolve(process.argv[2] || path.join(packageDir, '..', '..', 'proto'));
const genDir = path.resolve(process.argv[3] || path.join(packageDir, 'src', 'gen'));

const camelCase = (name) => name.replace(/[-_]+([a-z0-9])/g, (_m, c) => c.toUpperCase());

/** Every proto file under proto/<folder>/<version>/, with its package and services. */
function scan() {
  const modules = [];
  for (const folder of fs.readdirSync(protoDir).sort()) {
    const folderPath = path.join(protoDir, folder);
    if (!fs.statSync(folderPath).isDirectory()) continue;
    for (const version of fs.readdirSync(folderPath).sort()) {
      const versionPath = path.join(folderPath, version);
      if (!/^v\d+$/.test(version) || !fs.statSync(versionPath).isDirectory()) continue;
      const files = fs.readdirSync(versionPath).filter((f) => f.endsWith('.proto')).sort();
      if (files.length === 0) continue;
      const namespace = camelCase(folder) + (version === 'v1' ? '' : version.toUpperCase());
      const entries = files.map((file) => {
        const text = fs.readFileSync(path.join(versionPath, file), 'utf8').replace(/\/\/.*$/gm, '');
        const pkg = (text.match(/^\s*package\s+([\w.]+)\s*;/m) || [])[1];
        if (!pkg) throw new Error(`${folder}/${version}/${file}: no package`);
        const services = [...text.matchAll(/^\s*service\s+(\w+)\s*\{/gm)].map((m) => m[1]);
        return { module: `./${folder}/${version}/${file.replace(/\.proto$/, '')}`, pkg, services };
      });
      modules.push({ namespace, entries });
    }
  }
  return modules;
}

function render(modules) {
  const lines = ['// Written by packages/contracts/scripts/generate-index.js from proto/; never edited by hand.', ''];
  const exported = [];
  for (const { namespace, entries } of modules) {
    if (entries.length === 1) {
      lines.push(`import * as ${namespace} from '${entries[0].module}';`);
    } else {
      // Several files in one package: one namespace over all of them.
      entries.forEach((e, i) => lines.push(`import * as ${namespace}_${i} from '${e.module}';`));
      lines.push(`const ${namespace} = { ${entries.map((_e, i) => `...${namespace}_${i}`).join(', ')} };`);
    }
    exported.push(namespace);
  }
  lines.push('', `export { ${exported.join(', ')} };`, '');
  lines.push('/** Every gRPC service in proto/, by fully qualified name: its definition and client constructor. */');
  lines.push('export const grpcServices = {');
  for (const { namespace, entries } of modules) {
    entries.forEach((e, i) => {
      const ns = entries.length === 1 ? namespace : `${namespace}_${i}`;
      for (const service of e.services) {
        lines.push(`  '${e.pkg}.${service}': { definition: ${ns}.${service}Service, client: ${ns}.${service}Client },`);
      }
    });
  }
  lines.push('} as const;', '', 'export type GrpcServices = typeof grpcServices;', '');
  return lines.join('\n');
}

function main() {
  const modules = scan();
  fs.mkdirSync(genDir, { recursive: true });
  fs.writeFileSync(path.join(genDir, 'index.ts'), render(modules));
}

module.exports = { scan, render };
if (require.main === module) main();
