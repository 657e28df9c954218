// Seeding a new cluster from a backup: the backup's lock state with every session dropped
// (and with them every holder, waiter and kept answer) and a higher token epoch, so that
// every token the new cluster issues is larger than any token the old cluster issued,
// however far the old one ran after the backup. Lock history, the access policy and the
// bearer tokens are kept.
import { holderCount } from "./holders.ts";
import { MAX_EPOCH } from "./limits.ts";
import { SlotPool } from "./slot-pool.ts";
import { readSnapshot, SnapshotError, writeSnapshot } from "./codec/snapshot.ts";
import { LockStateMachine } from "./state-machine.ts";

/** The rule, as printed by the restore command. */
export const EPOCH_RULE =
  "a restore sets the token epoch to the backup's epoch + 1, or to --epoch N when that is higher; " +
  "restoring a backup twice, or an older backup after a restored cluster has run, needs --epoch above every epoch used";

/** Thrown when a restore is refused (a lower --epoch, an epoch out of range, a bad backup). */
export class RestoreRefusedError extends Error {
  override readonly name = "RestoreRefusedError";
}

/**
 * The epoch of a restored cluster: the backup's epoch + 1, or `requested` when that is
 * higher. A requested epoch below backupEpoch + 1 is refused, never raised silently.
 */
export function chooseRestoreEpoch(backupEpoch: number, requested?: number): number {
  if (!Number.isSafeInteger(backupEpoch) || backupEpoch < 0 || backupEpoch > MAX_EPOCH) {
    throw new RestoreRefusedError(`the backup's epoch ${backupEpoch} is out of range`);
  }
  const least = backupEpoch + 1;
  if (least > MAX_EPOCH)
    throw new RestoreRefusedError(
      `the backup's epoch ${backupEpoch} is the highest possible; no higher epoch is left`,
    );
  if (requested === undefined) return least;
  if (!Number.isSafeInteger(requested) || requested < 0 || requested > MAX_EPOCH) {
    throw new RestoreRefusedError(`--epoch ${requested} is out of range (0..${MAX_EPOCH})`);
  }
  if (requested < least) {
    throw new RestoreRefusedError(
      `--epoch ${requested} is not above the backup's epoch ${backupEpoch}: it must be at least ${least} (and above every epoch used since)`,
    );
  }
  return requested;
}

export interface RestoredState {
  /** Snapshot bytes of the new cluster's lock state, at the backup's index. */
  readonly data: Uint8Array;
  readonly index: number;
  readonly epoch: number;
  /** Sessions of the backup that were dropped. */
  readonly droppedSessions: number;
  /** Grants that the drop ended (recorded in history as "sessionExpired" at the backup's index). */
  readonly endedGrants: number;
  readonly droppedWaiters: number;
}

/**
 * Transforms the lock-state snapshot of a backup into the first state of a new cluster.
 * `epoch` must be above the backup's (see chooseRestoreEpoch). `wallMs` is display data for
 * the history records of the grants the restore ends. Deterministic; throws SnapshotError
 * on a corrupt backup.
 */
export function restoreFromBackup(backup: Uint8Array, epoch: number, wallMs = 0): RestoredState {
  const state = readSnapshot(backup);
  if (epoch <= state.epoch) {
    throw new RestoreRefusedError(`epoch ${epoch} is not above the backup's epoch ${state.epoch}`);
  }
  chooseRestoreEpoch(state.epoch, epoch);
  let endedGrants = 0;
  let droppedWaiters = 0;
  for (const [name, lock] of [...state.locks]) {
    endedGrants += holderCount(lock);
    // A pending Upgrade is a waiter too: its session goes, and its upgradeable grant with it.
    droppedWaiters += (lock.waiters?.size ?? 0) + (lock.upgrade !== null ? 1 : 0);
    lock.holders = null;
    lock.waiters = null;
    lock.upgrade = null;
    // Idle, the name keeps its kind (a semaphore's permit count), for its history.
    if (lock.semaphore)
      lock.semaphore = {
        permits: lock.semaphore.permits,
        slots: new SlotPool(lock.semaphore.permits),
      };
    if (lock.historyLength === 0) state.locks.delete(name);
  }
  // A grant still current in the backup ended when its session was dropped.
  for (const record of state.history) {
    if (record.endedAt !== null) continue;
    record.endedAt = state.applied;
    record.endedWallMs = wallMs;
    record.reason = "sessionExpired";
  }
  const data = writeSnapshot(
    {
      applied: state.applied,
      epoch,
      // The backed-up cluster's limits carry over.
      limits: state.limits,
      sessions: new Map(),
      locks: state.locks,
      history: state.history,
      requestIds: new Map(),
      closedIds: new Set(),
      // Ended sessions are of the old cluster (ids carry its epoch); the policy and the
      // tokens carry over, so a restored cluster is as closed as the one backed up.
      endedOwners: new Map(),
      access: state.access,
    },
    backup.byteLength,
  );
  // The result must load as a state machine, with its invariants intact.
  const check = LockStateMachine.restore(data);
  if (check.epoch !== epoch || check.appliedIndex !== state.applied)
    throw new SnapshotError("restored state does not read back as written");
  return {
    data,
    index: state.applied,
    epoch,
    droppedSessions: state.sessions.size,
    endedGrants,
    droppedWaiters,
  };
}

/** The epoch and applied index recorded in lock-state snapshot bytes (verifies the checksum). */
export function snapshotPoint(bytes: Uint8Array): { index: number; epoch: number } {
  const state = readSnapshot(bytes);
  return { index: state.applied, epoch: state.epoch };
}
