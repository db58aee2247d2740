import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort, waitForPort } from './ports';

export const NATS_INSTALL_HINT = 'sudo apt-get install -y nats-server';

/** Finds the nats-server binary, or explains in one line how to install it. */
export function natsServerBinary(): string {
  const fromEnv = process.env.NATS_SERVER_BIN;
  if (fromEnv && existsSync(fromEnv)) return fromEnv;
  const found = spawnSync('sh', ['-c', 'command -v nats-server'], { encoding: 'utf8' }).stdout.trim();
  if (found) return found;
  for (const candidate of ['/usr/sbin/nats-server', '/usr/bin/nats-server', '/usr/local/bin/nats-server']) {
    if (existsSync(candidate)) return candidate;
  }
  throw new Error(`nats-server was not found. Install it with: ${NATS_INSTALL_HINT}`);
}

export interface NatsServer {
  port: number;
  url: string;
  stop(): Promise<void>;
}

/** A real nats-server with JetStream on a free port; its store is kept in `storeDir` when one is given. */
export async function startNats(options: { storeDir?: string; port?: number; onLog?: (line: string) => void } = {}): Promise<NatsServer> {
  const binary = natsServerBinary();
  const persistent = options.storeDir !== undefined;
  const storeDir = options.storeDir ?? mkdtempSync(path.join(os.tmpdir(), 'platform-nats-'));
  mkdirSync(storeDir, { recursive: true });
  const port = options.port ?? (await freePort());
  const child: ChildProcess = spawn(binary, ['-a', '127.0.0.1', '-p', String(port), '-js', '-sd', storeDir], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const onLog = options.onLog ?? (() => undefined);
  child.stdout?.on('data', (chunk: Buffer) => onLog(chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => onLog(chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await Promise.race([
    waitForPort(port),
    exited.then(() => {
      throw new Error('nats-server exited during start');
    }),
  ]);
  return {
    port,
    url: `nats://127.0.0.1:${port}`,
    stop: async () => {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await exited;
      }
      if (!persistent) rmSync(storeDir, { recursive: true, force: true });
    },
  };
}
