// Resource-side fencing: admit an access only if its token is not lower than the highest
// admitted for the resource, record it, and perform the effect, in one atomic step; a
// write that claims a shared grant is refused. fencedFetch stamps a grant's token and mode.
export { FenceRejectedError, SharedWriteError } from "./errors.ts";
export { FenceCounter } from "./counts.ts";
export type { FenceCountsSnapshot, FenceDecision, FenceDecisionListener } from "./counts.ts";
export {
  FENCING_MODE_HEADER,
  FENCING_TOKEN_HEADER,
  MAX_TOKEN,
  checkToken,
  parseToken,
} from "./token.ts";
export {
  admits,
  barFor,
  checkMode,
  fenceModeOf,
  permitResource,
  raisedMarks,
  raises,
  refuseSharedWrite,
} from "./types.ts";
export type {
  Access,
  FenceGrant,
  FenceMarks,
  FenceMode,
  FenceOptions,
  GuardOptions,
} from "./types.ts";
export { KeyedMutex } from "./keyed-mutex.ts";
export { KvFence } from "./kv-fence.ts";
export type { KvBackend, KvOp, KvTokenRecord, KvTx } from "./kv-fence.ts";
export { MemoryFence } from "./memory.ts";
export { LevelFence } from "./level.ts";
export type { LevelFenceOptions } from "./level.ts";
export { PgFence, fenceSql } from "./postgres.ts";
export type { FenceSql, PgFenceOptions } from "./postgres.ts";
export {
  FencingTokenHeaderError,
  MemoryTokenRecords,
  fenceDone,
  fenceMiddleware,
  fencedFetch,
  fencedHandler,
  fencingTokenOf,
  modeFromHeaders,
  statusOf,
  tokenFromHeaders,
} from "./http.ts";
export type {
  FenceMiddleware,
  FenceMiddlewareOptions,
  NextFunction,
  TokenRecords,
} from "./http.ts";
