// What a workload records for the linearizability checker, from what the lock service
// answered: the history fields of an Acquire (its kind, whether it waits) and the outcomes of
// answers and GetLock reads, for every lock kind. A workload builds its LockHistoryEvents
// with these so that the checker sees every kind the same way the state machine answers it.
import { status as Status } from "@grpc/grpc-js";
import { WIRE_ERRORS } from "../../../proto/wire.ts";
import type { Answer, ErrorAnswer } from "../../../node/lock/answers.ts";
import type { AcquireCommand } from "../../../node/lock/commands.ts";
import type { ApplyOutcome } from "../../../node/lock/outcome.ts";
import type { LockInfo } from "../../../node/lock/state-machine.ts";
import type { AcquireEvent } from "../../../verify/lock-history.ts";
import type {
  AcquireOutcome,
  HolderOutcome,
  ReadOutcome,
  ReleaseOutcome,
} from "../../../verify/lock-model.ts";

/**
 * The kind fields of an Acquire's history event. With `fifo`, every Acquire of the locks
 * it names is checked against the FIFO rules (the workload must then record every Acquire
 * of those locks, a cancelled one with the outcome "cancelled").
 */
export function acquireEventFields(
  cmd: AcquireCommand,
  fifo: boolean,
): Pick<AcquireEvent, "lock" | "mode" | "permits" | "more" | "waits"> {
  return {
    lock: cmd.lock,
    ...(cmd.mode === "shared" ? { mode: "shared" as const } : {}),
    ...(cmd.permits !== undefined ? { permits: cmd.permits } : {}),
    ...(cmd.more !== undefined && cmd.more.length > 0 ? { more: cmd.more } : {}),
    ...(fifo ? { waits: cmd.waitMs > 0 } : {}),
  };
}

/**
 * The outcome of an Acquire's final answer, or null for an answer that says nothing of its
 * effect (an error other than NOT_FOUND, "waiting"). `cancelled`: keep a cancelled Acquire
 * (the kinds' FIFO rules need it); otherwise it is null, as for the exclusive lock's model.
 */
export function acquireOutcomeOf(a: Answer, cancelled = false): AcquireOutcome | null {
  switch (a.kind) {
    case "granted": {
      // A single lock's grant says its slot; a set's, every lock's grant.
      const single = a.grants.length === 1 ? a.grants[0] : undefined;
      return {
        kind: "granted",
        token: a.token,
        ...(single?.mode === "permit" ? { slot: single.slot ?? 0 } : {}),
        ...(single === undefined
          ? {
              grants: a.grants.map((g) => ({
                lock: g.lock,
                token: g.token,
                ...(g.mode === "permit" ? { slot: g.slot ?? 0 } : {}),
              })),
            }
          : {}),
      };
    }
    case "notAcquired":
      return {
        kind: "notAcquired",
        ...(a.holder !== null
          ? { holderSession: a.holder.sessionId, holderToken: a.holder.token }
          : {}),
        ...(a.blockedLock !== undefined ? { lock: a.blockedLock } : {}),
      };
    case "cancelled":
      return cancelled ? { kind: "cancelled" } : null;
    case "error":
      return codeOf(a) === Status.NOT_FOUND ? { kind: "sessionNotFound" } : null;
    default:
      return null;
  }
}

/** The status code an error answer travels with. */
export function codeOf(a: ErrorAnswer): Status {
  return WIRE_ERRORS[a.reason].code;
}

/** The outcome of a Release's answer, or null when it says nothing of its effect. */
export function releaseOutcomeOf(a: Answer): ReleaseOutcome | null {
  if (a.kind === "released") return { kind: "ok" };
  if (a.kind !== "error") return null;
  if (codeOf(a) === Status.NOT_FOUND) return { kind: "sessionNotFound" };
  return codeOf(a) === Status.FAILED_PRECONDITION && a.reason !== "ERROR_REASON_REQUEST_TOO_OLD"
    ? { kind: "failedPrecondition" }
    : null;
}

/** A GetLock answer as a read outcome; `full`: with every holder and the queue (for the kinds' model). */
export function readOutcomeOf(info: LockInfo, full: boolean): ReadOutcome {
  const base: ReadOutcome = {
    kind: "read",
    holder: info.holder?.sessionId ?? null,
    token: info.holder?.token ?? null,
  };
  if (!full) return base;
  const holders: HolderOutcome[] = (info.holders ?? (info.holder ? [info.holder] : [])).map(
    (h) => ({
      session: h.sessionId,
      token: h.token,
      ...(h.mode === "shared" || h.mode === "permit" ? { mode: h.mode } : {}),
      ...(h.slot !== undefined ? { slot: h.slot } : {}),
    }),
  );
  return { ...base, holders, waiters: info.waiters.map((w) => w.sessionId) };
}

/**
 * The grants a committed entry ended without their clients (RevokeLock, a hold limit), in
 * the order it ended them: the `grants` of a "revoke" history event for that entry.
 */
export function revokedGrantsOf(
  o: ApplyOutcome,
): Array<{ lock: string; session: bigint; token: bigint }> {
  return o.events
    .filter((e) => e.type === "revoked")
    .map((e) => ({ lock: e.lock, session: e.sessionId, token: e.token }));
}
