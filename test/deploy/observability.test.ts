/**
 * The alert rules and the Grafana dashboard against what the processes expose (deploy/prometheus/metrics.md) and
 * what the runbooks cover (deploy/README.md). With promtool on the PATH (Debian: the prometheus package) the
 * rules also go through `promtool check rules` and their unit tests, and the dashboard's queries through the
 * PromQL parser; without it those tests are skipped.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parse } from 'yaml';

const root = resolve(__dirname, '../..');
const read = (file: string) => readFileSync(join(root, file), 'utf8');

const RULES = 'deploy/helm/platform/files/alerts.yaml';
const RULES_LINK = 'deploy/prometheus/alerts.yaml';
const RULE_TESTS = 'deploy/prometheus/alerts.test.yaml';
const DASHBOARD = 'deploy/grafana/platform-dashboard.json';
const README = 'deploy/README.md';
const METRICS_DOC = 'deploy/prometheus/metrics.md';
const RUNBOOK_BASE = 'https://github.com/example/open-payments-platform/blob/main/deploy/README.md';

type Metric = { type: 'counter' | 'gauge' | 'histogram'; labels: string[] };

/** What the processes expose (deploy/prometheus/metrics.md); every series also carries `service`. */
const METRICS: Record<string, Metric> = {
  process_cpu_seconds_total: { type: 'counter', labels: [] },
  process_resident_memory_bytes: { type: 'gauge', labels: [] },
  nodejs_eventloop_lag_p99_seconds: { type: 'gauge', labels: [] },
  nodejs_heap_size_used_bytes: { type: 'gauge', labels: [] },
  http_server_requests_total: { type: 'counter', labels: ['method', 'route', 'status_code'] },
  http_server_request_duration_seconds: { type: 'histogram', labels: ['method', 'route', 'status_code'] },
  gateway_upstream_up: { type: 'gauge', labels: ['upstream'] },
  grpc_server_handled_total: { type: 'counter', labels: ['grpc_service', 'grpc_method', 'grpc_code'] },
  grpc_server_handling_seconds: { type: 'histogram', labels: ['grpc_service', 'grpc_method'] },
  grpc_client_handled_total: { type: 'counter', labels: ['grpc_service', 'grpc_method', 'grpc_code'] },
  grpc_client_handling_seconds: { type: 'histogram', labels: ['grpc_service', 'grpc_method'] },
  db_pool_clients: { type: 'gauge', labels: ['state'] },
  db_pool_max_clients: { type: 'gauge', labels: [] },
  db_query_duration_seconds: { type: 'histogram', labels: ['operation'] },
  outbox_backlog_events: { type: 'gauge', labels: [] },
  outbox_oldest_unpublished_age_seconds: { type: 'gauge', labels: [] },
  outbox_published_total: { type: 'counter', labels: [] },
  nats_consumer_pending_messages: { type: 'gauge', labels: ['durable'] },
  nats_consumer_ack_pending_messages: { type: 'gauge', labels: ['durable'] },
  events_consumed_total: { type: 'counter', labels: ['durable', 'outcome'] },
  jobs_due: { type: 'gauge', labels: ['task'] },
  jobs_running: { type: 'gauge', labels: ['task'] },
  jobs_failed: { type: 'gauge', labels: ['task'] },
  jobs_oldest_due_age_seconds: { type: 'gauge', labels: [] },
  jobs_completed_total: { type: 'counter', labels: ['task', 'outcome'] },
  webhook_deliveries_total: { type: 'counter', labels: ['outcome'] },
  webhook_delivery_duration_seconds: { type: 'histogram', labels: ['outcome'] },
  webhook_delivery_lag_seconds: { type: 'histogram', labels: [] },
  charges_total: { type: 'counter', labels: ['status', 'method', 'provider'] },
  provider_request_duration_seconds: { type: 'histogram', labels: ['provider', 'operation', 'outcome'] },
  provider_failovers_total: { type: 'counter', labels: ['provider'] },
};
/** Labels Prometheus adds when it scrapes (ServiceMonitor or pod discovery). */
const TARGET_LABELS = ['service', 'namespace', 'instance', 'job', 'pod'];
const HISTOGRAM_SUFFIXES = ['_bucket', '_sum', '_count'];
const KEYWORDS = new Set(['and', 'or', 'unless', 'bool', 'offset', 'by', 'without', 'on', 'ignoring', 'group_left', 'group_right', 'inf', 'nan']);

