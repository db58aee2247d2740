/**
 * What the benchmarks measure with: load generators (closed loop with autocannon, constant arrival rate), CPU time and
 * resident memory per process and per PostgreSQL database from /proc, PostgreSQL's counters (pg_stat_database,
 * pg_stat_statements) per charge, a sampler of queues with their trend, a webhook receiver, and the summary of a run.
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

/** Every process now: its pid, parent and command line (one scan of /proc, kept for 100 ms so a table's groups share it). */
let scanned = { at: 0, processes: [] };
function scanProcesses() {
  if (Date.now() - scanned.at < 100) return scanned.processes;
  const processes = [];
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const ppid = Number(readFileSync(`/proc/${d}/stat`, 'utf8').split(') ')[1].split(' ')[1]);
      processes.push({ pid: Number(d), ppid, cmdline: readFileSync(`/proc/${d}/cmdline`, 'utf8') });
    } catch {
      // gone meanwhile
    }
  }
  scanned = { at: Date.now(), processes };
  return processes;
}

const SERVICE_DATABASES = ['settings', 'customers', 'payments', 'webhooks', 'sessions', 'sellers', 'payouts'];

/**
 * The processes to account for: every platform process (the replicas of a service together, under its name),
 * nats-server, and PostgreSQL's (all its backends). `databases` names more databases whose backends are a group of
 * their own (`postgres <name>`) instead of part of the server's; `extra` adds groups ({ name, pids }). `postgresPort`
 * and `natsPort` keep to the servers on those ports (`-p <port>` in their command lines), not every PostgreSQL and
 * nats-server on the machine (tests of others, a system service).
 */
function processTable(platform, { databases: more = [], extra = [], postgresPort, natsPort } = {}) {
  const table = Object.entries(platform.processes).map(([name, proc]) => {
    const group = platform.replicas?.[name]?.map((r) => r.process) ?? [proc];
    return { name, pids: () => group.map((p) => p.pid()).filter(Boolean) };
  });
  const byCommand = (pattern) => () =>
    scanProcesses()
      .filter((p) => pattern.test(p.cmdline))
      .map((p) => p.pid);
  const onPort = (port) => (port === undefined ? '' : `.*\\x00-p\\x00${port}\\x00`);
  table.push({ name: 'nats-server', pids: byCommand(new RegExp(`nats-server${onPort(natsPort)}`)) });
  // PostgreSQL: the server (postmaster, with the backends that exited, and its background processes) and the backends
  // of each database, told apart by the title each backend shows ("postgres: <user> <database> <host> <state>").
  const postmasters = byCommand(new RegExp(`native/bin/postgres${onPort(postgresPort)}`));
  const children = () => {
    const parents = new Set(postmasters());
    return scanProcesses()
      .filter((p) => parents.has(p.ppid))
      .map((p) => ({ pid: p.pid, title: p.cmdline.replace(/\0/g, ' ').trim() }));
  };
  const databaseOf = (title) => /^postgres: \S+ (\S+) \S+/.exec(title)?.[1]?.replace(/^.*?_?(settings|customers|payments|webhooks|sessions|sellers|payouts)$/, '$1') ?? null;
  const databases = [...SERVICE_DATABASES, ...more];
  table.push({ name: 'postgres server', pids: () => [...postmasters(), ...children().filter((c) => !databases.includes(databaseOf(c.title))).map((c) => c.pid)] });
  for (const db of databases) table.push({ name: `postgres ${db}`, pids: () => children().filter((c) => databaseOf(c.title) === db).map((c) => c.pid) });
  return [...table, ...extra];
}

/** Own CPU time (ms) of a process and, apart, that of its children that have exited (reaped); null when it is gone. */
function cpuParts(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return { own: ((Number(fields[11]) + Number(fields[12])) * 1000) / 100, reaped: ((Number(fields[13]) + Number(fields[14])) * 1000) / 100 };
  } catch {
    return null;
  }
}

