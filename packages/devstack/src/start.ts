import { spawn } from 'node:child_process';
import path from 'node:path';

/**
 * `npm start`. Ctrl-C sends SIGINT to every process of the terminal's foreground group at once: the services,
 * nats-server and PostgreSQL would all stop together (PostgreSQL first, usually, and every service would log
 * the lost connection). So the launcher (stack.js) runs in a session of its own, with every process it starts,
 * and this process, the only one the terminal signals, asks it to stop: it stops the gateway, then the
 * services, then NATS and PostgreSQL.
 */
const child = spawn(process.execPath, [path.join(__dirname, 'stack.js')], {
  detached: true,
  stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  env: process.env,
});

let asked = 0;
const stop = (signal: NodeJS.Signals) => {
  asked += 1;
  if (asked > 1) process.stdout.write(`(${signal} again: still stopping; each process gets SIGKILL after 20 s)\n`);
  if (child.connected) child.send({ type: 'stop' });
};
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => stop(signal));

child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
child.on('error', (error) => {
  process.stderr.write(`could not start the launcher: ${error.message}\n`);
  process.exit(1);
});
