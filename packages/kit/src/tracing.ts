/**
 * Starts OpenTelemetry tracing for this process when an OTLP endpoint is configured (`OTEL_EXPORTER_OTLP_ENDPOINT`
 * or `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`); without one nothing is loaded and nothing costs anything. It must be the
 * first module an entry point imports: the http, express, gRPC and pg instrumentations patch those modules as they
 * are loaded, so `import '@platform/kit/dist/tracing';` comes before every other import in each `main.ts`.
 *
 * The standard OTEL_* variables apply (OTEL_SERVICE_NAME, OTEL_TRACES_SAMPLER, OTEL_BSP_SCHEDULE_DELAY, ...). Spans
 * go out over OTLP/HTTP; the platform's own metrics stay with Prometheus, so the SDK's metrics and logs are off.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type * as OtlpHttp from '@opentelemetry/exporter-trace-otlp-http';
import type * as Express from '@opentelemetry/instrumentation-express';
import type * as Grpc from '@opentelemetry/instrumentation-grpc';
import type * as Http from '@opentelemetry/instrumentation-http';
import type * as Pg from '@opentelemetry/instrumentation-pg';
import type * as SdkNode from '@opentelemetry/sdk-node';
import { onTelemetryShutdown } from './trace';

/** The service's name: OTEL_SERVICE_NAME, else the entry point's package (`@platform/payments` → `payments`). */
function serviceName(): string {
  if (process.env.OTEL_SERVICE_NAME) return process.env.OTEL_SERVICE_NAME;
  let dir = path.dirname(require.main?.filename ?? process.argv[1] ?? process.cwd());
  for (let i = 0; i < 5; i++) {
    try {
      const name = (JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { name?: string }).name;
      if (name) return name.replace(/^@platform\//, '');
    } catch {
      // no package.json at this level: look one up
    }
    dir = path.dirname(dir);
  }
  return 'platform';
}

export function tracingEnabled(env: NodeJS.ProcessEnv = process.env): boolean {
  return Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) && env.OTEL_SDK_DISABLED !== 'true';
}

function start(): void {
  process.env.OTEL_METRICS_EXPORTER ??= 'none';
  process.env.OTEL_LOGS_EXPORTER ??= 'none';
  /* eslint-disable @typescript-eslint/no-require-imports -- loaded only when tracing is on */
  const { NodeSDK } = require('@opentelemetry/sdk-node') as typeof SdkNode;
  const { OTLPTraceExporter } = require('@opentelemetry/exporter-trace-otlp-http') as typeof OtlpHttp;
  const { HttpInstrumentation } = require('@opentelemetry/instrumentation-http') as typeof Http;
  const { ExpressInstrumentation, ExpressLayerType } = require('@opentelemetry/instrumentation-express') as typeof Express;
  const { GrpcInstrumentation } = require('@opentelemetry/instrumentation-grpc') as typeof Grpc;
  const { PgInstrumentation } = require('@opentelemetry/instrumentation-pg') as typeof Pg;
  /* eslint-enable @typescript-eslint/no-require-imports */
  const sdk = new NodeSDK({
    serviceName: serviceName(),
    traceExporter: new OTLPTraceExporter(),
    instrumentations: [
      new HttpInstrumentation({
        // Probes and scrapes are not requests anybody follows.
        ignoreIncomingRequestHook: (req) => /^\/(health|ready|live|metrics)\b/.test(req.url ?? ''),
      }),
      // The route's handler only: a span for each of the gateway's middlewares (request id, metrics, log, auth,
      // limits, body, validation) would cost more than it tells.
      new ExpressInstrumentation({ ignoreLayersType: [ExpressLayerType.MIDDLEWARE, ExpressLayerType.ROUTER] }),
      // Health checks come every few seconds from every prober.
      new GrpcInstrumentation({ ignoreGrpcMethods: ['Check', 'Watch'] }),
      // Only statements inside a traced call: the relay's and the job runner's polls would fill the trace store.
      new PgInstrumentation({ requireParentSpan: true }),
    ],
  });
  sdk.start();
  onTelemetryShutdown(() => sdk.shutdown());
}

if (tracingEnabled()) start();
