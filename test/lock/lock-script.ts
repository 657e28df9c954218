// The environment of the lock state machine's golden scripts: one LockStateMachine fed
// commands at consecutive log indexes, as a committed log would, with named sessions that
// number their writes. Each command prints what its entry produced: the answer, the
// answers of earlier waits it decided, the lock events and the leader's timer changes, so a
// change in the state machine's behaviour is a diff of the scripts. `snapshot` encodes the
// state, restores it into a new machine, checks the copy encodes to the same bytes and goes
// on with the copy.
import type { Arg, Command } from "../raft/datadriven.ts";
import { ScriptError } from "../raft/datadriven.ts";
import type {
  AcquireCommand,
  Command as LockCommand,
  LockTarget,
} from "../../node/lock/commands.ts";
import { LIMIT_KEYS, type LockLimits } from "../../node/lock/limits.ts";
import type { ApplyOutcome } from "../../node/lock/outcome.ts";
import { LockStateMachine } from "../../node/lock/state-machine.ts";

interface ScriptSession {
  readonly id: bigint;
  /** The seq of this session's last numbered write. */
  seq: number;
}

/** Reads a command's arguments; each must be used once, so a misspelt one fails the script. */
class Args {
  private readonly unused: Map<string, Arg>;
  readonly positional: string[];

  constructor(private readonly command: Command) {
    this.positional = command.args.filter((a) => !a.assigned).map((a) => a.key);
    this.unused = new Map(command.args.filter((a) => a.assigned).map((a) => [a.key, a]));
  }

  string(key: string): string | undefined {
    return this.list(key)?.join(",");
  }

  list(key: string): string[] | undefined {
    const arg = this.unused.get(key);
    this.unused.delete(key);
    return arg === undefined ? undefined : [...arg.values];
  }

  number(key: string): number | undefined {
    const v = this.string(key);
    if (v === undefined) return undefined;
    const n = Number(v);
    if (!Number.isSafeInteger(n))
      throw new ScriptError(`line ${this.command.line}: ${key}=${v} is not an integer`);
    return n;
  }

  need(key: string): string {
    const v = this.string(key);
    if (v === undefined)
      throw new ScriptError(`line ${this.command.line}: "${this.command.name}" needs ${key}=`);
    return v;
  }

  done(): void {
    const left = [...this.unused.keys()];
    if (left.length > 0)
      throw new ScriptError(
        `line ${this.command.line}: unknown argument ${left.join(", ")} of "${this.command.name}"`,
      );
  }
}