/**
 * Runs `work` and answers the CPU each process spent meanwhile, per unit of work done (ms), and in all (ms, with the
 * seconds it took). `table` is processTable(platform) unless given.
 *
 * Every process of the table is read once a second meanwhile, so a PostgreSQL backend that exits (a pool closing an
 * idle connection) keeps the time it spent in its own group: the postmaster's count of its exited children takes in
 * a backend's whole life when it goes, and that part of it, as last read, is taken out of the server's group. Only
 * a backend that starts and ends between two readings is left to the server's group.
 */
async function cpuPer(platform, work, table = processTable(platform)) {
  const tracked = new Map();
  let postmasterReaped = null;
  const read = (initial) => {
    for (const t of table) {
      for (const pid of t.pids()) {
        const parts = cpuParts(pid);
        if (!parts) continue;
        let p = tracked.get(pid);
        if (!p) {
          let postmaster = false;
          try {
            postmaster = /bin\/postgres/.test(readFileSync(`/proc/${pid}/cmdline`, 'utf8'));
          } catch {
            // gone
          }
          p = { group: t.name, postgres: t.name.startsWith('postgres'), postmaster, first: initial ? parts.own : 0, last: parts.own, gone: false };
          tracked.set(pid, p);
          if (postmaster) postmasterReaped = { group: t.name, first: initial ? parts.reaped : 0, last: parts.reaped };
        }
        p.last = parts.own;
        if (p.postmaster && postmasterReaped) postmasterReaped.last = parts.reaped;
      }
    }
  };
  read(true);
  const timer = setInterval(() => read(false), 1000);
  const started = performance.now();
  let outcome;
  try {
    outcome = await work();
  } finally {
    clearInterval(timer);
  }
  const seconds = (performance.now() - started) / 1000;
  read(false);
  const totals = Object.fromEntries(table.map((t) => [t.name, 0]));
  for (const [pid, p] of tracked) {
    totals[p.group] += p.last - p.first;
    p.gone = cpuParts(pid) === null;
  }
  if (postmasterReaped) {
    // The exited children's time as the postmaster counts it, less what their own groups already have.
    const counted = [...tracked.values()].filter((p) => p.postgres && !p.postmaster && p.gone).reduce((sum, p) => sum + p.last, 0);
    totals[postmasterReaped.group] += postmasterReaped.last - postmasterReaped.first - counted;
  }
  const spent = Object.fromEntries(Object.entries(totals).map(([name, ms]) => [name, Math.round((ms / Math.max(1, outcome.units)) * 100) / 100]));
  return { result: outcome.result, cpuMsPerUnit: spent, cpuMs: totals, seconds, units: outcome.units };
}

