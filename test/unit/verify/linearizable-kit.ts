// Assertions shared by the linearizability checker's tests.
import { expect } from "vitest";
import {
  checkLockHistory,
  type LockHistoryEvent,
  type LockHistoryResult,
} from "../../../verify/lock-history.ts";

/** The history is linearizable (and the checker says nothing against it). */
export function expectLinearizable(events: LockHistoryEvent[]): LockHistoryResult {
  const result = checkLockHistory(events);
  expect(result.detail).toBe("");
  expect(result.ok).toBe(true);
  return result;
}

/** The history is not linearizable, and every lock that fails fails for that reason. */
export function expectNotLinearizable(events: LockHistoryEvent[]): LockHistoryResult {
  const result = checkLockHistory(events);
  expect(result.ok).toBe(false);
  const failed = [...result.perLock.values()].filter((r) => !r.ok);
  expect(failed.length).toBeGreaterThan(0);
  for (const r of failed) expect(!r.ok && r.reason).toBe("not linearizable");
  return result;
}
