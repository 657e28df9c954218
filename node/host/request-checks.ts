// The checks of a client's write against the cluster's replicated limits of the moment,
// each naming the field it is about. The codec (proto/codec) checked every field on its
// own; these add what depends on the limits, before anything is proposed, and the state
// machine checks the command again at apply and decides by it.
import type {
  AcquireRequest,
  ProclaimRequest,
  SequencedRequest,
  UpgradeRequest,
} from "../../proto/lock-values.ts";
import { utf8Length } from "../../proto/names.ts";
import {
  checkHoldMs,
  checkSequenced,
  checkTtl,
  checkWaitMs,
  type LockLimits,
  type LockTarget,
} from "../lock/index.ts";
import { RequestFailure } from "./failures.ts";

function ensure(problem: string | null): void {
  if (problem !== null) throw new RequestFailure("ERROR_REASON_INVALID_ARGUMENT", problem);
}

/** An OpenSession's TTL (0 already replaced by the default). */
export function checkOpenSession(ttlMs: number, limits: LockLimits): void {
  ensure(checkTtl(ttlMs, limits));
}

export function checkWrite(req: SequencedRequest, limits: LockLimits): void {
  if (req.held.length > limits.maxHeldList)
    ensure(`held lists ${req.held.length} seqs; at most ${limits.maxHeldList} are allowed`);
  ensure(checkSequenced(req, limits));
}

/** A semaphore's permit count; `prefix` names the entry ("" for the request's own lock). */
function checkPermits(t: Pick<LockTarget, "permits">, prefix: string, limits: LockLimits): void {
  if (t.permits !== undefined && (t.permits < 1 || t.permits > limits.maxPermits)) {
    ensure(`${prefix}permits: ${t.permits} is outside 1..${limits.maxPermits}`);
  }
}

/** A Proclaim: the write, and its value's size as holder data's. */
export function checkProclaim(req: ProclaimRequest, limits: LockLimits): void {
  checkWrite(req, limits);
  const bytes = utf8Length(req.value);
  if (bytes > limits.maxHolderDataBytes)
    ensure(`value: ${bytes} bytes, more than ${limits.maxHolderDataBytes}`);
}

/** An Upgrade: the write and its wait. */
export function checkUpgrade(req: UpgradeRequest, limits: LockLimits): void {
  checkWrite(req, limits);
  ensure(checkWaitMs(req.waitMs, limits));
}

export function checkAcquire(req: AcquireRequest, limits: LockLimits): void {
  checkWrite(req, limits);
  ensure(checkWaitMs(req.waitMs, limits));
  checkPermits(req, "", limits);
  const more = req.more ?? [];
  if (more.length + 1 > limits.maxLocksPerAcquire) {
    ensure(
      `more_locks: ${more.length + 1} locks in one Acquire, more than ${limits.maxLocksPerAcquire}`,
    );
  }
  more.forEach((t, i) => checkPermits(t, `more_locks[${i}].`, limits));
  const dataBytes = utf8Length(req.holderData ?? "");
  if (dataBytes > limits.maxHolderDataBytes)
    ensure(`holder_data: ${dataBytes} bytes, more than ${limits.maxHolderDataBytes}`);
  if (checkHoldMs(req.holdMs, limits) !== null) {
    ensure(
      `hold_ms: ${req.holdMs} is outside ${limits.minHoldMs}..${limits.maxHoldMs} (0: no hold limit)`,
    );
  }
}
