// A client of the lock state machine for unit tests: a session numbering its writes on a
// LogRunner, with one method per request (locks in either mode, semaphore permits, sets).
import type {
  AcquireAnswer,
  GrantMode,
  LockGrantInfo,
  LockHolderInfo,
} from "../../../proto/lock-values.ts";
import type { Answer } from "../../../node/lock/answers.ts";
import type { AcquireCommand, LockTarget } from "../../../node/lock/commands.ts";
import type { LockLimits } from "../../../node/lock/limits.ts";
import { LogRunner } from "../../lock/log-runner.ts";
import type { ApplyOutcome } from "../../../node/lock/outcome.ts";
import { LockStateMachine } from "../../../node/lock/state-machine.ts";
import { tokenIndex } from "../../../node/lock/tokens.ts";

let requestCounter = 0;

export function setup(limits: Partial<LockLimits> = {}, epoch = 0): LogRunner {
  return new LogRunner(new LockStateMachine(limits, { epoch }));
}

export function bigintSafe(_key: string, value: unknown): unknown {
  return typeof value === "bigint" ? value.toString() : value;
}

export function tokenOf(answer: Answer): bigint {
  if (answer.kind !== "granted")
    throw new Error(`expected a grant, got ${JSON.stringify(answer, bigintSafe)}`);
  return answer.token;
}

/** A session numbering its writes; it acknowledges nothing unless told to. */
export class Client {
  readonly id: bigint;
  seq = 0;

  constructor(
    private readonly runner: LogRunner,
    readonly name = "client",
    ttlMs = 10_000,
    requestId = `kit-${++requestCounter}`,
  ) {
    const out = runner.run({ type: "openSession", requestId, ttlMs, clientName: name, wallMs: 0 });
    if (out.result.kind !== "sessionOpened")
      throw new Error(`open failed: ${JSON.stringify(out.result, bigintSafe)}`);
    this.id = out.result.sessionId;
  }

  /** The Acquire this client would send next (its seq is not used up). */
  acquireCommand(lock: string, waitMs = 0, extra: Partial<AcquireCommand> = {}): AcquireCommand {
    return {
      type: "acquire",
      sessionId: this.id,
      lock,
      waitMs,
      seq: this.seq + 1,
      ackedUpTo: 0,
      held: [],
      wallMs: 0,
      ...extra,
    };
  }

  acquire(lock: string, waitMs = 0, extra: Partial<AcquireCommand> = {}): ApplyOutcome {
    const cmd = this.acquireCommand(lock, waitMs, extra);
    this.seq = cmd.seq;
    return this.runner.run(cmd);
  }

  shared(lock: string, waitMs = 0, extra: Partial<AcquireCommand> = {}): ApplyOutcome {
    return this.acquire(lock, waitMs, { mode: "shared", ...extra });
  }

  exclusive(lock: string, waitMs = 0, extra: Partial<AcquireCommand> = {}): ApplyOutcome {
    return this.acquire(lock, waitMs, { mode: "exclusive", ...extra });
  }

  permit(
    semaphore: string,
    permits: number,
    waitMs = 0,
    extra: Partial<AcquireCommand> = {},
  ): ApplyOutcome {
    return this.acquire(semaphore, waitMs, { permits, ...extra });
  }

  /** One Acquire of every target, all at one index or none. */
  all(
    targets: readonly LockTarget[],
    waitMs = 0,
    extra: Partial<AcquireCommand> = {},
  ): ApplyOutcome {
    const [first, ...more] = targets;
    if (!first) throw new Error("no targets");
    const head: Partial<AcquireCommand> = {};
    if (first.mode !== undefined) Object.assign(head, { mode: first.mode });
    if (first.permits !== undefined) Object.assign(head, { permits: first.permits });
    return this.acquire(first.lock, waitMs, { ...head, more, ...extra });
  }

  release(lock: string, token: bigint): ApplyOutcome {
    return this.runner.run({
      type: "release",
      sessionId: this.id,
      lock,
      token,
      seq: ++this.seq,
      ackedUpTo: 0,
      held: [],
      wallMs: 0,
    });
  }

