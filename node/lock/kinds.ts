// The kinds of lock an Acquire may ask for: a lock taken exclusive or shared, or one permit
// of a counted semaphore; several of them at once make an atomic multi-lock request. A
// Campaign asks for an election's lead: a grant of mode "leader", exclusive in all but name.
import type { GrantMode, LockMode, LockTarget } from "../../proto/lock-values.ts";

export type { DowngradeMode, GrantMode, LockMode, LockTarget } from "../../proto/lock-values.ts";

/** A target with every choice made, as the state machine keeps it. */
export interface Target {
  readonly lock: string;
  readonly mode: GrantMode;
  /** The semaphore's permit count; 0 for a lock. */
  readonly permits: number;
}

export const LOCK_MODES: readonly LockMode[] = ["exclusive", "shared", "upgradeable"];

export function targetOf(t: LockTarget): Target {
  if (t.permits !== undefined) return { lock: t.lock, mode: "permit", permits: t.permits };
  return { lock: t.lock, mode: t.mode ?? "exclusive", permits: 0 };
}

/** What of an Acquire names its locks: its first target's fields, then `more`. */
export interface AcquireTargets {
  readonly lock: string;
  readonly mode?: LockMode | "leader";
  readonly permits?: number;
  readonly more?: readonly LockTarget[];
}

/** Every lock an Acquire asks for, its `lock` first (validated commands only). */
export function targetsOf(cmd: AcquireTargets): Target[] {
  // A Campaign names its election alone.
  if (cmd.mode === "leader") return [{ lock: cmd.lock, mode: "leader", permits: 0 }];
  const first = targetOf({
    lock: cmd.lock,
    ...(cmd.mode !== undefined ? { mode: cmd.mode } : {}),
    ...(cmd.permits !== undefined ? { permits: cmd.permits } : {}),
  });
  if (cmd.more === undefined || cmd.more.length === 0) return [first];
  return [first, ...cmd.more.map(targetOf)];
}

/** A target as a client names it: exclusive is the default and is left out. */
export function lockTargetOf(t: Target): LockTarget {
  if (t.mode === "permit") return { lock: t.lock, permits: t.permits };
  // An election is never part of a set: its one target is named by the wait itself.
  if (t.mode === "leader") return { lock: t.lock };
  return t.mode === "exclusive" ? { lock: t.lock } : { lock: t.lock, mode: t.mode };
}

export function sameTargets(a: readonly Target[], b: readonly Target[]): boolean {
  return (
    a.length === b.length &&
    a.every((t, i) => {
      const u = b[i] as Target;
      return t.lock === u.lock && t.mode === u.mode && t.permits === u.permits;
    })
  );
}

/** "lock L", "lock L (shared)", "semaphore S of 3 permits", for messages. */
export function describeTarget(t: Target): string {
  if (t.mode === "permit") return `semaphore ${t.lock} of ${t.permits} permits`;
  if (t.mode === "leader") return `election ${t.lock}`;
  return t.mode === "exclusive" ? `lock ${t.lock}` : `lock ${t.lock} (${t.mode})`;
}
