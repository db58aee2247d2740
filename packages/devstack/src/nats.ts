import { mkdirSync } from 'node:fs';
import { freePort, natsServerBinary, waitForPort } from '@platform/testkit';
import { managedProcess, type HealOptions, type ManagedProcess } from './processes';

export interface NatsProcess {
  port: number;
  url: string;
  process: ManagedProcess;
  stop(): Promise<void>;
}

/**
 * nats-server with JetStream, its streams and consumers kept in `storeDir`. With `heal` it is started again
 * after a crash on the same port and store, so the services' clients reconnect to it by themselves and find
 * the streams, their consumers' positions and the unacknowledged messages where they were.
 */
export async function launchNats(options: {
  storeDir: string;
  port?: number;
  heal?: Omit<HealOptions, 'ready'>;
  onLine?: (name: string, line: string) => void;
}): Promise<NatsProcess> {
  mkdirSync(options.storeDir, { recursive: true });
  const port = options.port ?? (await freePort());
  const ready = () => waitForPort(port, 30_000);
  let exitedEarly: ((reason: Error) => void) | undefined;
  const nats = managedProcess({
    name: 'nats',
    command: natsServerBinary(),
    args: ['-a', '127.0.0.1', '-p', String(port), '-js', '-sd', options.storeDir],
    cwd: options.storeDir,
    env: process.env,
    heal: options.heal && { ...options.heal, ready },
    onLine: options.onLine,
    onExit: (_name, code, signal) => exitedEarly?.(new Error(`nats-server exited during start (code ${code}, signal ${signal})`)),
  });
  nats.start();
  try {
    await Promise.race([ready(), new Promise<never>((_resolve, reject) => (exitedEarly = reject))]);
  } catch (error) {
    await nats.stop();
    throw error;
  } finally {
    exitedEarly = undefined;
  }
  return { port, url: `nats://127.0.0.1:${port}`, process: nats, stop: () => nats.stop() };
}
