import { CrashCounter, managedProcess, restartDelay } from '../src/processes';

const until = async (check: () => boolean, what: string, timeoutMs = 10_000) => {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};

describe('restart delays', () => {
  it('doubles from 0.5 s after each crash in a row, at most 10 s', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 50].map((n) => restartDelay(n))).toEqual([500, 1000, 2000, 4000, 8000, 10_000, 10_000, 10_000]);
    expect(restartDelay(3, { firstDelayMs: 50, maxDelayMs: 120 })).toBe(120);
  });

  it('counts a crash after a minute of health as a first crash again', () => {
    let now = 0;
    const counter = new CrashCounter(60_000, () => now);
    counter.started();
    now += 1000;
    expect(counter.crashed()).toBe(1);
    counter.started();
    now += 1000;
    expect(counter.crashed()).toBe(2);
    counter.started();
    now += 59_000;
    expect(counter.crashed()).toBe(3);
    counter.started();
    now += 60_000;
    expect(counter.crashed()).toBe(1);
  });
});

describe('a healing process', () => {
  const node = (code: string) => ({ command: process.execPath, args: ['-e', code], cwd: process.cwd(), env: process.env });

  it('is started again after a SIGKILL, reported once crashed and once serving, and not after a stop', async () => {
    const crashes: string[] = [];
    const restarted: number[] = [];
    const proc = managedProcess({
      name: 'sleeper',
      ...node('setInterval(() => undefined, 1000)'),
      heal: {
        firstDelayMs: 50,
        ready: () => Promise.resolve(),
        onCrash: (name, exit, delay) => crashes.push(`${name} ${exit.signal ?? exit.code} ${delay}`),
        onRestart: (_name, n) => restarted.push(n),
      },
    });
    proc.start();
    const first = proc.pid();
    await proc.kill('SIGKILL');
    await until(() => proc.running() && restarted.length === 1, 'the restart');
    expect(proc.pid()).not.toBe(first);
    expect(proc.restarts()).toBe(1);
    expect(crashes).toEqual(['sleeper SIGKILL 50']);
    expect(restarted).toEqual([1]);

    await proc.stop();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(proc.running()).toBe(false);
    expect(proc.restarts()).toBe(1);
    expect(crashes).toHaveLength(1);
  });

  it('waits longer after each crash in a row', async () => {
    const delays: number[] = [];
    const proc = managedProcess({
      name: 'crasher',
      ...node('process.exit(3)'),
      heal: { firstDelayMs: 20, maxDelayMs: 80, onCrash: (_name, exit, delay) => delays.push(exit.code === 3 ? delay : -1) },
    });
    proc.start();
    await until(() => delays.length >= 5, 'five crashes');
    await proc.stop();
    expect(delays.slice(0, 5)).toEqual([20, 40, 80, 80, 80]);
  });

  it('is not started again without heal: a crash is final', async () => {
    const exits: Array<number | null> = [];
    const proc = managedProcess({ name: 'once', ...node('process.exit(2)'), onExit: (_name, code) => exits.push(code) });
    proc.start();
    await until(() => exits.length === 1, 'the exit');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(exits).toEqual([2]);
    expect(proc.running()).toBe(false);
    expect(proc.restarts()).toBe(0);
  });

  it('takes over a pending restart when started by hand', async () => {
    const proc = managedProcess({ name: 'manual', ...node('setInterval(() => undefined, 1000)'), heal: { firstDelayMs: 5000 } });
    proc.start();
    await proc.kill('SIGKILL');
    proc.start();
    expect(proc.running()).toBe(true);
    await proc.stop();
    expect(proc.restarts()).toBe(0);
  });
});
