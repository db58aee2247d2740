#!/usr/bin/env node
'use strict';
// Copies proto/ into dist/proto after the build: the services serve these files over gRPC reflection, so an
// operator's grpcurl can list and call every RPC without a copy of the repository.
const fs = require('node:fs');
const path = require('node:path');

const packageDir = path.resolve(__dirname, '..');
const from = path.join(packageDir, '..', '..', 'proto');
const to = path.join(packageDir, 'dist', 'proto');
fs.rmSync(to, { recursive: true, force: true });
fs.cpSync(from, to, { recursive: true, filter: (source) => fs.statSync(source).isDirectory() || source.endsWith('.proto') });
