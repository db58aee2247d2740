import type { settings } from '@platform/contracts';
import { AppError, type PromiseClient } from '@platform/kit';
import { privateTargetsAllowed, settingsClientsPort } from '../../src/app/clientsPort';

type SettingsClient = PromiseClient<typeof settings.SettingsServiceService>;

/** Settings' GetClient as a table; anything else answers not_found, and every question is counted. */
function settingsOf(environments: Record<string, string>, failure?: Error): { client: SettingsClient; asked: string[] } {
  const asked: string[] = [];
  const client = {
    getClient: async ({ clientId }: { clientId: string }) => {
      asked.push(clientId);
      if (failure) throw failure;
      const environment = environments[clientId];
      if (!environment) throw new AppError('not_found', 'Client not found');
      return { id: clientId, name: 'Store', environment, prepaymentEnabled: false };
    },
  } as unknown as SettingsClient;
  return { client, asked };
}

describe('private targets per client', () => {
  it('are for sandbox clients only, and for nobody when the switch is off (settings not asked then)', async () => {
    const { client, asked } = settingsOf({ s: 'sandbox', l: 'live' });
    const clients = settingsClientsPort(client);
    expect(await privateTargetsAllowed({ allowPrivateTargets: true, clients }, 's')).toBe(true);
    expect(await privateTargetsAllowed({ allowPrivateTargets: true, clients }, 'l')).toBe(false);
    expect(await privateTargetsAllowed({ allowPrivateTargets: true, clients }, 'unknown')).toBe(false);
    expect(asked).toEqual(['s', 'l', 'unknown']);
    expect(await privateTargetsAllowed({ allowPrivateTargets: false, clients }, 'x')).toBe(false);
    expect(asked).toEqual(['s', 'l', 'unknown']);
  });

  it('asks settings once per client (an environment never changes), an unknown client each time', async () => {
    const { client, asked } = settingsOf({ s: 'sandbox' });
    const clients = settingsClientsPort(client);
    for (let i = 0; i < 3; i++) {
      expect(await clients.environmentOf('s')).toBe('sandbox');
      expect(await clients.environmentOf('unknown')).toBeNull();
    }
    expect(asked).toEqual(['s', 'unknown', 'unknown', 'unknown']);
  });

  it('passes on any other failure of settings, so that nothing is decided without an answer', async () => {
    const { client } = settingsOf({}, new AppError('unavailable', 'settings is down'));
    await expect(privateTargetsAllowed({ allowPrivateTargets: true, clients: settingsClientsPort(client) }, 's')).rejects.toThrow('settings is down');
  });
});
