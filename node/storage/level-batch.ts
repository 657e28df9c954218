// A write plan's steps as one LevelDB batch: the keys of ./keys.ts, the values of ./records.ts.
// Snapshot bodies are not in the batch: LevelStorage writes them to files first.
import { HARD_STATE_KEY, SNAPSHOT_META_KEY, entryKey } from "./keys.ts";
import { encodeEntry, encodeHardState, encodeSnapshotRecord } from "./records.ts";
import type { LogStep } from "./write-plan.ts";

export type BatchOp =
  | { readonly type: "put"; readonly key: Uint8Array; readonly value: Uint8Array }
  | { readonly type: "del"; readonly key: Uint8Array };

/** The batch, in step order (a key removed and then put in one batch ends up put). */
export function batchOpsOf(steps: readonly LogStep[]): BatchOp[] {
  const ops: BatchOp[] = [];
  for (const step of steps) {
    switch (step.kind) {
      case "dropEntries":
        for (let i = step.from; i <= step.to; i++) ops.push({ type: "del", key: entryKey(i) });
        break;
      case "putEntries":
        for (const entry of step.entries) {
          const key = entryKey(entry.index);
          ops.push({ type: "put", key, value: encodeEntry(key, entry) });
        }
        break;
      case "putHardState":
        ops.push({
          type: "put",
          key: HARD_STATE_KEY,
          value: encodeHardState(HARD_STATE_KEY, step.hardState),
        });
        break;
      case "putSnapshot":
        ops.push({
          type: "put",
          key: SNAPSHOT_META_KEY,
          value: encodeSnapshotRecord(SNAPSHOT_META_KEY, step.record),
        });
        break;
    }
  }
  return ops;
}
