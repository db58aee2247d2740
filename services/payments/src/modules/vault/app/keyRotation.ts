import { scheduleJob, withTransaction, type JobOutcome } from '@platform/kit';
import type { PaymentsDeps } from '../../../shared/deps';
import { describeColumn, SEALED_COLUMNS, type SealedRow, type VaultKeyStore } from '../store/vaultKeyStore';

/** The durable job that moves every stored value to the sealing key of the ring. */
export const REWRAP_SEALED_VALUES = 'vault.rewrap_sealed_values';

/** Rows per transaction of the re-wrap job: short transactions, so charges never wait long on a row it holds. */
export const REWRAP_BATCH = 500;
/** When rows were skipped because a charge held them, the job comes back this much later for them. */
const LOCKED_ROWS_RETRY_MS = 2000;
/** A process that does not seal with the job's key leaves it to one that does: it looks again this much later... */
const OTHER_SEALING_KEY_RETRY_MS = 60_000;
/** ...for at most this many times (a rollback of the ring leaves a job no process can run). */
const OTHER_SEALING_KEY_TRIES = 60;

export type KeyRotationDeps = Pick<PaymentsDeps, 'pool' | 'log' | 'clock' | 'vault'> & { keyStore: VaultKeyStore };

/**
 * Checks the stored values against the configured key ring before the service serves, and starts moving them to the
 * sealing key when some are on older keys (or in format 1).
 *
 * Refuses to start when values are sealed with a key the ring lacks, naming each key and how many values need it
 * (so a key is removed only once nothing sealed with it remains), or when a key of the ring does not open the
 * values sealed under its id (a wrong key under a known id). The re-wrap job is added with the sealing key id as
 * its key: several replicas starting together add it once.
 */
export async function checkVaultKeys(deps: KeyRotationDeps): Promise<void> {
  const { pool, log, vault, keyStore } = deps;
  const ring = new Set(vault.keyIds);
  const inUse = new Set<string>();
  let format1 = false;
  for (const column of SEALED_COLUMNS) {
    const ids = await keyStore.keyIdsInUse(pool, column);
    for (const id of ids) inUse.add(id);
    format1 ||= await keyStore.hasFormat1(pool, column);
    // A few values per column and key: a ring entry under the right id with the wrong key is found before any
    // charge. One of them opening is enough (a single damaged value does not stop the service).
    for (const id of ids.filter((keyId) => ring.has(keyId))) {
      const samples = await keyStore.samples(pool, column, id, 3);
      const opened = await Promise.all(samples.map((sealed) => vault.open(column.purpose, sealed).then(() => true, () => false)));
      if (samples.length > 0 && !opened.includes(true)) {
        throw new Error(`card vault key ${id} opens none of the values sealed under that id (${describeColumn(column)}): check CARD_ENCRYPTION_KEYS`);
      }
    }
  }
  const missing = [...inUse].filter((id) => !ring.has(id)).sort();
  if (missing.length > 0) {
    const counts = await keyStore.countByKey(pool, missing);
    const named = missing.map((id) => `key ${id} seals ${counts.get(id) ?? 0} stored values`).join('; ');
    throw new Error(
      `the card vault key ring (${vault.keyIds.join(', ')}) lacks keys stored values are sealed with: ${named}. ` +
        'Put them back in CARD_ENCRYPTION_KEYS (after the sealing key); a key can be removed once the re-wrap job has moved its values',
    );
  }
  const older = [...inUse].filter((id) => id !== vault.sealingKeyId).sort();
  if (older.length === 0 && !format1) {
    log.info({ sealingKeyId: vault.sealingKeyId, keyIds: vault.keyIds }, 'card vault: every stored value is sealed with the sealing key');
    return;
  }
  // Ids only: counting every row on older keys would cost each replica's start a scan; the job reports its progress.
  log.info({ sealingKeyId: vault.sealingKeyId, olderKeyIds: older, format1 }, 'card vault: stored values on older keys; re-wrapping them');
  await scheduleJob(pool, {
    kind: REWRAP_SEALED_VALUES,
    runAt: deps.clock.now(),
    payload: { to: vault.sealingKeyId },
    dedupeKey: vault.sealingKeyId,
  });
}

/**
 * Moves every stored value to the sealing key `to`, a batch at a time: each batch locks its rows (skipping the ones a
 * charge holds), re-wraps their data keys and commits, so a crash loses at most one batch's work and the next run
 * picks up what is left (the rows still on older keys). Charges go on meanwhile: older keys stay in the ring until
 * this is done, and a row it holds is held for one batch only.
 */
export async function rewrapSealedValues(
  deps: KeyRotationDeps,
  payload: { to?: unknown; tries?: unknown },
  batchSize: number = REWRAP_BATCH,
): Promise<JobOutcome> {
  const { pool, log, vault, keyStore, clock } = deps;
  const to = String(payload.to ?? '');
  if (to !== vault.sealingKeyId) {
    // During a rolling change of the ring, a process still on the previous ring may take the job: it leaves it.
    const tries = Number(payload.tries ?? 0);
    if (!vault.keyIds.includes(to) || tries >= OTHER_SEALING_KEY_TRIES) {
      log.warn({ to, sealingKeyId: vault.sealingKeyId }, 'card vault: re-wrap job for a key this process does not seal with; dropped');
      return;
    }
    return { rescheduleAt: new Date(clock.now().getTime() + OTHER_SEALING_KEY_RETRY_MS), payload: { to, tries: tries + 1 } };
  }
  const older = vault.keyIds.filter((id) => id !== to);
  let moved = 0;
  const failed: string[] = [];
  for (const column of SEALED_COLUMNS) {
    for (;;) {
      const taken = await withTransaction(pool, async (tx) => {
        const rows = await keyStore.lockToMove(tx, column, older, batchSize, failed);
        const next: SealedRow[] = [];
        for (const row of rows) {
          try {
            const sealed = await vault.rewrap(column.purpose, row.sealed);
            if (sealed) next.push({ id: row.id, sealed });
          } catch (err) {
            // Not retried in this run: it stays on its key (which then cannot be removed) and is named in the log.
            failed.push(row.id);
            log.error({ err, table: column.table, column: column.column, rowId: row.id }, 'card vault: a stored value could not be re-wrapped');
          }
        }
        await keyStore.replace(tx, column, next);
        moved += next.length;
        return rows.length;
      });
      if (taken === 0) break;
    }
  }
  const left = await keyStore.countToMove(pool, older);
  if (left > failed.length) {
    // Rows a charge held were skipped: they are taken on the next run.
    log.info({ to, rewrapped: moved, left }, 'card vault: re-wrap batch done; rows in use are taken on the next run');
    return { rescheduleAt: new Date(clock.now().getTime() + LOCKED_ROWS_RETRY_MS) };
  }
  if (failed.length > 0) {
    log.error({ to, rewrapped: moved, failed: failed.length }, 'card vault: re-wrap done except for values that could not be opened; their keys must stay');
    return;
  }
  log.info({ to, rewrapped: moved, removable: older }, 'card vault: every stored value is sealed with the sealing key; the older keys can be removed');
}
