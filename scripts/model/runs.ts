// The model runs of `npm run model`: every model clean (no property may fail) and each mutant
// (a #define in the model) with the one property it must fail.

export interface ModelRun {
  /** File under models/. */
  readonly model: string;
  /** The #define that plants the mutant; absent: the model as it is. */
  readonly mutant?: string;
  /** The property the mutant must violate. */
  readonly fails?: string;
}

export const RUNS: readonly ModelRun[] = [
  { model: "session.pml" },
  { model: "session.pml", mutant: "KA_EARLY", fails: "ka_after_end" },
  { model: "session.pml", mutant: "STALL_RESTART", fails: "release_bound" },
  { model: "session.pml", mutant: "NO_DRIFT_MARGIN", fails: "no_stale_act" },
  { model: "exactly-once.pml" },
  { model: "exactly-once.pml", mutant: "RELEASE_COUNTED", fails: "no_orphan" },
  { model: "exactly-once.pml", mutant: "NO_DEDUP", fails: "at_most_once" },
  { model: "fence.pml" },
  { model: "fence.pml", mutant: "HTTP_FREE_ON_DISCONNECT", fails: "no_lost_write" },
  { model: "fence.pml", mutant: "SHARED_AFTER_EXCL", fails: "fence_order" },
  { model: "fence.pml", mutant: "TRUST_MODE", fails: "fence_order" },
  { model: "restore.pml" },
  { model: "restore.pml", mutant: "SESSION_ID_NO_EPOCH", fails: "ids_unique" },
  { model: "handoff.pml" },
  { model: "handoff.pml", mutant: "CANCEL_REFUSED_FINAL", fails: "no_orphan" },
];
