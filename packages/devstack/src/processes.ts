import { spawn, type ChildProcess } from 'node:child_process';
import readline from 'node:readline';

export interface ManagedProcess {
  name: string;
  pid(): number | undefined;
  /** Resolves when the process has exited (after a stop or a kill); a stopped process is not restarted. */
  stop(signal?: NodeJS.Signals): Promise<void>;
  /** Sends a signal and waits for the exit; a healing process is then started again after its delay. */
  kill(signal: NodeJS.Signals): Promise<void>;
  /** Starts the process now (a pending automatic restart is taken over); nothing when it already runs. */
  start(): void;
  running(): boolean;
  /** How many times the process was started again after a crash, without anyone asking. */
  restarts(): number;
}

/**
 * When a crashed process is started again: 0.5 s after the first crash, then twice as long after each
 * further crash in a row, at most 10 s. A process that ran for a minute was healthy: its next crash counts
 * as a first one again.
 */
export interface HealOptions {
  firstDelayMs?: number;
  maxDelayMs?: number;
  healthyAfterMs?: number;
  /** Resolves once a (re)started process serves; an automatic restart is reported after it. */
  ready?: () => Promise<void>;
  onCrash?: (name: string, exit: { code: number | null; signal: NodeJS.Signals | null }, delayMs: number) => void;
  onRestart?: (name: string, restarts: number) => void;
  /** The time, for the "ran long enough to count as healthy" rule (tests move it). */
  now?: () => number;
}

/** The wait before the next start after `crashesInARow` crashes in a row (1 for the first one). */
export function restartDelay(crashesInARow: number, options: Pick<HealOptions, 'firstDelayMs' | 'maxDelayMs'> = {}): number {
  const first = options.firstDelayMs ?? 500;
  const max = options.maxDelayMs ?? 10_000;
  return Math.min(max, first * 2 ** Math.max(0, Math.min(crashesInARow - 1, 30)));
}

/** Counts crashes in a row: a process that ran `healthyAfterMs` before crashing starts the count again. */
export class CrashCounter {
  private inARow = 0;
  private startedAt = 0;

  constructor(
    private readonly healthyAfterMs: number,
    private readonly now: () => number,
  ) {}

  started(): void {
    this.startedAt = this.now();
  }

  /** Records a crash and returns how many happened in a row, this one included. */
  crashed(): number {
    if (this.now() - this.startedAt >= this.healthyAfterMs) this.inARow = 0;
    this.inARow += 1;
    return this.inARow;
  }
}

/**
 * A child process (a Node entry point, or any `command`) with its output forwarded line by line, restartable
 * with the same environment. With `heal`, a process that exits without being asked to is started again after
 * a growing delay, on the same port and with the same data, since its environment is the same.
 */
export function managedProcess(options: {
  name: string;
  /** A Node entry point, run with this Node... */
  entry?: string;
  /** ...or another program with its arguments. */
  command?: string;
  args?: string[];
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** Flags for node itself (e.g. --cpu-prof), before the entry point. */
  nodeArgs?: string[];
  heal?: HealOptions;
  onLine?: (name: string, line: string) => void;
  onExit?: (name: string, code: number | null, signal: NodeJS.Signals | null) => void;
}): ManagedProcess {
  let child: ChildProcess | undefined;
  let exited: Promise<void> = Promise.resolve();
  /** False once stop() was called: an exit is then expected and nothing is restarted. */
  let wanted = false;
  let restartTimer: NodeJS.Timeout | undefined;
  let restarts = 0;
  const heal = options.heal;
  const crashes = new CrashCounter(heal?.healthyAfterMs ?? 60_000, heal?.now ?? Date.now);

  const isRunning = () => child?.pid !== undefined && child.exitCode === null && child.signalCode === null;

  const spawnChild = () => {
    const [command, args] = options.command
      ? [options.command, options.args ?? []]
      : [process.execPath, [...(options.nodeArgs ?? []), options.entry ?? '']];
    const proc = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
    child = proc;
    crashes.started();
    exited = new Promise((resolve) => {
      let over = false;
      const finish = (code: number | null, signal: NodeJS.Signals | null) => {
        if (over) return;
        over = true;
        onExit(code, signal, resolve);
      };
      // A program that cannot be started at all (a missing binary) reports an error and maybe no exit.
      proc.once('error', (error) => {
        options.onLine?.(options.name, `could not start: ${error.message}`);
        if (proc.pid === undefined) finish(null, null);
      });
      proc.once('exit', finish);
    });
    for (const stream of [proc.stdout, proc.stderr]) {
      if (!stream) continue;
      readline.createInterface({ input: stream }).on('line', (line) => options.onLine?.(options.name, line));
    }
  };

  const onExit = (code: number | null, signal: NodeJS.Signals | null, resolve: () => void) => {
    options.onExit?.(options.name, code, signal);
    resolve();
    if (!heal || !wanted || restartTimer) return;
    const delay = restartDelay(crashes.crashed(), heal);
    heal.onCrash?.(options.name, { code, signal }, delay);
    restartTimer = setTimeout(() => {
      restartTimer = undefined;
      if (!wanted || isRunning()) return;
      restarts += 1;
      const restart = restarts;
      spawnChild();
      void (heal.ready ?? (() => Promise.resolve()))().then(
        () => {
          if (wanted && isRunning()) heal.onRestart?.(options.name, restart);
        },
        // Not serving in time: if it crashed meanwhile, its exit already scheduled the next attempt.
        () => undefined,
      );
    }, delay);
  };

  const start = () => {
    wanted = true;
    if (restartTimer) {
      clearTimeout(restartTimer);
      restartTimer = undefined;
    }
    if (isRunning()) return;
    spawnChild();
  };

  const kill = async (signal: NodeJS.Signals) => {
    if (isRunning()) child?.kill(signal);
    await exited;
  };

  return {
    name: options.name,
    pid: () => child?.pid,
    start,
    running: isRunning,
    restarts: () => restarts,
    kill,
    stop: async (signal: NodeJS.Signals = 'SIGTERM') => {
      wanted = false;
      if (restartTimer) {
        clearTimeout(restartTimer);
        restartTimer = undefined;
      }
      if (!isRunning()) return;
      const timer = setTimeout(() => child?.kill('SIGKILL'), 20_000);
      await kill(signal);
      clearTimeout(timer);
    },
  };
}
