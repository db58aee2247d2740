import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '@platform/testkit';
import { matchCalls, mismatch, quickstartOf } from './readme/quickstart';

/**
 * The README's quickstart, run as a newcomer runs it: the platform started by the launcher behind `npm start`
 * (its own embedded PostgreSQL and nats-server, data in a fresh folder), then the quickstart's blocks pasted in order
 * into bash from a folder whose `.data` is that data. Every `curl` goes through a stand-in that records the status
 * and the answer; the run fails when a command fails, when a call answers 400 or more unless the README says so, and
 * when an answer differs from what the README's `# →` line says.
 */
const repoRoot = path.resolve(__dirname, '..', '..');
const quickstart = quickstartOf(readFileSync(path.join(repoRoot, 'README.md'), 'utf8'));

const CURL_RECORDER = (realCurl: string) => `#!/usr/bin/env bash
# Records each call: its arguments, its headers (status line included) and what it printed.
n=$(( $(cat "$QUICKSTART_CALLS/count" 2>/dev/null || echo 0) + 1 ))
echo "$n" > "$QUICKSTART_CALLS/count"
printf '%s\n' "$@" > "$QUICKSTART_CALLS/$n.args"
${realCurl} -D "$QUICKSTART_CALLS/$n.headers" "$@" | tee "$QUICKSTART_CALLS/$n.body"
exit "\${PIPESTATUS[0]}"
`;

function waitForFile(file: string, stack: ChildProcess, output: () => string, timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const check = () => {
      if (existsSync(file)) return resolve();
      if (stack.exitCode !== null) return reject(new Error(`the platform stopped (${stack.exitCode}):\n${output()}`));
      if (Date.now() - started > timeoutMs) return reject(new Error(`the platform did not start in ${timeoutMs} ms:\n${output()}`));
      setTimeout(check, 250);
    };
    check();
  });
}

describe('README quickstart', () => {
  let dir: string;
  let stack: ChildProcess;
  let port: number;
  let adminPort: number;
  let output = '';

  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'readme-quickstart-'));
    port = await freePort();
    // The admin API has a port of its own; the quickstart reads it from ADMIN_PORT as a reader's shell would.
    adminPort = await freePort();
    while (adminPort === port) adminPort = await freePort();
    stack = spawn(process.execPath, [path.join(repoRoot, 'packages', 'devstack', 'dist', 'stack.js')], {
      env: { ...process.env, DATA_DIR: path.join(dir, '.data'), PORT: String(port), ADMIN_PORT: String(adminPort), METRICS_PORT: '0', LOG_FORMAT: 'json', LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const keep = (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-20_000);
    };
    stack.stdout?.on('data', keep);
    stack.stderr?.on('data', keep);
    await waitForFile(path.join(dir, '.data', 'credentials.json'), stack, () => output, 180_000);
  }, 200_000);

  afterAll(async () => {
    if (stack && stack.exitCode === null) {
      const exited = new Promise((resolve) => stack.once('exit', resolve));
      stack.kill('SIGTERM');
      await exited;
    }
    if (dir) rmSync(dir, { recursive: true, force: true });
  }, 90_000);

  it('states what every call answers in a form the test reads', () => {
    expect(quickstart.calls.length).toBeGreaterThan(20);
    expect(quickstart.expectations.length).toBeGreaterThan(10);
  });

  it('runs pasted in order, each call answering what the README says', () => {
    const bin = path.join(dir, 'bin');
    const calls = path.join(dir, 'calls');
    mkdirSync(bin);
    mkdirSync(calls);
    const realCurl = spawnSync('bash', ['-c', 'command -v curl'], { encoding: 'utf8' }).stdout.trim();
    expect(realCurl).not.toBe('');
    writeFileSync(path.join(bin, 'curl'), CURL_RECORDER(realCurl));
    chmodSync(path.join(bin, 'curl'), 0o755);
    writeFileSync(path.join(dir, 'quickstart.sh'), `set -euo pipefail\n${quickstart.script}`);

    const run = spawnSync('bash', [path.join(dir, 'quickstart.sh')], {
      cwd: dir,
      env: { ...process.env, PATH: `${bin}:${process.env.PATH ?? ''}`, PORT: String(port), ADMIN_PORT: String(adminPort), QUICKSTART_CALLS: calls },
      encoding: 'utf8',
      timeout: 240_000,
    });
    const transcript = `exit ${run.status} ${run.signal ?? ''}\n--- stdout\n${run.stdout.slice(-6000)}\n--- stderr\n${run.stderr.slice(-6000)}`;
    if (run.status !== 0) throw new Error(`the quickstart failed\n${transcript}`);

    const made = readdirSync(calls).filter((f) => f.endsWith('.args')).length;
    const recorded = Array.from({ length: made }, (_, i) => readFileSync(path.join(calls, `${i + 1}.args`), 'utf8'));
    const matched = matchCalls(quickstart.calls, recorded);
    if (typeof matched === 'string') throw new Error(`${matched}\n${transcript}`);

    const problems: string[] = [];
    for (const [call, index] of matched.entries()) {
      const headers = readFileSync(path.join(calls, `${index + 1}.headers`), 'utf8');
      const statuses = [...headers.matchAll(/^HTTP\/[\d.]+ (\d{3})/gm)];
      const status = Number(statuses.at(-1)?.[1]);
      const text = readFileSync(path.join(calls, `${index + 1}.body`), 'utf8');
      const stated = quickstart.expectations.filter((e) => e.call === call);
      const expectedStatus = stated.find((e) => e.status !== undefined)?.status;
      if (expectedStatus !== undefined ? status !== expectedStatus : !(status < 400)) {
        problems.push(`call ${call + 1} answered ${status}${expectedStatus ? `, the README says ${expectedStatus}` : ''}: ${text.slice(0, 400)}`);
        continue;
      }
      for (const expectation of stated.filter((e) => e.body !== undefined)) {
        let body: unknown;
        try {
          body = JSON.parse(text);
        } catch {
          problems.push(`call ${call + 1} did not answer JSON (${expectation.line}): ${text.slice(0, 200)}`);
          continue;
        }
        const found = mismatch(expectation.body, body);
        if (found) problems.push(`call ${call + 1}, ${expectation.line}: ${found}`);
      }
    }
    expect(problems).toEqual([]);
  }, 300_000);
});
