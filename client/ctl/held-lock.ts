// A lock `acquire --hold` holds until Ctrl-C, the --hold time or the grant's loss, and what
// the lines of its standard input do to it meanwhile (hold-input.ts): an upgrade or a
// downgrade makes a new grant, with its own token, mode and hold limit start; `release`
// ends the hold. The lines are carried out one after the other; each upgrade and downgrade
// prints the grant held after it.
import type { Session } from "../session.ts";
import type { GrantMode, HoldLimitDeadline } from "../types.ts";
import type { Output } from "./context.ts";
import { toJson } from "./format.ts";
import { CANCEL_BOUND_MS, holdUntil } from "./hold.ts";
import {
  MAX_LINE_CHARS,
  parseHoldLine,
  readHoldLines,
  type HoldInput,
  type HoldLine,
} from "./hold-input.ts";

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** The grant held now. */
export interface HeldGrant {
  readonly token: bigint;
  readonly mode: GrantMode;
  /** Its hold limit, counted from the request that made this grant. */
  readonly hold?: HoldLimitDeadline | undefined;
}

/**
 * A signal that aborts with the session, or once the grant's hold limit may have passed
 * (before the leader's revoke); a new grant's limit replaces the old one.
 */
class GrantWatch {
  private readonly controller = new AbortController();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly onSession = (): void => this.controller.abort(this.session.signal.reason);

  constructor(
    private readonly session: Session,
    hold: HoldLimitDeadline | undefined,
  ) {
    if (session.signal.aborted) this.onSession();
    else session.signal.addEventListener("abort", this.onSession, { once: true });
    this.follow(hold);
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Watches `hold` (a new grant's limit) instead of the one before. */
  follow(hold: HoldLimitDeadline | undefined): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (hold === undefined) return;
    const check = (): void => {
      const left = this.session.holdTimeLeftMs(hold);
      if (left > 0) this.timer = setTimeout(check, left);
      else this.controller.abort(new Error("the grant's hold limit passed"));
    };
    check();
  }

  stop(): void {
    clearTimeout(this.timer);
    this.session.signal.removeEventListener("abort", this.onSession);
  }
}

export interface HoldSpec {
  readonly session: Session;
  readonly lock: string;
  readonly grant: HeldGrant;
  /** --hold's duration; absent: until Ctrl-C. */
  readonly holdMs?: number | undefined;
  /** How long an `upgrade` line without a duration waits (the verb's --wait). */
  readonly upgradeWaitMs: number;
  readonly json: boolean;
  /** Where the lines come from; absent: none are read (a set of locks, a permit). */
  readonly input?: HoldInput | undefined;
}

/** How a hold ended, and the grant held then (the one to release). */
export interface HoldEnd {
  readonly why: "lost" | "interrupted" | "elapsed" | "released";
  readonly grant: HeldGrant;
  /** With "lost": why the grant can no longer be trusted. */
  readonly lostReason?: string;
}

/** Holds the lock as `held` says, carrying out the lines of its input meanwhile. */
export async function holdLock(io: Output, held: HoldSpec): Promise<HoldEnd> {
  let grant = held.grant;
  const watch = new GrantWatch(held.session, grant.hold);
  const released = new AbortController();
  // Aborted when the hold ends: an upgrade that still waits gives up.
  const ending = new AbortController();
  let queue: Promise<void> = Promise.resolve();
  const onLine = (text: string): void => {
    let line: HoldLine | null;
    try {
      line = parseHoldLine(text);
    } catch (err) {
      io.err(`error: ${(err as Error).message}`);
      return;
    }
    if (line === null || released.signal.aborted) return;
    if (line.verb === "release") {
      released.abort();
      return;
    }
    const next = line;
    queue = queue.then(async () => {
      if (ending.signal.aborted) return;
      grant = await carryOut(io, held, grant, next, ending.signal);
      watch.follow(grant.hold);
    });
  };
  const stopReading = held.input
    ? readHoldLines(held.input, onLine, () =>
        io.err(`error: a line longer than ${MAX_LINE_CHARS} characters is skipped`),
      )
    : () => undefined;
  try {
    const why = await holdUntil(watch.signal, held.holdMs, released.signal);
    stopReading();
    ending.abort();
    // An upgrade given up is settled with the cluster first, so the grant to release is known.
    await Promise.race([queue, sleep(CANCEL_BOUND_MS)]);
    const reason = (watch.signal.reason as Error | undefined)?.message ?? "session lost";
    return { why, grant, ...(why === "lost" ? { lostReason: reason } : {}) };
  } finally {
    stopReading();
    watch.stop();
  }
}

/** One upgrade or downgrade: the grant held after it (the same one when it was not done). */
async function carryOut(
  io: Output,
  held: HoldSpec,
  grant: HeldGrant,
  line: Exclude<HoldLine, { verb: "release" }>,
  ending: AbortSignal,
): Promise<HeldGrant> {
  const { session, lock } = held;
  const done = line.verb === "upgrade" ? "upgraded" : "downgraded";
  const say = (now: HeldGrant, changed: boolean): void => {
    if (held.json) io.out(toJson({ lock, token: now.token, mode: now.mode, [done]: changed }));
    else io.out(`${now.token} ${now.mode}`);
  };
  const refuse = (why: string): HeldGrant => {
    io.err(`not ${done}: ${why}; still held ${grant.mode}, token ${grant.token}`);
    say(grant, false);
    return grant;
  };
  const wanted = line.verb === "upgrade" ? "upgradeable" : "exclusive";
  if (grant.mode !== wanted)
    return refuse(`the lock is held ${grant.mode}, and only ${wanted} grants are ${done}`);
  try {
    const change =
      line.verb === "upgrade"
        ? await session.upgrade(lock, grant.token, {
            waitMs: line.waitMs ?? held.upgradeWaitMs,
            signal: ending,
          })
        : await session.downgrade(lock, grant.token, line.mode);
    if (change === null) {
      if (ending.aborted) return grant;
      const waitMs = line.verb === "upgrade" ? (line.waitMs ?? held.upgradeWaitMs) : 0;
      return refuse(
        waitMs === 0
          ? "other holders hold the lock too"
          : `other holders did not leave within ${waitMs} ms`,
      );
    }
    const next: HeldGrant = {
      token: change.token,
      mode: change.mode,
      ...(grant.hold ? { hold: { sentAt: change.sentAt, budgetMs: grant.hold.budgetMs } } : {}),
    };
    // An upgrade granted as the hold was ending was downgraded back: hold (and release) that.
    if (line.verb === "upgrade" && change.mode !== "exclusive") return next;
    say(next, true);
    return next;
  } catch (err) {
    // A lost session ends the hold, which says so.
    if (!session.live) return grant;
    return refuse(`${(err as Error).name}: ${(err as Error).message}`);
  }
}
