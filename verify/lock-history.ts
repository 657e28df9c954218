// A lock history checked for linearizability: the front end of the engine in
// linearizable.ts for the histories the simulation and the chaos suite record.
//
// It partitions a history by lock name (locks are independent, so the history is
// linearizable iff each partition is) and projects each session-ending event into every
// lock its session touches. Locks that multi-lock requests name together form one
// partition. A partition of exclusive locks only is checked against the exclusive lock's
// model (lock-model.ts); one using a lock kind (a mode, a semaphore, a set, or the `waits`
// flag that asks for the FIFO rules) against the kinds' model (kinds-model.ts).
import { targetOf, type LockMode, type LockTarget, type Target } from "../node/lock/kinds.ts";
import { kindsModel, kindsModelQueueUnseen, type KindsInput } from "./kinds-model.ts";
import { lockModel } from "./lock-model.ts";
import type {
  AcquireOutcome,
  LockInput,
  LockOutput,
  ReadOutcome,
  ReleaseOutcome,
  ValidateOutcome,
} from "./lock-model.ts";
import {
  checkLinearizable,
  DEFAULT_BUDGET,
  type CheckResult,
  type OpId,
  type Operation,
} from "./linearizable.ts";

interface Timed {
  id: OpId;
  call: number;
}

/**
 * An Acquire: of `lock` alone (exclusive unless `mode` says shared; a semaphore permit with
 * `permits`), or with the `more` locks of a multi-lock request. `waits`: whether it asked
 * for a wait (wait_ms > 0); given, the kinds' model checks the FIFO rules for it, which
 * needs every Acquire of those locks in the history, cancelled ones included.
 */
export type AcquireEvent = Timed & {
  kind: "acquire";
  lock: string;
  session: bigint;
  ret: number | null;
  out?: AcquireOutcome;
  mode?: LockMode;
  permits?: number;
  more?: readonly LockTarget[];
  waits?: boolean;
};

/** One client-visible operation on a lock, or the end of a session (from the log). */
export type LockHistoryEvent =
  | AcquireEvent
  | (Timed & {
      kind: "release";
      lock: string;
      session: bigint;
      token: bigint;
      ret: number | null;
      out?: ReleaseOutcome;
    })
  | (Timed & { kind: "read"; lock: string; ret: number | null; out?: ReadOutcome })
  | (Timed & {
      kind: "validate";
      lock: string;
      token: bigint;
      ret: number | null;
      out?: ValidateOutcome;
    })
  // Close or expiry, taken from the committed log: its outcome is always known.
  | (Timed & { kind: "sessionEnd"; session: bigint; ret: number })
  // The grants one entry of the committed log ended without their clients (a RevokeLock, a
  // hold limit), taken from the log like a session end (the lock kinds' model only).
  | (Timed & {
      kind: "revoke";
      grants: ReadonlyArray<{ lock: string; session: bigint; token: bigint }>;
      ret: number;
    });

export interface LockHistoryResult {
  ok: boolean;
  /** Verdict per lock name (per group of locks that multi-lock requests tie, names joined by "+"). */
  perLock: Map<string, CheckResult>;
  /** Model steps over all locks. */
  explored: number;
  /** One paragraph per failing lock; empty when ok. */
  detail: string;
}

type LockOperation = Operation<LockInput, LockOutput>;

function toOperation(
  e: Exclude<LockHistoryEvent, { kind: "sessionEnd" | "revoke" }>,
): LockOperation | null {
  if (e.ret === null && e.out !== undefined)
    throw new Error(`event ${e.id}: an output without a return time`);
  if (e.ret !== null && e.out === undefined)
    throw new Error(`event ${e.id}: returned without an output`);
  const base = { id: e.id, call: e.call, ret: e.ret, output: e.out };
  switch (e.kind) {
    case "acquire":
      return { ...base, input: { kind: "acquire", session: e.session } };
    case "release":
      return { ...base, input: { kind: "release", session: e.session, token: e.token } };
    case "read":
      // A read without an answer constrains nothing.
      return e.ret === null ? null : { ...base, input: { kind: "read" } };
    case "validate":
      return e.ret === null ? null : { ...base, input: { kind: "validate", token: e.token } };
  }
}

