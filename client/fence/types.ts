// What every fence adapter shares: the kind of access, the admission rule, and the rule
// that shared grants only read.
import type { FenceCounter } from "./counts.ts";
import { SharedWriteError } from "./errors.ts";

/** A read or a write of the guarded resource. Both raise the fence unless `readsRaise` is off. */
export type Access = "read" | "write";

export interface FenceOptions {
  /**
   * Whether an admitted read records its token (default true). With false only writes
   * raise the fence, and a read-modify-write can lose an update: the new holder reads,
   * the former holder's older write still lands, the new holder writes over it. Turn it
   * off only to demonstrate that.
   */
  readsRaise?: boolean;
  /** Where admitted and rejected accesses are counted (default: a counter of the fence's own); share one to count several fences together. */
  counter?: FenceCounter;
}

/**
 * The mode of the grant behind an access. "exclusive" (default; also a semaphore permit,
 * guarded per (semaphore, slot)): admitted iff its token is at least the highest token of
 * either mode admitted. "shared": admitted iff its token is at least the highest exclusive
 * token admitted, so concurrent readers never refuse one another, while a reader older
 * than a later writer, and a writer older than later readers, are refused. Shared is for
 * reads only: a write that claims it is refused (SharedWriteError), whatever its token.
 */
export type FenceMode = "exclusive" | "shared";

export interface GuardOptions {
  /** Default "write". */
  access?: Access;
  /** The grant's lock mode (default "exclusive"). A "shared" access may only read. */
  mode?: FenceMode;
}

/**
 * What a client-side helper needs of a grant: a LockHandle, a LockGrantInfo, or the
 * token and mode of an Acquire's result. The helper takes the mode from here, never from
 * an argument of its own, so an access cannot claim a mode its grant does not have.
 */
export interface FenceGrant {
  readonly token: bigint;
  /**
   * Default "exclusive"; a semaphore's "permit" and an election's "leader" are fenced as
   * exclusive (a permit per (semaphore, slot)), an "upgradeable" grant as shared: it reads
   * until it is upgraded, and the upgrade's exclusive grant has a token of its own.
   */
  readonly mode?: "exclusive" | "shared" | "upgradeable" | "permit" | "leader" | undefined;
}

/** The fence mode of a grant's accesses: shared for a shared or upgradeable grant, exclusive for any other. */
export function fenceModeOf(grant: FenceGrant): FenceMode {
  return grant.mode === "shared" || grant.mode === "upgradeable" ? "shared" : "exclusive";
}

/** Throws SharedWriteError for a write in shared mode: the shared rule would admit a stale exclusive holder's write once only readers came after it. */
export function refuseSharedWrite(
  resource: string,
  token: bigint,
  access: Access,
  mode: FenceMode,
): void {
  if (access === "write" && mode === "shared") throw new SharedWriteError(resource, token);
}

/** What a fence keeps per resource: the highest token admitted in any mode, and the highest exclusive one. */
export interface FenceMarks {
  readonly highest: bigint | undefined;
  /** Undefined when no exclusive token was admitted. */
  readonly exclusive: bigint | undefined;
}

/** A token is admitted if no higher one has been admitted (equal tokens come from one grant). */
export function admits(highest: bigint | undefined, token: bigint): boolean {
  return highest === undefined || token >= highest;
}

/** The mark an access in `mode` must reach: the highest token of any mode, or for a shared access the highest exclusive one. */
export function barFor(mode: FenceMode, marks: FenceMarks): bigint | undefined {
  return mode === "shared" ? marks.exclusive : marks.highest;
}

/** The marks after admitting `token` in `mode` (an exclusive access raises both, a shared one only the highest). */
export function raisedMarks(mode: FenceMode, marks: FenceMarks, token: bigint): FenceMarks {
  if (mode === "exclusive") return { highest: token, exclusive: token };
  const highest = marks.highest === undefined || token > marks.highest ? token : marks.highest;
  return { highest, exclusive: marks.exclusive };
}

/** Throws unless `mode` is a FenceMode (a mode the fence does not know must not pass as exclusive). */
export function checkMode(mode: unknown): FenceMode {
  if (mode === undefined) return "exclusive";
  if (mode !== "exclusive" && mode !== "shared")
    throw new RangeError(`fence mode ${JSON.stringify(mode)} is not "exclusive" or "shared"`);
  return mode;
}

/**
 * The resource name of one permit slot of a semaphore: fence each slot on its own, since
 * the holders of different slots hold at once and their tokens are not ordered.
 */
export function permitResource(semaphore: string, slot: number): string {
  if (!Number.isSafeInteger(slot) || slot < 0)
    throw new RangeError(`permit slot ${slot} is not a non-negative integer`);
  return `${semaphore}#slot/${slot}`;
}

/** Whether an admitted access records its token. */
export function raises(access: Access, readsRaise: boolean): boolean {
  return access === "write" || readsRaise;
}
