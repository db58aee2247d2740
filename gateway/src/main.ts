import { SERVICES } from '@platform/catalog';
import { createLogger } from '@platform/kit';
import { createApp } from './app';
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

  const onSignal = (signal: string) => {
    log.info({ signal }, 'draining');
    server.stop(config.SHUTDOWN_GRACE_MS).then(
      () => {
        clients.close();
        log.info('stopped');
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
