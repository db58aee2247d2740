/**
 * The command shipped in the image that creates the first client of a deployed platform
 * (gateway/dist/cli/createClient.js), against the real settings service: the key it prints authenticates.
 */
import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { settings as pb } from '@platform/contracts';
import { startServiceWithClient, type ServiceWithClient } from '@platform/testkit';
import { parseCommand, run } from '../../gateway/src/cli/createClient';
import { defineSettingsService } from '../../services/settings/src/service';

const root = resolve(__dirname, '../..');

/** The built command in a child process (asynchronously: settings answers from this process). */
function command(args: string[], env: NodeJS.ProcessEnv): Promise<{ status: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile(process.execPath, ['gateway/dist/cli/createClient.js', ...args], { cwd: root, env: { ...process.env, ...env }, encoding: 'utf8' }, (error, stdout, stderr) =>
      done({ status: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe('the first client of a deployed platform', () => {
  let settings: ServiceWithClient<typeof pb.SettingsServiceService>;
  beforeAll(async () => {
    settings = await startServiceWithClient(
      defineSettingsService({ merchants: { requireMerchant: async () => undefined } }),
      { definition: pb.SettingsServiceService, Client: pb.SettingsServiceClient },
      { env: { PAYMENTS_GRPC_URL: '127.0.0.1:1' } },
    );
  });
  afterAll(async () => {
    await settings?.stop();
  });

  it('creates a live client whose printed key authenticates, as the built command run in a gateway pod', async () => {
    const result = await command(['--name', 'Acme Live', '--environment', 'live'], { SETTINGS_GRPC_URL: settings.address });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    const created = JSON.parse(result.stdout) as { clientId: string; apiKey: string; keyId: string; environment: string; name: string };
    expect(created).toMatchObject({ name: 'Acme Live', environment: 'live', prepaymentEnabled: false, keyId: expect.any(String) });
    const authenticated = await settings.client.authenticate({ clientId: created.clientId, apiKey: created.apiKey });
    expect(authenticated).toMatchObject({ client: { id: created.clientId, environment: 'live' }, keyKind: 'secret' });
  });

  it('creates a sandbox client by default, with prepayment when asked', async () => {
    let printed = '';
    await run(['--name', 'Acme Sandbox', '--prepayment'], { SETTINGS_GRPC_URL: settings.address }, (text) => (printed += text));
    const created = JSON.parse(printed) as { clientId: string };
    const stored = await settings.client.getClient({ clientId: created.clientId });
    expect(stored).toMatchObject({ name: 'Acme Sandbox', environment: 'sandbox', prepaymentEnabled: true });
  });

  it('refuses bad arguments and a missing settings address with a message, and exits 1', async () => {
    expect(() => parseCommand([])).toThrow(/--name is required/);
    expect(() => parseCommand(['--name', 'A', '--environment', 'prod'])).toThrow(/--environment must be sandbox or live/);
    expect(() => parseCommand(['--name', 'A', '--admin'])).toThrow(/usage: createClient\.js/);
    await expect(run(['--name', 'A'], {}, () => undefined)).rejects.toThrow(/SETTINGS_GRPC_URL is not set/);
    const result = await command([], { SETTINGS_GRPC_URL: settings.address });
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/--name is required/);
  });
});
