// Conformance of the shipped state machine to the exactly-once model: random simulations of
// models/exactly-once.pml (`spin -n<seed>`, one APPLY line per log entry) are replayed entry
// by entry on LockStateMachine.apply, and after each entry the model's abstract state (the
// answer, the lock's holder and token, which seqs have a kept answer) is compared with the
// code's. A divergence prints the seed, the entry and both states.
import type { Answer } from "../../node/lock/answers.ts";
import type { Command } from "../../node/lock/commands.ts";
import { LockStateMachine } from "../../node/lock/state-machine.ts";
import type { TraceReplay } from "./trace-runs.ts";

const MODEL = "exactly-once.pml";
const LOCK = "L";
/** Writes per session in the simulations (longer than the exhaustive run's). */
const NSEQ = 3;
/** Answer codes of the model (code * 256 + token). */
const CODES: Record<number, string> = {
  1: "granted",
  2: "notAcquired",
  3: "released",
  4: "ERROR_REASON_NOT_HOLDER",
  5: "ERROR_REASON_STALE_TOKEN",
  6: "ERROR_REASON_REQUEST_TOO_OLD",
};

export interface ApplyStep {
  readonly idx: number;
  readonly session: number;
  readonly acquire: boolean;
  readonly seq: number;
  readonly mark: number;
  readonly releaseToken: number;
  readonly answer: number;
  readonly holders: readonly [boolean, boolean];
  readonly token: number;
  readonly kept: readonly [number, number];
}

const APPLY =
  /APPLY idx=(\d+) s=(\d+) op=(\d+) seq=(\d+) mark=(\d+) rtok=(\d+) ans=(\d+) h=(\d),(\d) tok=(\d+) marks=\d+,\d+ kept=(\d+),(\d+)/;

export function parseTrace(text: string): ApplyStep[] {
  const steps: ApplyStep[] = [];
  for (const line of text.split("\n")) {
    const m = APPLY.exec(line);
    if (!m) continue;
    const n = m.slice(1).map(Number) as number[];
    steps.push({
      idx: n[0]!,
      session: n[1]!,
      acquire: n[2] === 1,
      seq: n[3]!,
      mark: n[4]!,
      releaseToken: n[5]!,
      answer: n[6]!,
      holders: [n[7] === 1, n[8] === 1],
      token: n[9]!,
      kept: [n[10]!, n[11]!],
    });
  }
  return steps;
}

/** The model's name for an answer of the code, with the token of a grant. */
function answerOf(a: Answer): string {
  if (a.kind === "error") return a.reason;
  if (a.kind === "granted") return `granted ${a.token}`;
  return a.kind;
}

function modelAnswer(code: number): string {
  const kind = CODES[Math.floor(code / 256)] ?? `code ${code}`;
  return kind === "granted" ? `granted ${code % 256}` : kind;
}

/** Replays one trace; returns null, or what diverged. */
export function replay(steps: readonly ApplyStep[]): string | null {
  const sm = new LockStateMachine();
  for (const i of [1, 2]) {
    sm.apply(i, {
      type: "openSession",
      requestId: `r${i}`,
      ttlMs: 10_000,
      clientName: `c${i}`,
      wallMs: 0,
    });
  }
  for (const step of steps) {
    const sessionId = BigInt(step.session);
    const write = { sessionId, seq: step.seq, ackedUpTo: step.mark, held: [], wallMs: 0 };
    const cmd: Command = step.acquire
      ? { type: "acquire", ...write, lock: LOCK, waitMs: 0 }
      : { type: "release", ...write, lock: LOCK, token: BigInt(step.releaseToken) };
    const out = sm.apply(step.idx, cmd);
    const holder = sm.getLock(LOCK).holder;
    const code = {
      answer: answerOf(out.result),
      holder: holder ? `${holder.sessionId}@${holder.token}` : "none",
      kept: [1n, 2n].map((s) =>
        Array.from({ length: NSEQ }, (_, k) => (sm.answerFor(s, k + 1) ? 1 << (k + 1) : 0)).reduce(
          (a, b) => a | b,
          0,
        ),
      ),
    };
    const held = step.holders.indexOf(true);
    const model = {
      answer: modelAnswer(step.answer),
      holder: held < 0 ? "none" : `${held + 1}@${step.token}`,
      kept: [...step.kept],
    };
    if (JSON.stringify(code) !== JSON.stringify(model)) {
      return `entry ${step.idx} (${step.acquire ? "acquire" : "release"} s=${step.session} seq=${step.seq} mark=${step.mark}): model ${JSON.stringify(model)}, code ${JSON.stringify(code)}`;
    }
  }
  return null;
}

/** exactly-once.pml replayed on LockStateMachine.apply. */
export const exactlyOnceReplay: TraceReplay<ApplyStep> = {
  model: MODEL,
  on: "LockStateMachine",
  unit: "entries",
  label: "conformance",
  spinArgs: ["-DTRACE", `-DNSEQ=${NSEQ}`, "-DMAXSENDS=5"],
  maxBuffer: 4 * 1024 * 1024,
  parse: parseTrace,
  replay,
};
