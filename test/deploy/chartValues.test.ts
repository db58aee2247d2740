/**
 * The chart's values.schema.json (draft-07, what helm checks before it renders): the chart's own values and the
 * all-enabled values pass, and a misspelled or mistyped key is refused with its path, as `helm install` refuses it.
 * scripts/helm-check.js runs the same refusals through the helm binary.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import Ajv from 'ajv';
import { parse } from 'yaml';

const chart = resolve(__dirname, '../../deploy/helm/platform');
const schema = JSON.parse(readFileSync(join(chart, 'values.schema.json'), 'utf8')) as object;
const values = parse(readFileSync(join(chart, 'values.yaml'), 'utf8')) as Record<string, unknown>;
const allEnabled = parse(readFileSync(join(chart, 'ci', 'all-enabled-values.yaml'), 'utf8')) as Record<string, unknown>;

const validate = new Ajv({ allErrors: true, strict: false }).compile(schema);

/** Helm's merge of a values file over the chart's values: maps key by key, anything else replaced. */
function merge(base: unknown, over: unknown): unknown {
  if (over === null || typeof over !== 'object' || Array.isArray(over) || base === null || typeof base !== 'object' || Array.isArray(base)) return over;
  const out: Record<string, unknown> = { ...(base as Record<string, unknown>) };
  for (const [key, value] of Object.entries(over)) out[key] = merge(out[key], value);
  return out;
}

function problems(candidate: unknown): string[] {
  return validate(candidate) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message ?? ''} ${JSON.stringify(e.params)}`);
}

describe('values.schema.json', () => {
  it("accepts the chart's values and the all-enabled values", () => {
    expect(problems(values)).toEqual([]);
    expect(problems(merge(values, allEnabled))).toEqual([]);
  });

  it('refuses a misspelled key wherever it is: top level, global, a component, a service', () => {
    expect(problems(merge(values, { gateway: { ingres: { enabled: true } } }))).toEqual([expect.stringMatching(/^\/gateway must NOT have additional properties .*"ingres"/)]);
    expect(problems(merge(values, { imagee: { tag: '1' } }))).toEqual([expect.stringMatching(/additionalProperty":"imagee"/)]);
    expect(problems(merge(values, { global: { nats: { stream: { replica: 3 } } } }))).toEqual([expect.stringMatching(/^\/global\/nats\/stream .*"replica"/)]);
    expect(problems(merge(values, { services: { payments: { resorces: {} } } }))).toEqual([expect.stringMatching(/^\/services\/payments .*"resorces"/)]);
    expect(problems(merge(values, { defaults: { probes: { readines: {} } } }))).toEqual([expect.stringMatching(/^\/defaults\/probes .*"readines"/)]);
  });

  it('refuses a value of the wrong type or outside its range', () => {
    expect(problems(merge(values, { defaults: { replicas: 'two' } }))).toEqual([expect.stringMatching(/^\/defaults\/replicas must be integer/)]);
    expect(problems(merge(values, { global: { nats: { stream: { replicas: 7 } } } }))).toEqual([expect.stringMatching(/^\/global\/nats\/stream\/replicas must be <= 5/)]);
    expect(problems(merge(values, { gateway: { admin: { port: 70000 } } }))).toEqual([expect.stringMatching(/^\/gateway\/admin\/port must be <= 65535/)]);
    expect(problems(merge(values, { gateway: { secretEnv: { SENTRY_DSN: { secretName: 'platform-observability' } } } }))).toEqual([
      expect.stringMatching(/^\/gateway\/secretEnv\/SENTRY_DSN must have required property 'key'/),
    ]);
  });

  it('takes any name for a new service and any extra environment variable', () => {
    expect(problems(merge(values, { services: { ledger: { grpcPort: 50052, env: { LEDGER_MODE: 'strict', RETRIES: 3 } } } }))).toEqual([]);
    expect(problems(merge(values, { services: { Ledger_2: {} } }))).not.toEqual([]);
  });
});
