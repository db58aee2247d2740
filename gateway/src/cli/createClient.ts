/**
 * Creates a client account and its first secret API key from inside a deployed platform, before anyone holds an
 * admin token or can reach the admin API: it calls the settings service over gRPC at SETTINGS_GRPC_URL, which every
 * gateway pod has.
 *
 *   kubectl exec deploy/<release>-gateway -- node gateway/dist/cli/createClient.js --name "Acme" --environment live
 *
 * Prints one JSON object: the client's id, environment and name, and the secret key (shown this once; only its hash
 * is kept) with its id. Exits 1 with a message on bad arguments or when settings refuses or cannot be reached.
 */
import { parseArgs } from 'node:util';
import { settings } from '@platform/contracts';
import { createPromiseClient } from '@platform/kit';

const USAGE = 'usage: createClient.js --name <name> [--environment sandbox|live] [--prepayment]';
const ENVIRONMENTS = ['sandbox', 'live'] as const;

export interface CreatedClientOutput {
  clientId: string;
  name: string;
  environment: string;
  prepaymentEnabled: boolean;
  apiKey: string;
  keyId: string;
}

export interface CommandOptions {
  name: string;
  environment: (typeof ENVIRONMENTS)[number];
  prepaymentEnabled: boolean;
}

/** The command's options from its arguments; throws with the usage line on anything it does not take. */
export function parseCommand(argv: string[]): CommandOptions {
  let values: { name?: string; environment?: string; prepayment?: boolean };
  try {
    ({ values } = parseArgs({
      args: argv,
      options: { name: { type: 'string' }, environment: { type: 'string', default: 'sandbox' }, prepayment: { type: 'boolean', default: false } },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    throw new Error(`${(error as Error).message}\n${USAGE}`, { cause: error });
  }
  const name = values.name?.trim();
  if (!name) throw new Error(`--name is required\n${USAGE}`);
  const environment = values.environment as CommandOptions['environment'];
  if (!ENVIRONMENTS.includes(environment)) throw new Error(`--environment must be sandbox or live\n${USAGE}`);
  return { name, environment, prepaymentEnabled: values.prepayment ?? false };
}

/** Creates the client through the settings service at `address` (host:port). */
export async function createClientAccount(address: string, options: CommandOptions): Promise<CreatedClientOutput> {
  const client = createPromiseClient(settings.SettingsServiceService, settings.SettingsServiceClient, address, { deadlineMs: 10_000 });
  try {
    const created = await client.createClient({ name: options.name, environment: options.environment, prepaymentEnabled: options.prepaymentEnabled }, {});
    const account = created.client;
    if (!account) throw new Error('settings answered without the client');
    return {
      clientId: account.id,
      name: account.name,
      environment: account.environment,
      prepaymentEnabled: account.prepaymentEnabled,
      apiKey: created.apiKey,
      keyId: created.keyId,
    };
  } finally {
    client.close();
  }
}

export async function run(argv: string[], env: NodeJS.ProcessEnv, out: (text: string) => void): Promise<void> {
  const options = parseCommand(argv);
  const address = env.SETTINGS_GRPC_URL;
  if (!address) throw new Error('SETTINGS_GRPC_URL is not set: run this in a gateway pod, or set it to the settings service (host:port)');
  out(`${JSON.stringify(await createClientAccount(address, options), null, 2)}\n`);
}

if (require.main === module) {
  run(process.argv.slice(2), process.env, (text) => process.stdout.write(text)).catch((error: unknown) => {
    process.stderr.write(`createClient: ${(error as Error).message}\n`);
    process.exitCode = 1;
  });
}
