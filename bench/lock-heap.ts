// The heap the lock state alone takes: a state machine in this process, filled as the memory
// part fills a cluster (sessions opened, then locks acquired round-robin over them, each
// write acknowledging the session's previous one), then the same state restored from its
// snapshot. Live heap after full collections, nothing else measured.
//   node --expose-gc dist/bench/lock-heap.js [--sessions 10000] [--locks 100000]
import { parseArgs } from "node:util";
import { LockStateMachine } from "../node/lock/index.ts";
import { isEntryPoint } from "../node/util/entry-point.ts";

export interface LockHeapResult {
  sessions: number;
  locks: number;
  /** MB of live heap the filled state machine added. */
  built_mb: number;
  /** MB of live heap its restored copy added. */
  restored_mb: number;
  snapshot_mb: number;
}

const MB = 1024 * 1024;

function liveHeap(): number {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc === undefined) throw new Error("run with node --expose-gc");
  for (let i = 0; i < 4; i++) gc();
  return process.memoryUsage().heapUsed;
}

function fill(sessions: number, locks: number): LockStateMachine {
  const machine = new LockStateMachine();
  let index = 0;
  const ids: bigint[] = [];
  for (let s = 0; s < sessions; s++) {
    const out = machine.apply(++index, {
      type: "openSession",
      requestId: `lock-heap-${s}`,
      ttlMs: 600_000,
      clientName: `memory-bench-${s % 16}`,
      wallMs: Date.now(),
    });
    if (out.result.kind !== "sessionOpened") throw new Error(`open ${s}: ${out.result.kind}`);
    ids.push(out.result.sessionId);
  }
  const seqs = new Array<number>(sessions).fill(0);
  for (let l = 0; l < locks; l++) {
    const s = l % sessions;
    const seq = ++(seqs[s] as number);
    const out = machine.apply(++index, {
      type: "acquire",
      sessionId: ids[s] as bigint,
      lock: `memory/lock-${l}`,
      waitMs: 0,
      seq,
      ackedUpTo: seq - 1,
      held: [],
      wallMs: Date.now(),
    });
    if (out.result.kind !== "granted") throw new Error(`acquire ${l}: ${out.result.kind}`);
  }
  return machine;
}

export function measureLockHeap(sessions: number, locks: number): LockHeapResult {
  const start = liveHeap();
  const machine = fill(sessions, locks);
  const built = liveHeap();
  const bytes = machine.snapshot();
  const restored = LockStateMachine.restore(bytes);
  const both = liveHeap();
  // Both stay reachable until both readings are taken.
  if (restored.appliedIndex !== machine.appliedIndex) throw new Error("restore lost entries");
  return {
    sessions,
    locks,
    built_mb: Math.round(((built - start) / MB) * 10) / 10,
    restored_mb: Math.round(((both - built) / MB) * 10) / 10,
    snapshot_mb: Math.round((bytes.byteLength / MB) * 10) / 10,
  };
}

if (isEntryPoint(import.meta.url)) {
  const { values } = parseArgs({
    options: { sessions: { type: "string" }, locks: { type: "string" } },
  });
  const r = measureLockHeap(Number(values.sessions ?? 10_000), Number(values.locks ?? 100_000));
  console.log(
    `lock state of ${r.sessions} sessions and ${r.locks} locks: ${r.built_mb} MB of live heap built by applying, ${r.restored_mb} MB restored from its ${r.snapshot_mb} MB snapshot`,
  );
}
