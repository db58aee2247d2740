/**
 * What the benchmarks measure with: load generators (closed loop with autocannon, constant arrival rate), CPU time per
 * process and per PostgreSQL database from /proc, a webhook receiver, and the summary of a run.
 */
const http = require('node:http');
const { Buffer } = require('node:buffer');
const { setTimeout: sleep } = require('node:timers/promises');
const { setInterval, clearInterval } = require('node:timers');
const { performance } = require('node:perf_hooks');
const { URL } = require('node:url');
const { readdirSync, readFileSync } = require('node:fs');

const percentile = (values, p) => {
  if (values.length === 0) return null;
  const sorted = [...values].sort((x, y) => x - y);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
};

/** A local webhook receiver: answers 200 at once and keeps when each event's delivery arrived, and how often. */
function startReceiver() {
  const deliveries = new Map();
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      res.writeHead(200).end();
      try {
        const event = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        const seen = deliveries.get(event.id);
        if (seen) seen.count += 1;
        else deliveries.set(event.id, { chargeId: event.data?.id, event: event.event, at: Date.now(), count: 1 });
      } catch {
        // not an event: ignored
      }
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, deliveries, url: `http://127.0.0.1:${server.address().port}` })));
}

/**
 * CPU time (user + system, ms) of a process, from /proc (Linux); with `children`, also that of its children that
 * have exited (PostgreSQL's backends end with their connections; their time is then counted by the postmaster).
 */
function cpuMs(pid, children = false) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    const own = Number(fields[11]) + Number(fields[12]);
    const reaped = children ? Number(fields[13]) + Number(fields[14]) : 0;
    return ((own + reaped) * 1000) / 100;
  } catch {
    return 0;
  }
}

/** CPU of a group of processes: a postmaster (its command names the binary) counts its exited backends too. */
function groupCpuMs(pids) {
  return pids.reduce((sum, pid) => {
    let postmaster = false;
    try {
      postmaster = /bin\/postgres/.test(readFileSync(`/proc/${pid}/cmdline`, 'utf8'));
    } catch {
      // gone
    }
    return sum + cpuMs(pid, postmaster);
  }, 0);
}

/**
 * The processes to account for: every platform process (the replicas of a service together, under its name),
 * nats-server, and PostgreSQL's (all its backends).
 */
function processTable(platform) {
  const table = Object.entries(platform.processes).map(([name, proc]) => {
    const group = platform.replicas?.[name]?.map((r) => r.process) ?? [proc];
    return { name, pids: () => group.map((p) => p.pid()).filter(Boolean) };
  });
  const byCommand = (pattern) => () =>
    readdirSync('/proc')
      .filter((d) => /^\d+$/.test(d))
      .filter((d) => {
        try {
          return pattern.test(readFileSync(`/proc/${d}/cmdline`, 'utf8'));
        } catch {
          return false;
        }
      })
      .map(Number);
  table.push({ name: 'nats-server', pids: byCommand(/nats-server/) });
  // PostgreSQL: the server (postmaster, with the backends that exited, and its background processes) and the backends
  // of each database, told apart by the title each backend shows ("postgres: <user> <database> <host> <state>").
  const postmasters = byCommand(/native\/bin\/postgres/);
  const children = () => {
    const parents = new Set(postmasters());
    return readdirSync('/proc')
      .filter((d) => /^\d+$/.test(d))
      .map((d) => {
        try {
          const ppid = Number(readFileSync(`/proc/${d}/stat`, 'utf8').split(') ')[1].split(' ')[1]);
          return parents.has(ppid) ? { pid: Number(d), title: readFileSync(`/proc/${d}/cmdline`, 'utf8').replace(/\0/g, ' ').trim() } : null;
        } catch {
          return null;
        }
      })
      .filter(Boolean);
  };
  const databaseOf = (title) => /^postgres: \S+ (\S+) \S+/.exec(title)?.[1]?.replace(/^.*?_?(settings|customers|payments|webhooks|sessions|sellers|payouts)$/, '$1') ?? null;
  const databases = ['settings', 'customers', 'payments', 'webhooks', 'sessions', 'sellers', 'payouts'];
  table.push({ name: 'postgres server', pids: () => [...postmasters(), ...children().filter((c) => !databases.includes(databaseOf(c.title))).map((c) => c.pid)] });
  for (const db of databases) table.push({ name: `postgres ${db}`, pids: () => children().filter((c) => databaseOf(c.title) === db).map((c) => c.pid) });
  return table;
}

/** Runs `work` and answers the CPU each process spent meanwhile, per unit of work done (ms). */
async function cpuPer(platform, work) {
  const table = processTable(platform);
  const before = new Map(table.map((t) => [t.name, groupCpuMs(t.pids())]));
  const { result, units } = await work();
  const spent = Object.fromEntries(
    table.map((t) => [t.name, Math.round(((groupCpuMs(t.pids()) - before.get(t.name)) / Math.max(1, units)) * 100) / 100]),
  );
  return { result, cpuMsPerUnit: spent };
}

/** Waits until the webhooks service has taken in every event published so far (the counts stop moving). */
async function settle(counts) {
  let last = '';
  for (let stable = 0; stable < 4; ) {
    await sleep(500);
    const now = JSON.stringify(await counts());
    stable = now === last ? stable + 1 : 0;
    last = now;
  }
}

/**
 * A constant arrival rate, k6-style: request i is due at start + i/rate whatever the answers before it, and its latency
 * counts from when it was due (a slow answer cannot hold the next requests back and hide its own queue). autocannon's
 * `overallRate` is not used for this: it lets each connection send its share at the start of every second, in bursts.
 */
function constantRate({ url, rate, seconds, headers, body, onAnswer }) {
  const target = new URL(url);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1024 });
  const total = Math.round(rate * seconds);
  const latencies = [];
  let sent = 0;
  let done = 0;
  let failed = 0;
  return new Promise((resolve) => {
    const start = performance.now();
    const finish = () => {
      done += 1;
      if (done === total) {
        agent.destroy();
        resolve({ sent, failed, latencies, seconds: (performance.now() - start) / 1000 });
      }
    };
    const fire = (dueAt) => {
      const req = http.request(
        { host: target.hostname, port: target.port, path: target.pathname, method: 'POST', agent, headers: { ...headers, 'content-length': Buffer.byteLength(body) }, timeout: 30_000 },
        (res) => {
          const chunks = [];
          res.on('data', (c) => chunks.push(c));
          res.on('end', () => {
            latencies.push(performance.now() - dueAt);
            if (res.statusCode === 201) onAnswer?.(Buffer.concat(chunks).toString('utf8'));
            else failed += 1;
            finish();
          });
        },
      );
      req.on('error', () => {
        failed += 1;
        finish();
      });
      req.on('timeout', () => req.destroy(new Error('timeout')));
      req.end(body);
    };
    const timer = setInterval(() => {
      const due = Math.min(total, Math.floor(((performance.now() - start) / 1000) * rate));
      for (; sent < due; sent += 1) fire(start + (sent * 1000) / rate);
      if (sent >= total) clearInterval(timer);
    }, 2);
  });
}

function summary(name, result) {
  const non2xx = result.non2xx + result.errors + result.timeouts;
  return {
    name,
    requestsPerSecond: Math.round(result.requests.average),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    requests: result.requests.total,
    failed: non2xx,
  };
}

module.exports = { percentile, startReceiver, cpuMs, groupCpuMs, processTable, cpuPer, settle, constantRate, summary };
