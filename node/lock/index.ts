// The lock state machine and its leader-side timers.
export * from "./answers.ts";
export * from "./commands.ts";
export * from "./codec/entries.ts";
export { describeTarget, lockTargetOf, targetsOf, type GrantMode, type Target } from "./kinds.ts";
export * from "./lease-keeper.ts";
export * from "./limits.ts";
export * from "./outcome.ts";
export { SnapshotError } from "./codec/snapshot.ts";
export * from "./state-machine.ts";
export type { EndReason } from "./state.ts";
export * from "./tokens.ts";
export * from "./validate.ts";
