// First: tracing (when configured) instruments http, express and gRPC as they are loaded.
import '@platform/kit/dist/tracing';
import { SERVICES } from '@platform/catalog';
import { createLogger, shutdownTelemetry, sleep, startMetricsServer } from '@platform/kit';
import { createAdminApp, createApp } from './app';
import { createGrpcClients, type Upstream } from './clients';
import { loadGatewayConfig } from './config';
import { listen } from './server';

async function main(): Promise<void> {
  const config = loadGatewayConfig();
  const log = createLogger({ name: 'gateway', level: config.LOG_LEVEL });
  const clients = createGrpcClients({
    addresses: Object.fromEntries(SERVICES.map((s) => [s.client, config[s.addressEnv]])) as Record<Upstream, string>,
    healthTimeoutMs: config.HEALTH_TIMEOUT_MS,
  });
  const server = await listen(createApp({ clients, config, log }), { host: config.HOST, port: config.PORT, log });
  // The admin API has a listener of its own, so the public one (and its Ingress) never serves it.
  const admin = await listen(createAdminApp({ clients, config, log }), { host: config.ADMIN_HOST, port: config.ADMIN_PORT, log, what: 'admin API' });
  const metrics = config.METRICS_ENABLED ? await startMetricsServer({ service: 'gateway', host: config.METRICS_HOST, port: config.METRICS_PORT, log }) : undefined;

  const onSignal = (signal: string) => {
    // Readiness false at once, the API still served for SHUTDOWN_DELAY_MS while balancers take this pod out, then the drain.
    server.notReady();
    log.info({ signal, delayMs: config.SHUTDOWN_DELAY_MS }, 'not ready; draining after the delay');
    void sleep(config.SHUTDOWN_DELAY_MS)
      .then(() => Promise.all([server.stop(config.SHUTDOWN_GRACE_MS), admin.stop(config.SHUTDOWN_GRACE_MS)]))
      .then(
        async () => {
          clients.close();
          await metrics?.stop();
          log.info('stopped');
          await shutdownTelemetry();
          process.exit(0);
        },
        () => process.exit(1),
      );
  };
  process.once('SIGTERM', onSignal);
  process.once('SIGINT', onSignal);
}

main().catch((error: unknown) => {
  // The logger may not exist yet (bad config); stderr always does.
  process.stderr.write(`gateway failed to start: ${(error as Error)?.stack ?? String(error)}\n`);
  process.exit(1);
});
