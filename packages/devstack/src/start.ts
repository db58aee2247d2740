import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { natsServerBinary, NATS_INSTALL_HINT, startNats, startPostgres, type NatsServer, type PostgresServer } from '@platform/testkit';
import { completeKeys, launchPlatform, type Platform, type PlatformKeys } from './platform';

/**
 * `npm start`: the whole platform on one machine. PostgreSQL and nats-server keep their data in DATA_DIR,
 * so a second run finds everything the first one left. Ports other than PORT are picked free at each start,
 * so two copies with different PORT and DATA_DIR run side by side.
 */
interface Credentials {
  clientId?: string;
  apiKey?: string;
  adminToken: string;
}

const repoRoot = path.resolve(__dirname, '..', '..', '..');
const dataDir = path.resolve(process.env.DATA_DIR ?? path.join(repoRoot, '.data'));
const port = Number(process.env.PORT ?? 8080);
const credentialsFile = path.join(dataDir, 'credentials.json');
const keysFile = path.join(dataDir, 'keys.json');

function say(line: string): void {
  process.stdout.write(`${line}\n`);
}

function readCredentials(): Credentials {
  if (existsSync(credentialsFile)) return JSON.parse(readFileSync(credentialsFile, 'utf8')) as Credentials;
  return { adminToken: randomBytes(24).toString('hex') };
}

/** The keys that must outlive restarts, created once; a file from an older run gets the keys it lacks. */
function readKeys(): PlatformKeys {
  const stored = existsSync(keysFile) ? (JSON.parse(readFileSync(keysFile, 'utf8')) as Partial<PlatformKeys>) : {};
  const keys = completeKeys(stored);
  if (Object.keys(stored).length !== Object.keys(keys).length) writeFileSync(keysFile, `${JSON.stringify(keys, null, 2)}\n`, { mode: 0o600 });
  return keys;
}

function writeCredentials(credentials: Credentials): void {
  writeFileSync(credentialsFile, `${JSON.stringify(credentials, null, 2)}\n`, { mode: 0o600 });
}

async function createSandboxClient(gatewayUrl: string, adminToken: string): Promise<{ clientId: string; apiKey: string }> {
  const response = await fetch(`${gatewayUrl}/admin/v1/clients`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-admin-token': adminToken },
    body: JSON.stringify({ name: 'Sandbox', environment: 'sandbox' }),
  });
  if (response.status !== 201) throw new Error(`could not create the sandbox client: ${response.status} ${await response.text()}`);
  return (await response.json()) as { clientId: string; apiKey: string };
}

async function main(): Promise<void> {
  if (!Number.isInteger(port) || port <= 0 || port > 65535) throw new Error(`PORT must be a TCP port, got ${process.env.PORT}`);
  try {
    natsServerBinary();
  } catch {
    say(`nats-server is not installed. Install it with:\n\n  ${NATS_INSTALL_HINT}\n`);
    process.exit(1);
  }
  mkdirSync(dataDir, { recursive: true });
  const credentials = readCredentials();
  writeCredentials(credentials);

  let postgres: PostgresServer | undefined;
  let nats: NatsServer | undefined;
  let platform: Platform | undefined;
  let stopping = false;

  const shutdown = async (code: number) => {
    if (stopping) return;
    stopping = true;
    say('stopping the platform...');
    await platform?.stop().catch(() => undefined);
    await nats?.stop().catch(() => undefined);
    await postgres?.stop().catch(() => undefined);
    say('stopped');
    process.exit(code);
  };
  process.on('SIGINT', () => void shutdown(0));
  process.on('SIGTERM', () => void shutdown(0));

  try {
    say(`data in ${dataDir}`);
    [postgres, nats] = await Promise.all([
      startPostgres({ dataDir: path.join(dataDir, 'postgres') }),
      startNats({ storeDir: path.join(dataDir, 'nats') }),
    ]);
    const pg = postgres;
    platform = await launchPlatform({
      repoRoot,
      ensureDatabase: (name) => pg.ensureDatabase(name),
      natsUrl: nats.url,
      gatewayPort: port,
      adminToken: credentials.adminToken,
      keys: readKeys(),
      publicUrl: process.env.PUBLIC_URL ?? `http://localhost:${port}`,
      logLevel: process.env.LOG_LEVEL ?? 'info',
      env: { WEBHOOKS_ALLOW_PRIVATE_TARGETS: 'true' },
      onLine: (name, line) => process.stdout.write(`[${name.padEnd(9)}] ${line}\n`),
      onExit: (name, code, signal) => {
        if (!stopping) {
          say(`[${name}] exited (code ${code}, signal ${signal}); stopping the platform`);
          void shutdown(1);
        }
      },
    });
    if (!credentials.clientId || !credentials.apiKey) {
      const client = await createSandboxClient(`http://127.0.0.1:${port}`, credentials.adminToken);
      credentials.clientId = client.clientId;
      credentials.apiKey = client.apiKey;
      writeCredentials(credentials);
      say('created the sandbox client (first start)');
    }
    say(
      [
        '',
        `The platform is up: http://localhost:${port}  (API docs: http://localhost:${port}/docs)`,
        `Credentials (also in ${credentialsFile}):`,
        `  X-Client-Id:   ${credentials.clientId}`,
        `  X-Api-Key:     ${credentials.apiKey}`,
        `  X-Admin-Token: ${credentials.adminToken}`,
        '',
        `Try: curl -s http://localhost:${port}/v1/customers -H "X-Client-Id: ${credentials.clientId}" -H "X-Api-Key: ${credentials.apiKey}"`,
        'Ctrl-C stops everything.',
        '',
      ].join('\n'),
    );
  } catch (error) {
    say(`the platform could not start: ${(error as Error).message}`);
    await shutdown(1);
  }
}

void main();