/** The metric and label names a PromQL expression uses (a lexer, not a parser: enough for names). */
function promqlNames(expr: string): { metrics: string[]; labels: string[] } {
  const labels: string[] = [];
  let rest = expr.replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`[^`]*`/g, '""');
  rest = rest.replace(/\{([^}]*)\}/g, (_, matchers: string) => {
    for (const m of matchers.matchAll(/([a-zA-Z_]\w*)\s*(?:=~|!~|!=|=)/g)) labels.push(m[1] ?? '');
    return ' ';
  });
  rest = rest.replace(/\b(?:by|without|on|ignoring|group_left|group_right)\s*\(([^)]*)\)/g, (_, names: string) => {
    labels.push(...names.split(',').map((name) => name.trim()).filter(Boolean));
    return ' ';
  });
  rest = rest.replace(/\[[^\]]*\]/g, ' ').replace(/\$\{?\w+\}?/g, ' ');
  const metrics = [...rest.matchAll(/(?<![\w.:])([a-zA-Z_:][\w:]*)(?![\w:])(?!\s*\()/g)].map((m) => m[1] ?? '').filter((name) => !KEYWORDS.has(name.toLowerCase()));
  return { metrics, labels };
}

/** The exposed metric a series name belongs to, or why it is not one. */
function metricOf(name: string): Metric | string {
  const exact = METRICS[name];
  if (exact) return exact.type === 'histogram' ? `${name} is a histogram: query ${name}_bucket, _sum or _count` : exact;
  const suffix = HISTOGRAM_SUFFIXES.find((s) => name.endsWith(s));
  const base = suffix && METRICS[name.slice(0, -suffix.length)];
  if (base && base.type === 'histogram') return { type: 'histogram', labels: [...base.labels, ...(suffix === '_bucket' ? ['le'] : [])] };
  return `${name} is not a metric the processes expose (${METRICS_DOC})`;
}

/** Problems with the names an expression uses: unknown metrics, labels none of its metrics has. */
function nameProblems(expr: string): string[] {
  const { metrics, labels } = promqlNames(expr);
  const problems: string[] = [];
  const known = new Set([...TARGET_LABELS, 'le']);
  if (metrics.length === 0) problems.push('uses no metric');
  for (const name of metrics) {
    if (name === 'up') continue;
    const metric = metricOf(name);
    if (typeof metric === 'string') problems.push(metric);
    else metric.labels.forEach((label) => known.add(label));
  }
  for (const label of labels) if (!known.has(label)) problems.push(`label ${label} is on none of ${metrics.join(', ')}`);
  return problems;
}

type Rule = { alert?: string; record?: string; expr: string; for?: string; labels?: Record<string, string>; annotations?: Record<string, string> };
const rules: Rule[] = (parse(read(RULES)) as { groups: { name: string; rules: Rule[] }[] }).groups.flatMap((group) => group.rules);
const readme = read(README);

type Target = { expr: string; refId: string; datasource?: { uid?: string } };
type Panel = { id: number; type: string; title: string; gridPos: { x: number; y: number; w: number; h: number }; panels?: Panel[]; targets?: Target[]; datasource?: { uid?: string } };
const dashboard = JSON.parse(read(DASHBOARD)) as {
  schemaVersion: number;
  uid: string;
  panels: Panel[];
  templating: { list: { name: string; type: string; query: string | { query: string } }[] };
};
const panels = dashboard.panels.flatMap((panel) => [panel, ...(panel.panels ?? [])]);

const promtool = spawnSync('promtool', ['--version'], { encoding: 'utf8' }).status === 0;
const withPromtool = promtool ? it : it.skip;
function runPromtool(args: string[]) {
  const result = spawnSync('promtool', args, { cwd: root, encoding: 'utf8' });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

describe('the name check itself', () => {
  it('finds the metrics and labels of an expression, and nothing else', () => {
    const expr =
      'histogram_quantile(0.99, sum by (route, le) (rate(http_server_request_duration_seconds_bucket{route!="unmatched", service=~"$service"}[$__rate_interval]))) > 2 and on (namespace) up offset 5m';
    expect(promqlNames(expr)).toEqual({ metrics: ['http_server_request_duration_seconds_bucket', 'up'], labels: ['route', 'service', 'route', 'le', 'namespace'] });
    expect(nameProblems('sum(rate(charges_total{outcome="x"}[5m]))')).toEqual(['label outcome is on none of charges_total']);
    expect(nameProblems('rate(http_server_request_duration_seconds[5m])')).toHaveLength(1);
    expect(nameProblems('max(outbox_oldest_age_seconds)')).toHaveLength(1);
  });

  it('knows only names that deploy/prometheus/metrics.md lists', () => {
    const doc = read(METRICS_DOC);
    expect(Object.keys(METRICS).filter((name) => !doc.includes(name))).toEqual([]);
  });
});

describe('alert rules', () => {
  it('are one file: deploy/prometheus/alerts.yaml is the chart\'s files/alerts.yaml', () => {
    expect(read(RULES_LINK)).toBe(read(RULES));
  });

  it('cover what must page or warn', () => {
    expect(rules.map((rule) => rule.alert).sort()).toEqual(
      [
        'PlatformConsumerLagHigh',
        'PlatformGateway5xxRateHigh',
        'PlatformGatewayLatencyHigh',
        'PlatformJobsFailed',
        'PlatformJobsWaiting',
        'PlatformOutboxStuck',
        'PlatformProviderFailoversHigh',
        'PlatformTargetDown',
        'PlatformUpstreamDown',
        'PlatformWebhookFailureRateHigh',
      ].sort(),
    );
  });

  it.each(rules.map((rule) => [rule.alert ?? rule.record, rule] as const))('%s has for, severity, summary and a runbook', (_, rule) => {
    expect(rule.alert).toMatch(/^Platform[A-Z]\w+$/);
    expect(rule.expr).toEqual(expect.any(String));
    expect(rule.for).toMatch(/^\d+[smh]$/);
    expect(['critical', 'warning']).toContain(rule.labels?.severity);
    expect(rule.annotations?.summary).toEqual(expect.stringContaining('{{ $labels.service }}'));
    const url = rule.annotations?.runbook_url ?? '';
    expect(url.startsWith(`${RUNBOOK_BASE}#`)).toBe(true);
    const anchor = url.slice(RUNBOOK_BASE.length + 1);
    // The runbook line carries the anchor and names the alert.
    const line = readme.split('\n').find((l) => l.includes(`<a id="${anchor}"></a>`));
    expect(line).toEqual(expect.stringContaining(`**${rule.alert}**`));
  });

  it('have no runbook without an alert', () => {
    const anchors = [...readme.matchAll(/<a id="(platform-[\w-]+)"><\/a>/g)].map((m) => m[1] ?? '').sort();
    expect(anchors).toEqual(rules.map((rule) => (rule.annotations?.runbook_url ?? '').split('#')[1]).sort());
  });

  it.each(rules.map((rule) => [rule.alert, rule.expr] as const))('%s uses only exposed metrics and their labels', (_, expr) => {
    expect(nameProblems(expr)).toEqual([]);
  });

  it('watch `up` of every component of the chart, and only those', () => {
    const values = parse(read('deploy/helm/platform/values.yaml')) as { services: Record<string, unknown> };
    const targetDown = rules.find((rule) => rule.alert === 'PlatformTargetDown');
    const listed = /service=~"([^"]+)"/.exec(targetDown?.expr ?? '')?.[1]?.split('|');
    expect(listed?.sort()).toEqual([...Object.keys(values.services), 'gateway'].sort());
  });

  withPromtool('pass promtool check rules', () => {
    const { status, output } = runPromtool(['check', 'rules', RULES_LINK]);
    expect(output).toContain('SUCCESS');
    expect(status).toBe(0);
  });

  withPromtool('pass their unit tests (promtool test rules)', () => {
    const { status, output } = runPromtool(['test', 'rules', RULE_TESTS]);
    expect(output).toContain('SUCCESS');
    expect(status).toBe(0);
  });
});