/** Resident memory of a process (kB): VmRSS from /proc/<pid>/status, and its proportional share (Pss, shared pages divided among their users). */
function memoryKb(pid) {
  let rss = 0;
  let pss = 0;
  try {
    rss = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
    pss = Number(/^Pss:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'))?.[1] ?? rss);
  } catch {
    // gone, or no smaps_rollup: its RSS stands for it
    pss = pss || rss;
  }
  return { rss, pss };
}

/**
 * Resident memory (MB) of each group of the table, and of PostgreSQL (every group named `postgres ...`) and the
 * whole platform (every group but those in `outside`) together. RSS sums count PostgreSQL's shared buffers once per
 * process that touched them; PSS divides them among those processes, so the PostgreSQL and platform totals are PSS.
 */
function memoryOf(table, outside = []) {
  const mb = (kb) => Math.round(kb / 102.4) / 10;
  const groups = {};
  const postgres = { rss: 0, pss: 0, processes: 0 };
  const platform = { rss: 0, pss: 0, processes: 0 };
  for (const t of table) {
    const pids = t.pids();
    const sum = pids.map(memoryKb).reduce((x, y) => ({ rss: x.rss + y.rss, pss: x.pss + y.pss }), { rss: 0, pss: 0 });
    groups[t.name] = { rssMb: mb(sum.rss), pssMb: mb(sum.pss), processes: pids.length };
    if (outside.includes(t.name)) continue;
    for (const total of t.name.startsWith('postgres') ? [postgres, platform] : [platform]) {
      total.rss += sum.rss;
      total.pss += sum.pss;
      total.processes += pids.length;
    }
  }
  const shown = (t) => ({ rssSumMb: mb(t.rss), pssMb: mb(t.pss), processes: t.processes });
  return { groups, postgres: shown(postgres), platform: shown(platform) };
}

/**
 * PostgreSQL's counters now: pg_stat_database per database, and with `statements` pg_stat_statements per database and
 * normalised statement (calls, execution time, rows). `client` is connected to any database of the server as a
 * superuser (pg_stat_statements then shows every database's statements). pg_stat_statements counts a statement when
 * it ends; pg_stat_database's counters reach the view when a backend flushes them (at most 1 s after a busy backend's
 * last flush, up to 10 s after a backend goes idle, or when it exits).
 */
async function pgCounters(client, { statements }) {
  const at = performance.now();
  const { rows } = await client.query(
    `SELECT datname, xact_commit, xact_rollback, tup_inserted, tup_updated, tup_deleted, blks_read, blks_hit
       FROM pg_stat_database WHERE datname IS NOT NULL`,
  );
  const databases = Object.fromEntries(rows.map(({ datname, ...counters }) => [datname, Object.fromEntries(Object.entries(counters).map(([k, v]) => [k, Number(v)]))]));
  let byStatement = null;
  if (statements) {
    const found = await client.query(
      `SELECT d.datname AS database, coalesce(s.queryid::text, md5(s.query)) AS id, min(s.query) AS query,
              sum(s.calls)::float8 AS calls, sum(s.total_exec_time)::float8 AS ms, sum(s.rows)::float8 AS rows
         FROM pg_stat_statements s JOIN pg_database d ON d.oid = s.dbid GROUP BY 1, 2`,
    );
    byStatement = new Map(found.rows.map((r) => [`${r.database}\0${r.id}`, r]));
  }
  return { at, databases, statements: byStatement };
}

/** What the counters moved by from `from` to `to`, and over how many seconds. */
function pgDelta(from, to) {
  const databases = {};
  for (const [name, counters] of Object.entries(to.databases)) {
    const before = from.databases[name] ?? {};
    databases[name] = Object.fromEntries(Object.entries(counters).map(([k, v]) => [k, v - (before[k] ?? 0)]));
  }
  let statements = null;
  if (to.statements && from.statements) {
    statements = new Map();
    for (const [key, r] of to.statements) {
      const before = from.statements.get(key);
      const calls = r.calls - (before?.calls ?? 0);
      if (calls > 0) statements.set(key, { database: r.database, query: r.query, calls, ms: r.ms - (before?.ms ?? 0), rows: r.rows - (before?.rows ?? 0) });
    }
  }
  return { seconds: (to.at - from.at) / 1000, databases, statements };
}

/**
 * PostgreSQL's work per charge in each of `databases`: the counters' deltas over `window` divided by `charges`, beside
 * what the platform does there with no load over as long (`idle`, measured over another window, scaled to this one's
 * length): pollers and housekeeping, which `...Net` leaves out. Answers the table per database and the `top`
 * statements by calls net of the idle platform's.
 */
function pgPerCharge({ window, idle, charges, databases, top = 20 }) {
  const scale = idle && idle.seconds > 0 ? window.seconds / idle.seconds : 0;
  const r2 = (x) => Math.round(x * 100) / 100;
  const per = (x) => r2(x / Math.max(1, charges));
  const statementsIn = (delta, db) => (delta?.statements ? [...delta.statements.values()].filter((s) => s.database === db).reduce((n, s) => n + s.calls, 0) : null);
  const perDatabase = {};
  for (const db of databases) {
    const d = window.databases[db];
    if (!d) continue;
    const i = idle?.databases[db] ?? {};
    const xacts = d.xact_commit + d.xact_rollback;
    const idleXacts = ((i.xact_commit ?? 0) + (i.xact_rollback ?? 0)) * scale;
    const statements = statementsIn(window, db);
    const idleStatements = statements === null ? null : (statementsIn(idle, db) ?? 0) * scale;
    perDatabase[db] = {
      transactions: per(xacts),
      transactionsIdle: per(idleXacts),
      transactionsNet: per(xacts - idleXacts),
      rollbacks: per(d.xact_rollback),
      statements: statements === null ? null : per(statements),
      statementsIdle: statements === null ? null : per(idleStatements),
      statementsNet: statements === null ? null : per(statements - idleStatements),
      tupInserted: per(d.tup_inserted),
      tupUpdated: per(d.tup_updated),
      tupDeleted: per(d.tup_deleted),
      blksHit: per(d.blks_hit),
      blksRead: per(d.blks_read),
    };
  }
  let statements = null;
  if (window.statements) {
    statements = [...window.statements.entries()]
      .filter(([, s]) => databases.includes(s.database))
      .map(([key, s]) => [key, s, s.calls - (idle?.statements?.get(key)?.calls ?? 0) * scale])
      .sort(([, , x], [, , y]) => y - x)
      .slice(0, top)
      .map(([key, s]) => ({
        database: s.database,
        callsPerCharge: Math.round((s.calls / Math.max(1, charges)) * 1000) / 1000,
        idleCallsPerCharge: Math.round((((idle?.statements?.get(key)?.calls ?? 0) * scale) / Math.max(1, charges)) * 1000) / 1000,
        msPerCharge: Math.round((s.ms / Math.max(1, charges)) * 1000) / 1000,
        rowsPerCall: r2(s.rows / s.calls),
        query: s.query.replace(/\s+/g, ' ').trim(),
        // A statement of a trigger's function (NEW./OLD.): a deferred constraint trigger runs at commit, outside any
        // statement, so pg_stat_statements counts it as one the client sent, though it is no round trip.
        inTrigger: /\b(NEW|OLD)\./.test(s.query),
      }));
  }
  return { charges, windowSeconds: r2(window.seconds), idleSeconds: idle ? r2(idle.seconds) : null, perDatabase, statements };
}

/** Calls `sample` every `ms` (skipping a tick while one is still running) and keeps what it answers, with the seconds since the start. */
function sampleEvery(ms, sample) {
  const samples = [];
  const started = performance.now();
  let busy = false;
  const tick = async () => {
    if (busy) return;
    busy = true;
    const t = (performance.now() - started) / 1000;
    try {
      samples.push({ t, values: await sample() });
    } catch (error) {
      samples.push({ t, error: String(error?.message ?? error) });
    } finally {
      busy = false;
    }
  };
  void tick();
  const timer = setInterval(tick, ms);
  return {
    stop: async () => {
      clearInterval(timer);
      while (busy) await sleep(10);
      return samples;
    },
  };
}

/**
 * Each sampled series' highest value in the first and in the last `window` seconds of a run of `seconds`, its highest
 * and last; flat (not growing) when the last window's highest is at most twice the first's or under `threshold(name)`,
 * an absolute level below which a queue counts as drained whatever its start.
 */
function trends(samples, { seconds, window = 10, threshold }) {
  const names = [...new Set(samples.flatMap((s) => Object.keys(s.values ?? {})))];
  const round = (x) => (x === null || x === undefined ? x : Math.round(x * 100) / 100);
  return Object.fromEntries(
    names.map((name) => {
      const series = samples.filter((s) => typeof s.values?.[name] === 'number').map((s) => ({ t: s.t, v: s.values[name] }));
      const max = (xs) => (xs.length === 0 ? null : xs.reduce((m, x) => Math.max(m, x.v), -Infinity));
      const first = max(series.filter((x) => x.t < window));
      const last = max(series.filter((x) => x.t >= seconds - window));
      const limit = Math.max(2 * (first ?? 0), threshold(name));
      return [name, { first10sMax: round(first), last10sMax: round(last), max: round(max(series)), end: round(series.at(-1)?.v), samples: series.length, flat: last === null || last <= limit }];
    }),
  );
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

module.exports = {
  percentile,
  startReceiver,
  cpuMs,
  groupCpuMs,
  processTable,
  cpuPer,
  memoryKb,
  memoryOf,
  pgCounters,
  pgDelta,
  pgPerCharge,
  sampleEvery,
  trends,
  settle,
  constantRate,
  summary,
  SERVICE_DATABASES,
};