/** One value per line part: bigints as digits, objects as {k=v ...}, lists as [a b]. */
export function show(value: unknown): string {
  if (typeof value === "bigint") return value.toString();
  if (typeof value === "string") return /^[\w.:/-]+$/.test(value) ? value : JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(show).join(" ")}]`;
  if (value !== null && typeof value === "object") {
    const parts = Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => `${k}=${show(v)}`);
    return `{${parts.join(" ")}}`;
  }
  return String(value);
}

/** `lock`, `lock:shared` or `lock:permit3`, as a multi-lock Acquire's other targets are written. */
function targetOf(text: string, line: number): LockTarget {
  const [lock, kind] = text.split(":");
  if (!lock) throw new ScriptError(`line ${line}: empty lock name in "${text}"`);
  if (kind === undefined || kind === "exclusive") return { lock };
  if (kind === "shared") return { lock, mode: "shared" };
  const permits = /^permit(\d+)$/.exec(kind);
  if (permits) return { lock, permits: Number(permits[1]) };
  throw new ScriptError(`line ${line}: unknown target kind "${kind}"`);
}

export class LockScriptEnv {
  private machine = new LockStateMachine();
  private index = 0;
  private readonly sessions = new Map<string, ScriptSession>();

  run(command: Command): string[] {
    const args = new Args(command);
    const out = this.dispatch(command, args);
    args.done();
    return out;
  }

  private dispatch(c: Command, a: Args): string[] {
    switch (c.name) {
      case "open":
        return this.open(c, a);
      case "acquire":
        return this.acquire(c, a);
      case "release": {
        const s = this.session(c, a);
        return this.write(s, a, (seq) => ({
          type: "release",
          sessionId: s.id,
          lock: a.need("lock"),
          token: BigInt(a.need("token")),
          seq,
          ackedUpTo: a.number("acked") ?? 0,
          held: [],
          wallMs: 0,
        }));
      }
      case "close": {
        const s = this.session(c, a);
        return this.write(s, a, (seq) => ({
          type: "closeSession",
          sessionId: s.id,
          seq,
          ackedUpTo: a.number("acked") ?? 0,
          held: [],
          wallMs: 0,
        }));
      }
      case "cancel": {
        const s = this.session(c, a);
        const reason = a.string("reason") ?? "client";
        if (reason !== "client" && reason !== "timeout")
          throw new ScriptError(`line ${c.line}: reason is client or timeout`);
        return this.apply({
          type: "cancelWait",
          sessionId: s.id,
          lock: a.need("lock"),
          acquireSeq: Number(a.need("acquire-seq")),
          reason,
          wallMs: 0,
        });
      }
      case "expire":
        return this.apply({ type: "expireSession", sessionId: this.session(c, a).id, wallMs: 0 });
      case "revoke":
        return this.apply({
          type: "revoke",
          lock: a.need("lock"),
          token: BigInt(a.need("token")),
          wallMs: 0,
        });
      case "hold-limit": {
        const s = this.session(c, a);
        return this.apply({
          type: "holdLimit",
          sessionId: s.id,
          token: BigInt(a.need("token")),
          holdMs: Number(a.need("hold")),
          wallMs: 0,
        });
      }
      case "set-limits":
        return this.setLimits(c, a);
      case "noop": {
        this.machine.skip(++this.index);
        return [`index ${this.index}: no command`];
      }
      case "lock":
        return [show(this.machine.getLock(a.positional[0] ?? a.need("name")))];
      case "history": {
        const records = this.machine.history(a.positional[0] ?? a.need("name"));
        return records.length > 0 ? records.map(show) : ["(none)"];
      }
      case "snapshot":
        return this.snapshot();
      default:
        throw new ScriptError(`line ${c.line}: unknown command "${c.name}"`);
    }
  }

  private session(c: Command, a: Args): ScriptSession {
    const name = a.positional[0];
    if (name === undefined)
      throw new ScriptError(`line ${c.line}: "${c.name}" needs a session name`);
    const s = this.sessions.get(name);
    if (s === undefined) throw new ScriptError(`line ${c.line}: no session ${name}`);
    return s;
  }

  private open(c: Command, a: Args): string[] {
    const name = a.positional[0];
    if (name === undefined) throw new ScriptError(`line ${c.line}: open needs a session name`);
    const out = this.applyOutcome({
      type: "openSession",
      requestId: a.string("request") ?? `request-${name}`,
      ttlMs: a.number("ttl") ?? 10_000,
      clientName: name,
      wallMs: 0,
    });
    if (out.result.kind === "sessionOpened" && !this.sessions.has(name))
      this.sessions.set(name, { id: out.result.sessionId, seq: 0 });
    return this.print(out);
  }

  private acquire(c: Command, a: Args): string[] {
    const s = this.session(c, a);
    const more = a.list("more")?.map((t) => targetOf(t, c.line));
    const mode = a.string("mode");
    if (mode !== undefined && mode !== "shared" && mode !== "exclusive")
      throw new ScriptError(`line ${c.line}: mode is shared or exclusive`);
    const permits = a.number("permits");
    const data = a.string("data");
    const hold = a.number("hold");
    return this.write(s, a, (seq): AcquireCommand => ({
      type: "acquire",
      sessionId: s.id,
      lock: a.need("lock"),
      waitMs: a.number("wait") ?? 0,
      seq,
      ackedUpTo: a.number("acked") ?? 0,
      held: [],
      wallMs: 0,
      ...(mode !== undefined ? { mode } : {}),
      ...(permits !== undefined ? { permits } : {}),
      ...(more !== undefined ? { more } : {}),
      ...(data !== undefined ? { holderData: data } : {}),
      ...(hold !== undefined ? { holdMs: hold } : {}),
    }));
  }

  /** A numbered write: the session's next seq, or `seq=` to send an earlier one again. */
  private write(s: ScriptSession, a: Args, build: (seq: number) => LockCommand): string[] {
    const given = a.number("seq");
    const seq = given ?? s.seq + 1;
    if (given === undefined) s.seq = seq;
    return this.apply(build(seq));
  }

  private setLimits(c: Command, a: Args): string[] {
    const limits: Record<string, number> = { ...this.machine.limits };
    for (const key of LIMIT_KEYS) {
      const v = a.number(key);
      if (v !== undefined) limits[key] = v;
    }
    if (a.positional.length > 0)
      throw new ScriptError(`line ${c.line}: set-limits takes key=value only`);
    return this.apply({ type: "setLimits", limits: limits as unknown as LockLimits, wallMs: 0 });
  }

  private snapshot(): string[] {
    const bytes = this.machine.snapshot();
    const copy = LockStateMachine.restore(bytes);
    const again = copy.snapshot();
    const same = again.length === bytes.length && again.every((b, i) => b === bytes[i]);
    const problems = copy.checkInvariants();
    this.machine = copy;
    return [
      `snapshot at index ${copy.appliedIndex}: restored copy ${same ? "encodes the same" : "ENCODES DIFFERENTLY"}`,
      ...problems.map((p) => `invariant: ${p}`),
    ];
  }

  private apply(cmd: LockCommand): string[] {
    return this.print(this.applyOutcome(cmd));
  }

  private applyOutcome(cmd: LockCommand): ApplyOutcome {
    return this.machine.apply(++this.index, cmd);
  }

  private print(out: ApplyOutcome): string[] {
    const lines = [`index ${out.index}: ${show(out.result)}`];
    for (const c of out.completions)
      lines.push(`  completes session=${c.sessionId} seq=${c.seq}: ${show(c.answer)}`);
    for (const e of out.events) {
      const { type, index: _index, wallMs: _wallMs, ...rest } = e;
      lines.push(`  event ${type} ${show(rest)}`);
    }
    for (const [what, list] of Object.entries(out.timers)) {
      for (const item of list as unknown[]) lines.push(`  timer ${what} ${show(item)}`);
    }
    for (const p of this.machine.checkInvariants()) lines.push(`  invariant: ${p}`);
    return lines;
  }
}