describe('Grafana dashboard', () => {
  const queries = panels.flatMap((panel) => (panel.targets ?? []).map((target) => ({ panel: panel.title, ...target })));

  it('has the Prometheus data source and service variables', () => {
    expect(dashboard.schemaVersion).toBeGreaterThanOrEqual(38);
    expect(dashboard.uid).toEqual(expect.any(String));
    const variables = Object.fromEntries(dashboard.templating.list.map((v) => [v.name, v]));
    expect(variables.datasource).toMatchObject({ type: 'datasource', query: 'prometheus' });
    expect(variables.service).toMatchObject({ type: 'query', query: { query: 'label_values(process_cpu_seconds_total, service)' } });
  });

  it('has a row for each part of the platform', () => {
    expect(panels.filter((panel) => panel.type === 'row').map((row) => row.title)).toEqual([
      'Gateway traffic',
      'Charges',
      'Webhooks',
      'Pipeline (outbox, consumers, jobs)',
      'gRPC',
      'Database',
      'Process',
    ]);
  });

  it('lays its panels out on the 24-column grid without overlaps, with unique ids', () => {
    expect(new Set(panels.map((panel) => panel.id)).size).toBe(panels.length);
    const problems: string[] = [];
    const owner = new Map<string, string>();
    for (const { title, gridPos } of panels) {
      if (gridPos.x < 0 || gridPos.w <= 0 || gridPos.h <= 0 || gridPos.x + gridPos.w > 24) problems.push(`${title}: off the grid`);
      for (let x = gridPos.x; x < gridPos.x + gridPos.w; x++) {
        for (let y = gridPos.y; y < gridPos.y + gridPos.h; y++) {
          const other = owner.get(`${x},${y}`);
          if (other !== undefined) problems.push(`${title} overlaps ${other}`);
          owner.set(`${x},${y}`, title);
        }
      }
    }
    expect([...new Set(problems)]).toEqual([]);
  });

  it('queries the chosen data source, with only exposed metrics and their labels', () => {
    expect(queries.length).toBeGreaterThan(20);
    const problems = queries.flatMap((query) => [
      ...nameProblems(query.expr).map((problem) => `${query.panel}: ${problem}`),
      ...(query.datasource?.uid === '${datasource}' ? [] : [`${query.panel}: data source is not \${datasource}`]),
    ]);
    expect(problems).toEqual([]);
  });

  withPromtool('has queries that parse as PromQL', () => {
    // Grafana's variables as Grafana would fill them in, each query as a recording rule for promtool to parse.
    const groups = [
      {
        name: 'dashboard',
        rules: queries.map((query, i) => ({ record: `dashboard:query_${i}`, expr: query.expr.replaceAll('$__rate_interval', '5m').replaceAll('$service', '.+') })),
      },
    ];
    const dir = mkdtempSync(join(tmpdir(), 'dashboard-'));
    try {
      writeFileSync(join(dir, 'queries.yaml'), JSON.stringify({ groups }));
      const { status, output } = runPromtool(['check', 'rules', join(dir, 'queries.yaml')]);
      expect(output).toContain('SUCCESS');
      expect(status).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
