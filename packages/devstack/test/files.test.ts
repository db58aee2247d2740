import { mkdtempSync, openSync, readdirSync, readFileSync, readSync, rmSync, statSync, writeFileSync, closeSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { writeFileAtomic } from '../src/files';

describe('writeFileAtomic', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'devstack-files-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('replaces the file in one step: a reader that opened the old file still reads all of it', () => {
    const file = path.join(dir, 'credentials.json');
    const old = JSON.stringify({ adminToken: 'a'.repeat(40) });
    writeFileSync(file, old);
    const fd = openSync(file, 'r');
    try {
      const next = JSON.stringify({ clientId: 'c1', apiKey: 'k1', adminToken: 'a'.repeat(40) });
      writeFileAtomic(file, next);
      const buffer = Buffer.alloc(old.length + 100);
      const read = readSync(fd, buffer, 0, buffer.length, 0);
      // Written in place, the open file would have been truncated and refilled with the new content.
      expect(buffer.subarray(0, read).toString()).toBe(old);
      expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ clientId: 'c1', apiKey: 'k1', adminToken: 'a'.repeat(40) });
    } finally {
      closeSync(fd);
    }
  });

  it('leaves no temporary file behind and keeps the file private', () => {
    const file = path.join(dir, 'keys.json');
    writeFileAtomic(file, '{"k":"v"}\n');
    expect(readdirSync(dir)).toEqual(['keys.json']);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });
});