  close(): ApplyOutcome {
    return this.runner.run({
      type: "closeSession",
      sessionId: this.id,
      seq: ++this.seq,
      ackedUpTo: 0,
      held: [],
      wallMs: 0,
    });
  }

  upgradeable(lock: string, waitMs = 0, extra: Partial<AcquireCommand> = {}): ApplyOutcome {
    return this.acquire(lock, waitMs, { mode: "upgradeable", ...extra });
  }

  /** Upgrade of this session's upgradeable grant `token` of `lock`. */
  upgrade(lock: string, token: bigint, waitMs = 0, seq = ++this.seq): ApplyOutcome {
    return this.runner.run({
      type: "upgrade",
      sessionId: this.id,
      lock,
      token,
      waitMs,
      seq,
      ackedUpTo: 0,
      held: [],
      wallMs: 0,
    });
  }

  downgrade(lock: string, token: bigint, mode: "shared" | "upgradeable"): ApplyOutcome {
    return this.runner.run({
      type: "downgrade",
      sessionId: this.id,
      lock,
      token,
      mode,
      seq: ++this.seq,
      ackedUpTo: 0,
      held: [],
      wallMs: 0,
    });
  }

  cancel(lock: string, acquireSeq: number, reason: "client" | "timeout" = "client"): ApplyOutcome {
    return this.runner.run({
      type: "cancelWait",
      sessionId: this.id,
      lock,
      acquireSeq,
      reason,
      wallMs: 0,
    });
  }

  expire(): ApplyOutcome {
    return this.runner.run({ type: "expireSession", sessionId: this.id, wallMs: 0 });
  }
}

/** Each session's grants of an entry's "acquired" events, as [session, lock, token]. */
export function grantsIn(out: ApplyOutcome): Array<[bigint, string, bigint]> {
  return out.events.filter((e) => e.type === "acquired").map((e) => [e.sessionId, e.lock, e.token]);
}

/** A grant's holder as an answer names it: granted at `at`, by default the token's index. */
export function heldBy(client: Client, token: bigint, at = tokenIndex(token)): LockHolderInfo {
  return { sessionId: client.id, clientName: client.name, token, grantedIndex: BigInt(at) };
}

/** The answer of a grant of one lock (exclusive unless `mode` says otherwise). */
export function granted(
  client: Client,
  lock: string,
  token: bigint,
  mode: GrantMode = "exclusive",
  at = tokenIndex(token),
): AcquireAnswer {
  return {
    kind: "granted",
    token,
    holder: heldBy(client, token, at),
    grants: [{ lock, token, mode }],
  };
}

/** The answer of a grant of one permit of semaphore `semaphore` in `slot`. */
export function permitGranted(
  client: Client,
  semaphore: string,
  permits: number,
  slot: number,
  token: bigint,
): AcquireAnswer {
  return grantedAll(client, token, [{ lock: semaphore, token, mode: "permit", permits, slot }]);
}

/** The slot of a granted permit (the first lock's grant). */
export function slotOf(answer: Answer): number | undefined {
  if (answer.kind !== "granted")
    throw new Error(`expected a grant, got ${JSON.stringify(answer, bigintSafe)}`);
  return answer.grants[0]?.slot;
}

/** The answer of a grant of several locks at once, `token` of the first. */
export function grantedAll(
  client: Client,
  token: bigint,
  grants: readonly LockGrantInfo[],
  at = tokenIndex(token),
): AcquireAnswer {
  return { kind: "granted", token, holder: heldBy(client, token, at), grants };
}

/** Not acquired: `holder` held the lock with `token` (or only a queue kept it out). */
export function notAcquired(
  holder: Client | null,
  token = 0n,
  blockedLock?: string,
): AcquireAnswer {
  return {
    kind: "notAcquired",
    holder: holder === null ? null : heldBy(holder, token),
    ...(blockedLock !== undefined ? { blockedLock } : {}),
  };
}