/** Sessions whose end matters to a lock: those acting on it or named as its holder. */
function sessionsTouching(
  e: Exclude<LockHistoryEvent, { kind: "sessionEnd" | "revoke" }>,
): bigint[] {
  const sessions: bigint[] = [];
  if (e.kind === "acquire" || e.kind === "release") sessions.push(e.session);
  if (e.kind === "acquire" && e.out?.kind === "notAcquired" && e.out.holderSession !== undefined) {
    sessions.push(e.out.holderSession);
  }
  if (e.kind === "read" && e.out?.holder != null) sessions.push(e.out.holder);
  return sessions;
}

/** Splits a history into one operation list per lock, session ends projected in. */
export function partitionByLock(events: readonly LockHistoryEvent[]): Map<string, LockOperation[]> {
  // Per lock: its operations, and for each session touching it the latest return of that
  // session's acquires and releases there (Infinity while one has an unknown outcome).
  const perLock = new Map<string, { ops: LockOperation[]; sessions: Map<bigint, number> }>();
  const ends: Extract<LockHistoryEvent, { kind: "sessionEnd" }>[] = [];
  for (const e of events) {
    if (e.kind === "sessionEnd") {
      ends.push(e);
      continue;
    }
    if (e.kind === "revoke") throw new Error(`event ${e.id}: a revoke needs the lock kinds' model`);
    let part = perLock.get(e.lock);
    if (part === undefined) {
      part = { ops: [], sessions: new Map() };
      perLock.set(e.lock, part);
    }
    const op = toOperation(e);
    if (op !== null) part.ops.push(op);
    for (const s of sessionsTouching(e)) {
      const acts = (e.kind === "acquire" || e.kind === "release") && e.session === s;
      const lastRet = acts ? (e.ret ?? Infinity) : -Infinity;
      part.sessions.set(s, Math.max(part.sessions.get(s) ?? -Infinity, lastRet));
    }
  }
  const result = new Map<string, LockOperation[]>();
  for (const [lock, part] of perLock) {
    const projected: LockOperation[] = [];
    for (const e of ends) {
      const lastRet = part.sessions.get(e.session);
      if (lastRet === undefined) continue;
      const input: LockInput = { kind: "sessionEnd", session: e.session, relevantUntil: lastRet };
      projected.push({ id: e.id, call: e.call, ret: e.ret, input });
    }
    result.set(lock, [...part.ops, ...projected]);
  }
  return result;
}

/**
 * Checks a lock-service history lock by lock (group by group where multi-lock requests tie
 * locks together). `budget` applies to each partition; one whose search runs out of budget
 * fails the whole check.
 */
export function checkLockHistory(
  events: readonly LockHistoryEvent[],
  budget: number = DEFAULT_BUDGET,
): LockHistoryResult {
  const perLock = new Map<string, CheckResult>();
  let explored = 0;
  const failures: string[] = [];
  const record = (name: string, result: CheckResult): void => {
    perLock.set(name, result);
    explored += result.explored;
    if (!result.ok)
      failures.push(`lock ${JSON.stringify(name)}: ${result.reason}\n${result.detail}`);
  };
  const { exclusive, kinds } = splitByKind(events);
  const partitions = [...partitionByLock(exclusive)].sort(([a], [b]) =>
    a < b ? -1 : a > b ? 1 : 0,
  );
  for (const [lock, ops] of partitions) record(lock, checkLinearizable(lockModel, ops, budget));
  for (const [group, ops] of [...kindsPartitions(kinds)].sort(([a], [b]) =>
    a < b ? -1 : a > b ? 1 : 0,
  )) {
    const queueSeen = ops.some(
      (op) =>
        op.input.kind === "read" && op.output?.kind === "read" && op.output.waiters !== undefined,
    );
    record(group, checkLinearizable(queueSeen ? kindsModel : kindsModelQueueUnseen, ops, budget));
  }
  return { ok: failures.length === 0, perLock, explored, detail: failures.join("\n\n") };
}

// ---------------------------------------------------------------------------------------
// Lock kinds

type KindsOperation = Operation<KindsInput, LockOutput>;
type LockEvent = Exclude<LockHistoryEvent, { kind: "sessionEnd" }>;

