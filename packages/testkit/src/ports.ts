import net from 'node:net';

/**
 * Ports are handed out from a block below Linux's ephemeral range (32768-60999), where the kernel never picks a port
 * for a `listen(0)` or an outgoing connection, and each test worker (or process) has a block of its own. A port the
 * kernel picked, freed and then bound later by a child process could meanwhile be picked again by another worker
 * for a process of its own: two platforms started side by side would then meet on one port.
 */
const FIRST_PORT = 20_000;
const BLOCK = 1_000;
const BLOCKS = 12;
const block = FIRST_PORT + (Number(process.env.JEST_WORKER_ID ?? process.pid) % BLOCKS) * BLOCK;
/** Where the next search starts: onward from the last port handed out, so a port just freed is not handed out again. */
let cursor = Math.floor(Math.random() * BLOCK);

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.unref();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

function kernelPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (address && typeof address === 'object' ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/** A TCP port free on 127.0.0.1 now, from this worker's block (any free port if the block is full). */
export async function freePort(): Promise<number> {
  for (let tries = 0; tries < BLOCK; tries++) {
    const port = block + (cursor++ % BLOCK);
    if (await canListen(port)) return port;
  }
  return kernelPort();
}

export async function waitForPort(port: number, timeoutMs = 15_000, host = '127.0.0.1'): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect({ port, host });
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    if (Date.now() > deadline) throw new Error(`port ${host}:${port} did not open within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
