import { spawn, type ChildProcess } from 'node:child_process';
import readline from 'node:readline';

export interface ManagedProcess {
  name: string;
  pid(): number | undefined;
  /** Resolves when the process has exited (after a stop or a kill). */
  stop(signal?: NodeJS.Signals): Promise<void>;
  kill(signal: NodeJS.Signals): Promise<void>;
  start(): void;
  running(): boolean;
}

/** A child Node process with its output forwarded line by line, restartable with the same environment. */
export function managedProcess(options: {
  name: string;
  entry: string;
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** Flags for node itself (e.g. --cpu-prof), before the entry point. */
  nodeArgs?: string[];
  onLine?: (name: string, line: string) => void;
  onExit?: (name: string, code: number | null, signal: NodeJS.Signals | null) => void;
}): ManagedProcess {
  let child: ChildProcess | undefined;
  let exited: Promise<void> = Promise.resolve();

  const start = () => {
    const proc = spawn(process.execPath, [...(options.nodeArgs ?? []), options.entry], { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
    child = proc;
    exited = new Promise((resolve) =>
      proc.once('exit', (code, signal) => {
        options.onExit?.(options.name, code, signal);
        resolve();
      }),
    );
    for (const stream of [proc.stdout, proc.stderr]) {
      if (!stream) continue;
      readline.createInterface({ input: stream }).on('line', (line) => options.onLine?.(options.name, line));
    }
  };

  const isRunning = () => child !== undefined && child.exitCode === null && child.signalCode === null;

  const kill = async (signal: NodeJS.Signals) => {
    if (isRunning()) child?.kill(signal);
    await exited;
  };

  return {
    name: options.name,
    pid: () => child?.pid,
    start,
    running: isRunning,
    kill,
    stop: async (signal: NodeJS.Signals = 'SIGTERM') => {
      if (!isRunning()) return;
      const timer = setTimeout(() => child?.kill('SIGKILL'), 20_000);
      await kill(signal);
      clearTimeout(timer);
    },
  };
}