/** Does the event need the kinds' model? */
function usesKinds(e: LockEvent): boolean {
  if (e.kind === "acquire") {
    return (
      e.mode !== undefined ||
      e.permits !== undefined ||
      (e.more !== undefined && e.more.length > 0) ||
      e.waits !== undefined ||
      e.out?.kind === "cancelled"
    );
  }
  return (
    e.kind === "revoke" ||
    (e.kind === "read" && (e.out?.holders !== undefined || e.out?.waiters !== undefined))
  );
}

/** The locks an event names; those of a multi-lock Acquire form one group. */
function locksOf(e: LockEvent): string[] {
  if (e.kind === "revoke") return e.grants.map((g) => g.lock);
  return e.kind === "acquire" ? [e.lock, ...(e.more ?? []).map((t) => t.lock)] : [e.lock];
}

/**
 * The group of each lock: locks named together by a multi-lock request are one group, named
 * by its locks joined with "+"; a lock that any event uses a kind on is in the kinds' model.
 */
function groupsOf(events: readonly LockEvent[]): {
  group: Map<string, string>;
  kinds: Set<string>;
} {
  const parent = new Map<string, string>();
  const find = (x: string): string => {
    let root = x;
    while (parent.get(root) !== undefined && parent.get(root) !== root)
      root = parent.get(root) as string;
    parent.set(x, root);
    return root;
  };
  for (const e of events) {
    for (const lock of locksOf(e)) if (!parent.has(lock)) parent.set(lock, lock);
    if (e.kind !== "acquire") continue;
    const [first, ...rest] = locksOf(e);
    for (const other of rest) {
      if (!parent.has(other)) parent.set(other, other);
      const a = find(first as string);
      const b = find(other);
      if (a !== b) parent.set(b, a);
    }
  }
  const members = new Map<string, string[]>();
  for (const lock of parent.keys()) {
    const root = find(lock);
    members.set(root, [...(members.get(root) ?? []), lock]);
  }
  const group = new Map<string, string>();
  for (const locks of members.values()) {
    const name = locks.sort().join("+");
    for (const lock of locks) group.set(lock, name);
  }
  const kinds = new Set<string>();
  for (const e of events)
    if (usesKinds(e)) for (const lock of locksOf(e)) kinds.add(group.get(lock) as string);
  for (const name of new Set(group.values())) if (name.includes("+")) kinds.add(name);
  return { group, kinds };
}

/** The history for the exclusive lock's model, and the events (with every session end) of groups that use a kind. */
function splitByKind(events: readonly LockHistoryEvent[]): {
  exclusive: LockHistoryEvent[];
  kinds: LockHistoryEvent[];
} {
  const ops = events.filter((e): e is LockEvent => e.kind !== "sessionEnd");
  const { group, kinds: kindGroups } = groupsOf(ops);
  const exclusive: LockHistoryEvent[] = [];
  const kinds: LockHistoryEvent[] = [];
  for (const e of events) {
    if (e.kind === "sessionEnd") {
      exclusive.push(e);
      kinds.push(e);
    } else if (e.kind === "revoke" || kindGroups.has(group.get(e.lock) as string)) kinds.push(e);
    else exclusive.push(e);
  }
  return { exclusive, kinds };
}

function targetsOfEvent(e: AcquireEvent): Target[] {
  const first: LockTarget = {
    lock: e.lock,
    ...(e.mode !== undefined ? { mode: e.mode } : {}),
    ...(e.permits !== undefined ? { permits: e.permits } : {}),
  };
  return [first, ...(e.more ?? [])].map(targetOf);
}

/**
 * The kinds' model's operations of one event. A waiting Acquire is a "join" and a "resolve"
 * over its interval; its join is of unknown outcome when its answer is (or is "cancelled":
 * a CancelWait may have come first, and then the Acquire never joined).
 */
