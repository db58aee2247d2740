import { randomBytes } from 'node:crypto';
import { Client, type Pool } from 'pg';
import type { Logger } from './log';

/**
 * This process, as other processes sharing its database can tell it is alive: for its whole life it holds a
 * session-level PostgreSQL advisory lock on its own key, on a connection of its own. When the process dies its
 * connection closes and PostgreSQL releases the lock, so whoever can take that lock knows the process is gone.
 *
 * Keys are random 64-bit numbers above the 32-bit range, so they never meet the `hashtext(...)` keys other locks
 * use (the schema migration lock), and a key is only taken if no live process holds it.
 */
export interface Instance {
  /** The lock key, while the lock is held; undefined while its connection is being re-established. */
  key(): string | undefined;
  stop(): Promise<void>;
}

export interface InstanceOptions {
  databaseUrl: string;
  log: Logger;
  name?: string;
  /** How long to wait before connecting again after the lock's connection failed. */
  reconnectMs?: number;
}

const instances = new WeakMap<Pool, Instance>();

/** Makes `instance` the owner recorded for work done through `pool` (idempotency claims). */
export function registerInstance(pool: Pool, instance: Instance): void {
  instances.set(pool, instance);
}

/** The owner key of work done through `pool`, or undefined when no instance lock is held for it. */
export function instanceKeyOf(pool: Pool): string | undefined {
  return instances.get(pool)?.key();
}

/** A random key in [2^32, 2^62): above every 32-bit key, positive, and exact as a decimal string. */
function newKey(): string {
  const value = (randomBytes(8).readBigUInt64BE() % (2n ** 62n - 2n ** 32n)) + 2n ** 32n;
  return value.toString();
}

/** Takes the lock on `preferred` if it is free (the same key again after a reconnection), else on a new key. */
async function lockOn(options: InstanceOptions, preferred?: string): Promise<{ client: Client; key: string }> {
  const client = new Client({
    connectionString: options.databaseUrl,
    application_name: options.name ? `${options.name}:instance` : 'instance',
    // A connection that silently went away is noticed, and the lock taken again.
    keepAlive: true,
  });
  await client.connect();
  try {
    for (let key = preferred ?? newKey(); ; key = newKey()) {
      const taken = await client.query<{ ok: boolean }>('SELECT pg_try_advisory_lock($1::bigint) AS ok', [key]);
      if (taken.rows[0]?.ok) return { client, key };
    }
  } catch (error) {
    await client.end().catch(() => undefined);
    throw error;
  }
}

/**
 * Takes this process's instance lock. If its connection fails later (the database restarted, say) the
 * instance reports no key until the lock is held again, on the same key when it is free; meanwhile new
 * idempotency claims record no owner and fall back to the in-flight timeout. A claim made before the failure
 * may be taken over by a retry in that gap: the idempotency record then refuses this process's late commit.
 */
export async function startInstance(options: InstanceOptions): Promise<Instance> {
  const reconnectMs = options.reconnectMs ?? 1000;
  let current: { client: Client; key: string } | undefined;
  let lastKey: string | undefined;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;

  const hold = (held: { client: Client; key: string }) => {
    current = held;
    lastKey = held.key;
    const lost = (err?: Error) => {
      if (stopped || current !== held) return;
      options.log.warn({ err }, 'instance lock connection lost; taking the lock again');
      current = undefined;
      held.client.end().catch(() => undefined);
      schedule();
    };
    held.client.on('error', lost);
    held.client.on('end', () => lost());
  };
  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      lockOn(options, lastKey).then(
        (held) => {
          if (stopped) {
            void held.client.end().catch(() => undefined);
            return;
          }
          hold(held);
          options.log.info('instance lock held again');
        },
        (err: unknown) => {
          options.log.warn({ err }, 'instance lock not taken; trying again');
          schedule();
        },
      );
    }, reconnectMs);
    timer.unref();
  };

  hold(await lockOn(options));
  return {
    key: () => current?.key,
    stop: async () => {
      stopped = true;
      if (timer) clearTimeout(timer);
      const held = current;
      current = undefined;
      // Closing the session releases the lock.
      await held?.client.end().catch(() => undefined);
    },
  };
}
