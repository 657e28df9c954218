// The benchmark's backends by name (the harness's --backend).
import type { BackendOptions, LockBackend } from "./backend.ts";
import { openEtcdLockApi } from "./etcd-lock-api.ts";
import { openPalisade } from "./palisade.ts";
import { openRedisSingle } from "./redis-single.ts";
import { openRedlock } from "./redlock.ts";

export const BACKENDS = {
  palisade: openPalisade,
  "etcd-lockapi": openEtcdLockApi,
  "redis-single": openRedisSingle,
  redlock: openRedlock,
} as const satisfies Record<
  string,
  (options: BackendOptions) => Promise<LockBackend<unknown, unknown>>
>;

export type BackendName = keyof typeof BACKENDS;

export const isBackendName = (name: string): name is BackendName => Object.hasOwn(BACKENDS, name);