function kindsOperations(e: Exclude<LockEvent, { kind: "revoke" }>): KindsOperation[] {
  if (e.ret === null && e.out !== undefined)
    throw new Error(`event ${e.id}: an output without a return time`);
  if (e.ret !== null && e.out === undefined)
    throw new Error(`event ${e.id}: returned without an output`);
  const base = { call: e.call, ret: e.ret, output: e.out as LockOutput | undefined };
  switch (e.kind) {
    case "acquire": {
      const request = { req: String(e.id), session: e.session, targets: targetsOfEvent(e) };
      if (e.waits === false) return [{ ...base, id: e.id, input: { kind: "try", ...request } }];
      const joinKnown = e.ret !== null && e.out?.kind !== "cancelled";
      const neverGranted = e.out?.kind === "notAcquired" || e.out?.kind === "cancelled";
      const answerUnknown = e.ret === null;
      const flags = {
        ...(neverGranted ? { neverGranted } : {}),
        ...(answerUnknown ? { answerUnknown } : {}),
      };
      return [
        {
          id: `${e.id}:join`,
          call: e.call,
          ret: joinKnown ? e.ret : null,
          input: { kind: "join", ...request, ...flags },
        },
        { ...base, id: `${e.id}:resolve`, input: { kind: "resolve", ...request } },
      ];
    }
    case "release":
      return [
        {
          ...base,
          id: e.id,
          input: { kind: "release", session: e.session, lock: e.lock, token: e.token },
        },
      ];
    case "read":
      return e.ret === null ? [] : [{ ...base, id: e.id, input: { kind: "read", lock: e.lock } }];
    case "validate":
      return e.ret === null
        ? []
        : [{ ...base, id: e.id, input: { kind: "validate", lock: e.lock, token: e.token } }];
  }
}

/** The kinds' model's operations per group, session ends projected into the groups they matter to. */
export function kindsPartitions(
  events: readonly LockHistoryEvent[],
): Map<string, KindsOperation[]> {
  const ops = events.filter((e): e is LockEvent => e.kind !== "sessionEnd");
  const { group } = groupsOf(ops);
  const parts = new Map<string, { ops: KindsOperation[]; sessions: Map<bigint, number> }>();
  const partOf = (name: string): { ops: KindsOperation[]; sessions: Map<bigint, number> } => {
    let part = parts.get(name);
    if (part === undefined) parts.set(name, (part = { ops: [], sessions: new Map() }));
    return part;
  };
  for (const e of ops) {
    if (e.kind === "revoke") {
      // One operation per group: the grants of one entry end in one step of each group's model.
      const byGroup = new Map<string, Array<{ lock: string; session: bigint; token: bigint }>>();
      for (const g of e.grants)
        byGroup.set(group.get(g.lock) as string, [
          ...(byGroup.get(group.get(g.lock) as string) ?? []),
          g,
        ]);
      for (const [name, grants] of byGroup) {
        const part = partOf(name);
        part.ops.push({
          id: `${e.id}:${name}`,
          call: e.call,
          ret: e.ret,
          input: { kind: "revoke", grants },
        });
        for (const g of grants)
          part.sessions.set(
            g.session,
            Math.max(part.sessions.get(g.session) ?? -Infinity, -Infinity),
          );
      }
      continue;
    }
    const part = partOf(group.get(e.lock) as string);
    part.ops.push(...kindsOperations(e));
    const touching: bigint[] = [];
    if (e.kind === "acquire" || e.kind === "release") touching.push(e.session);
    if (e.kind === "acquire" && e.out?.kind === "notAcquired" && e.out.holderSession !== undefined)
      touching.push(e.out.holderSession);
    if (e.kind === "read") {
      if (e.out?.holder != null) touching.push(e.out.holder);
      for (const h of e.out?.holders ?? []) touching.push(h.session);
      for (const w of e.out?.waiters ?? []) touching.push(w);
    }
    for (const s of touching) {
      const acts = (e.kind === "acquire" || e.kind === "release") && e.session === s;
      const lastRet = acts ? (e.ret ?? Infinity) : -Infinity;
      part.sessions.set(s, Math.max(part.sessions.get(s) ?? -Infinity, lastRet));
    }
  }
  const result = new Map<string, KindsOperation[]>();
  for (const [name, part] of parts) {
    const projected: KindsOperation[] = [];
    for (const e of events) {
      if (e.kind !== "sessionEnd") continue;
      const lastRet = part.sessions.get(e.session);
      if (lastRet === undefined) continue;
      projected.push({
        id: e.id,
        call: e.call,
        ret: e.ret,
        input: { kind: "sessionEnd", session: e.session, relevantUntil: lastRet },
      });
    }
    result.set(name, [...part.ops, ...projected]);
  }
  return result;
}
