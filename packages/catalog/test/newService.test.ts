import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const repoRoot = path.resolve(__dirname, '..', '..', '..');
const script = path.join(repoRoot, 'scripts', 'new-service', 'index.js');

/** A scratch copy of the files the generator edits, and the folders it writes into. */
function scratchRepo(): string {
  const root = mkdtempSync(path.join(os.tmpdir(), 'new-service-'));
  for (const file of ['packages/catalog/src/services.ts', 'gateway/src/app.ts']) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    cpSync(path.join(repoRoot, file), path.join(root, file));
  }
  return root;
}

function run(root: string, ...args: string[]): string {
  return execFileSync(process.execPath, [script, ...args, '--root', root], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

function failure(root: string, ...args: string[]): string {
  try {
    run(root, ...args);
  } catch (error) {
    return String((error as { stderr?: string }).stderr);
  }
  throw new Error('expected the generator to fail');
}

describe('npm run new-service', () => {
  let root: string;
  beforeEach(() => {
    root = scratchRepo();
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('writes the service, its proto and its routes, and adds its catalog entry and one mounting line', () => {
    run(root, 'loyalty-and-rewards', '--database', 'loyalty');
    for (const file of [
      'proto/loyalty_and_rewards/v1/loyalty_and_rewards.proto',
      'services/loyalty-and-rewards/package.json',
      'services/loyalty-and-rewards/tsconfig.json',
      'services/loyalty-and-rewards/README.md',
      'services/loyalty-and-rewards/src/main.ts',
      'services/loyalty-and-rewards/src/config.ts',
      'services/loyalty-and-rewards/src/service.ts',
      'services/loyalty-and-rewards/src/domain/item.ts',
      'services/loyalty-and-rewards/src/app/createItem.ts',
      'services/loyalty-and-rewards/src/store/itemStore.ts',
      'services/loyalty-and-rewards/src/grpc/itemHandlers.ts',
      'services/loyalty-and-rewards/src/wire/itemMessages.ts',
      'services/loyalty-and-rewards/src/events/itemEvents.ts',
      'services/loyalty-and-rewards/migrations/001_loyalty_and_rewards.sql',
      'services/loyalty-and-rewards/test/domain/item.test.ts',
      'services/loyalty-and-rewards/test/store/itemStore.test.ts',
      'services/loyalty-and-rewards/test/grpc/items.test.ts',
      'gateway/src/routes/loyalty-and-rewards/routes.ts',
      'gateway/src/routes/loyalty-and-rewards/schemas.ts',
      'gateway/src/routes/loyalty-and-rewards/mapping.ts',
    ]) {
      expect({ file, exists: existsSync(path.join(root, file)) }).toEqual({ file, exists: true });
    }
    const read = (file: string) => readFileSync(path.join(root, file), 'utf8');
    expect(read('proto/loyalty_and_rewards/v1/loyalty_and_rewards.proto')).toMatch(/package loyalty_and_rewards\.v1;\s[\s\S]*service LoyaltyAndRewardsService \{/);
    expect(JSON.parse(read('services/loyalty-and-rewards/package.json')).name).toBe('@platform/loyalty-and-rewards');
    expect(read('services/loyalty-and-rewards/src/service.ts')).toContain("import { loyaltyAndRewards } from '@platform/contracts';");
    expect(read('services/loyalty-and-rewards/src/events/itemEvents.ts')).toContain("created: 'loyalty-and-rewards.item.created'");
    // The proto codec has a floor of its own, which the handlers import; nothing in grpc/ is imported from below.
    expect(read('services/loyalty-and-rewards/src/wire/itemMessages.ts')).toContain('export function toItemMessage(item: Item): loyaltyAndRewards.Item');
    expect(read('services/loyalty-and-rewards/src/grpc/itemHandlers.ts')).toContain("import { toItemMessage } from '../wire/itemMessages';");
    expect(read('services/loyalty-and-rewards/src/grpc/itemHandlers.ts')).not.toContain('function toItemMessage');
    expect(read('services/loyalty-and-rewards/README.md')).toContain('owns its PostgreSQL database `loyalty`');

    const catalog = read('packages/catalog/src/services.ts');
    expect(catalog).toContain(
      [
        "    name: 'loyalty-and-rewards',",
        "    client: 'loyaltyAndRewards',",
        "    summary: 'Loyalty and rewards',",
        "    database: 'loyalty',",
        "    grpcService: 'loyalty_and_rewards.v1.LoyaltyAndRewardsService',",
        "    addressEnv: 'LOYALTY_AND_REWARDS_GRPC_URL',",
        "    scopes: ['loyalty-and-rewards'],",
      ].join('\n'),
    );
    // The entry goes last, before the marker, so the next service lands after it.
    expect(catalog.indexOf("name: 'loyalty-and-rewards'")).toBeGreaterThan(catalog.indexOf("name: 'webhooks'"));
    expect(catalog).toContain('  // new services are added above this line');

    const app = read('gateway/src/app.ts');
    expect(app).toContain("import { loyaltyAndRewardsRoutes } from './routes/loyalty-and-rewards/routes';");
    expect(app).toContain('    ...loyaltyAndRewardsRoutes(clients),');
    // Of the existing files only these two change, by the entry and two lines.
    const before = readFileSync(path.join(repoRoot, 'gateway/src/app.ts'), 'utf8').split('\n').length;
    expect(app.split('\n').length - before).toBe(2);
  });

  it('names the contract apart from the service with --proto, everywhere the contract is meant', () => {
    run(root, 'loyalty-and-points', '--database', 'loyalty', '--proto', 'loyalty');
    const read = (file: string) => readFileSync(path.join(root, file), 'utf8');
    expect(existsSync(path.join(root, 'proto/loyalty_and_points'))).toBe(false);
    expect(read('proto/loyalty/v1/loyalty.proto')).toMatch(/package loyalty\.v1;\s[\s\S]*service LoyaltyService \{/);
    const service = read('services/loyalty-and-points/src/service.ts');
    expect(service).toContain("import { loyalty } from '@platform/contracts';");
    expect(service).toContain("name: 'loyalty.v1.LoyaltyService',");
    expect(service).toContain('definition: loyalty.LoyaltyServiceService,');
    expect(service).toContain('export function defineLoyaltyAndPointsService()');
    expect(read('services/loyalty-and-points/test/support.ts')).toContain('PromiseClient<typeof loyalty.LoyaltyServiceService>');
    expect(read('gateway/src/routes/loyalty-and-points/mapping.ts')).toContain("import type { loyalty } from '@platform/contracts';");
    // The gateway's client keeps the service's name.
    expect(read('gateway/src/routes/loyalty-and-points/routes.ts')).toContain("loyaltyAndPointsRoutes({ loyaltyAndPoints }: Pick<GatewayClients, 'loyaltyAndPoints'>)");
    const catalog = read('packages/catalog/src/services.ts');
    expect(catalog).toContain("    grpcService: 'loyalty.v1.LoyaltyService',\n    addressEnv: 'LOYALTY_AND_POINTS_GRPC_URL',");
    expect(failure(root, 'rewards', '--proto', 'Rewards-Points')).toContain('is not a proto package name');
  });

  it('changes nothing in a dry run', () => {
    const out = run(root, 'gift-cards', '--dry-run');
    expect(out).toContain('would write services/gift-cards/src/service.ts');
    expect(out).toContain('would edit packages/catalog/src/services.ts');
    expect(existsSync(path.join(root, 'services', 'gift-cards'))).toBe(false);
    expect(readFileSync(path.join(root, 'packages/catalog/src/services.ts'), 'utf8')).toBe(readFileSync(path.join(repoRoot, 'packages/catalog/src/services.ts'), 'utf8'));
  });

  it('refuses a bad name, a reserved one, and one already in the catalog', () => {
    expect(failure(root, 'Sellers')).toContain('is not a service name');
    expect(failure(root, 'gateway')).toContain('is reserved');
    expect(failure(root, 'customers')).toContain('customers is already in packages/catalog/src/services.ts');
    expect(failure(root, 'gift-cards', '--database', 'payments')).toContain('the database payments is already used');
  });
});
