// What every fence adapter shares: the kind of access and the admission rule.
import type { FenceCounter } from "./counts.ts";

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

export interface GuardOptions {
  /** Default "write". */
  access?: Access;
}

/** A token is admitted if no higher one has been admitted (equal tokens come from one grant). */
export function admits(highest: bigint | undefined, token: bigint): boolean {
  return highest === undefined || token >= highest;
}

/** Whether an admitted access records its token. */
export function raises(access: Access, readsRaise: boolean): boolean {
  return access === "write" || readsRaise;
}
