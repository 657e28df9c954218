// A chaos client worker, run inside the clients' namespace. Each of its loops owns one
// session and runs, at random from its seed, the fenced-counter task (acquire, fenced
// read of the counter, fenced write of counter+1, release), the read-heavy task on the
// same counters (acquire the counter's lock shared, fenced shared read, release; drawn
// three times as often as an increment, so readers and writers interleave on each lock),
// the leader task (campaign for an election, write "I lead" as an increment of the
// election's own counter under the lead's token through the same fence, resign) or plain
// lock operations (acquire, reads, validate, release). Every operation is
// printed as a record with its call and return times (ret null when the outcome is
// unknown). "stop" on stdin ends it.
import { createInterface } from "node:readline";
import { parseArgs } from "node:util";
import {
  FailedPreconditionError,
  NotHolderError,
  OutcomeUnknownError,
  PalisadeClient,
  SessionNotFoundError,
  StaleTokenError,
  type LateGrantRelease,
  type Session,
} from "../client/index.ts";
import { FENCING_MODE_HEADER, FENCING_TOKEN_HEADER } from "../client/fence/index.ts";
import { nowUs } from "./clock.ts";
import { emit, type OpOutcome, type OpRecord, type SessionRecord } from "./protocol.ts";
import { Rng } from "./rng.ts";

const { values } = parseArgs({
  options: {
    name: { type: "string", default: "w" },
    seed: { type: "string", default: "1" },
    endpoints: { type: "string", default: "" },
    store: { type: "string", default: "http://10.77.0.4:8080" },
    counters: { type: "string", default: "a,b" },
    locks: { type: "string", default: "p1,p2" },
    loops: { type: "string", default: "2" },
    ttl: { type: "string", default: "3000" },
    // Lock names carry a generation, floor((now - epoch) / generation), so that each lock's
    // history stays short enough to check; 0 keeps one set of names for the whole run.
    "epoch-us": { type: "string", default: "0" },
    "generation-ms": { type: "string", default: "0" },
  },
});

const name = values.name;
const counters = values.counters.split(",");
const plainLocks = values.locks.split(",");
const ttlMs = Number(values.ttl);
const epochUs = Number(values["epoch-us"]) || nowUs();
const generationUs = Number(values["generation-ms"]) * 1000;

/** The current generation's form of a lock or counter name. */
function generational(base: string): string {
  return generationUs > 0 ? `${base}.g${Math.floor((nowUs() - epochUs) / generationUs)}` : base;
}
const client = new PalisadeClient({
  endpoints: values.endpoints.split(","),
  clientName: name,
  callTimeoutMs: 1_000,
  retryBudgetMs: 4_000,
});
let stopping = false;
let opCount = 0;

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
/** A process.hrtime.bigint() instant in the records' µs (floored: never later than it). */
const nsToUs = (ns: bigint): number => Number(ns / 1000n);

function recordOp(op: Omit<OpRecord, "t" | "id" | "worker">): void {
  emit({ t: "op", id: `${name}.${++opCount}`, worker: name, ...op });
}

function isPrecondition(err: unknown): boolean {
  return (
    err instanceof FailedPreconditionError ||
    err instanceof NotHolderError ||
    err instanceof StaleTokenError
  );
}

class Loop {
  private session: Session | undefined;
  private readonly lateGrants = new Map<string, LateGrantRelease>();
  private info: SessionRecord | undefined;

  constructor(
    private readonly tag: string,
    private readonly rng: Rng,
  ) {}

  async run(): Promise<void> {
    while (!stopping) {
      const session = await this.ensureSession();
      if (!session) continue;
      try {
        const task = this.rng.next();
        if (task < 0.45) await this.sharedReadTask(session);
        else if (task < 0.6) await this.counterTask(session);
        else if (task < 0.7) await this.leaderTask(session);
        else await this.plainTask(session);
        if (this.rng.chance(0.03)) await this.closeSession();
      } catch (err) {
        emit({ t: "log", msg: `${this.tag}: ${(err as Error).message}` });
        await sleep(100);
      }
    }
    await this.closeSession();
  }

  private async ensureSession(): Promise<Session | undefined> {
    if (this.session && this.session.state === "open") return this.session;
    this.finishSession();
    const opened = nowUs();
    try {
      const session = await client.openSession({ ttlMs, clientName: this.tag });
      const info: SessionRecord = {
        t: "session",
        worker: name,
        session: session.id.toString(),
        opened,
        deadline: nsToUs(session.deadlineNs),
      };
      // The client's deadline as it moves (each acknowledged keepalive); it stops moving
      // once the session is lost or closed, so the record keeps the one last in force.
      session.onDeadlineExtended((deadlineNs) => {
        info.deadline = nsToUs(deadlineNs);
      });
      session.onLost(() => {
        info.lostAt ??= nowUs();
      });
      // Grants the client released by itself (their Acquire's outcome was unknown to this
      // worker): the acquire it answered and the release it sent belong in the history.
      session.onLateGrantReleased((late) =>
        this.lateGrants.set(`${session.id}:${late.acquireSeq}`, late),
      );
      this.session = session;
      this.info = info;
      return session;
    } catch {
      await sleep(200);
      return undefined;
    }
  }

  private finishSession(): void {
    if (this.info && this.session) this.info.deadline = nsToUs(this.session.deadlineNs);
    if (this.info) emit(this.info);
    this.session = undefined;
    this.info = undefined;
  }

  private async closeSession(): Promise<void> {
    const session = this.session;
    const info = this.info;
    if (!session || !info) return;
    if (session.state === "open") {
      const call = nowUs();
      info.closing = call;
      try {
        await session.close();
        info.closeCall = call;
        info.closeRet = nowUs();
      } catch {
        // outcome unknown: the session ends by expiry or by this close
      }
    }
    this.finishSession();
  }

  /** Acquire (shared with `shared`), recorded; the token and the call's time when granted. */
  private async acquire(
    session: Session,
    lock: string,
    waitMs: number,
    shared = false,
    /** Campaign for the election `lock` with this value (a lead is recorded as a grant). */
    campaign?: string,
  ): Promise<{ token: bigint; call: number } | undefined> {
    if (session.state !== "open") return undefined;
    const sid = session.id.toString();
    const call = nowUs();
    const pending =
      campaign !== undefined
        ? session.startCampaign(lock, campaign, { waitMs })
        : session.startAcquire(lock, {
            waitMs,
            ...(shared ? { mode: "shared" as const } : {}),
          });
    const record = (op: Omit<OpRecord, "t" | "id" | "worker" | "mode" | "waitMs">): void =>
      recordOp({ ...op, ...(shared ? { mode: "shared" as const } : {}), waitMs });
    try {
      const r = await pending.result;
      const ret = nowUs();
      let out: OpOutcome;
      if (r.acquired && r.token !== undefined) out = { kind: "granted", token: r.token.toString() };
      else {
        out = { kind: "notAcquired" };
        if (r.holder) {
          out.holderSession = r.holder.sessionId.toString();
          out.holderToken = r.holder.token.toString();
        }
      }
      record({ kind: "acquire", lock, session: sid, call, ret, out });
      return r.acquired && r.token !== undefined ? { token: r.token, call } : undefined;
    } catch (err) {
      if (err instanceof SessionNotFoundError) {
        record({
          kind: "acquire",
          lock,
          session: sid,
          call,
          ret: nowUs(),
          out: { kind: "sessionNotFound" },
        });
        return undefined;
      }
      if (!(err instanceof OutcomeUnknownError)) {
        record({ kind: "acquire", lock, session: sid, call, ret: null });
        return undefined;
      }
      // The client settles it in the background (CancelWait, and a release of a grant that
      // came anyway, which it reports): record what it learnt and did, once it is done.
      await session.unsettledAcquire(lock);
      const key = `${session.id}:${pending.seq}`;
      const late = this.lateGrants.get(key);
      this.lateGrants.delete(key);
      if (late) {
        const token = late.token.toString();
        record({
          kind: "acquire",
          lock,
          session: sid,
          call,
          ret: nsToUs(late.learntAtNs),
          out: { kind: "granted", token },
        });
        const release = {
          kind: "release" as const,
          lock,
          session: sid,
          token,
          call: nsToUs(late.releaseSentNs),
        };
        const ret = late.releaseAnsweredNs === null ? null : nsToUs(late.releaseAnsweredNs);
        if (late.outcome === "released") recordOp({ ...release, ret, out: { kind: "ok" } });
        else if (late.outcome === "sessionNotFound")
          recordOp({ ...release, ret, out: { kind: "sessionNotFound" } });
        else if (late.outcome === "notHolder")
          recordOp({ ...release, ret, out: { kind: "failedPrecondition" } });
        else recordOp({ ...release, ret: null });
        return undefined;
      }
      record({ kind: "acquire", lock, session: sid, call, ret: null });
      return undefined;
    }
  }

  private async release(
    session: Session,
    lock: string,
    token: bigint,
    election = false,
  ): Promise<void> {
    const sid = session.id.toString();
    const call = nowUs();
    try {
      await session.release(lock, token, election ? { election: true } : {});
      recordOp({
        kind: "release",
        lock,
        session: sid,
        token: token.toString(),
        call,
        ret: nowUs(),
        out: { kind: "ok" },
      });
    } catch (err) {
      const ret = nowUs();
      if (err instanceof SessionNotFoundError) {
        recordOp({
          kind: "release",
          lock,
          session: sid,
          token: token.toString(),
          call,
          ret,
          out: { kind: "sessionNotFound" },
        });
      } else if (isPrecondition(err)) {
        recordOp({
          kind: "release",
          lock,
          session: sid,
          token: token.toString(),
          call,
          ret,
          out: { kind: "failedPrecondition" },
        });
      } else {
        recordOp({ kind: "release", lock, session: sid, token: token.toString(), call, ret: null });
      }
    }
  }

  private async read(lock: string): Promise<void> {
    const call = nowUs();
    try {
      const info = await client.read.getLock(lock, { timeoutMs: 3_000 });
      const out: OpOutcome = info.holder
        ? {
            kind: "read",
            holder: info.holder.sessionId.toString(),
            token: info.holder.token.toString(),
          }
        : { kind: "read", holder: null, token: null };
      recordOp({ kind: "read", lock, call, ret: nowUs(), out });
    } catch {
      // an unanswered read constrains nothing
    }
  }

  private async validate(lock: string, token: bigint): Promise<void> {
    const call = nowUs();
    try {
      const valid = await client.read.validateToken(lock, token, { timeoutMs: 3_000 });
      recordOp({
        kind: "validate",
        lock,
        token: token.toString(),
        call,
        ret: nowUs(),
        out: { kind: "validated", valid },
      });
    } catch {
      // as for reads
    }
  }

  private async counterTask(session: Session): Promise<void> {
    const key = generational(this.rng.pick(counters));
    const lock = `counter/${key}`;
    const grant = await this.acquire(session, lock, this.rng.int(200, 2_000));
    if (grant === undefined) return;
    try {
      await this.fencedIncrement(session, key, grant.token);
    } finally {
      await this.release(session, lock, grant.token);
    }
  }

  /**
   * The leader's task: campaign for an election, and once leading write "I lead" (an
   * increment of the election's own counter) under the lead's token through the fence, as
   * any leader writes to storage; then resign. A leader paused or cut off past its TTL
   * writes all the same, and the fence must refuse it once another leads.
   */
  private async leaderTask(session: Session): Promise<void> {
    const key = generational(this.rng.pick(counters));
    const election = `leader/${key}`;
    const lead = await this.acquire(session, election, this.rng.int(200, 2_000), false, name);
    if (lead === undefined) return;
    try {
      await this.fencedIncrement(session, `lead.${key}`, lead.token);
    } finally {
      await this.release(session, election, lead.token, true);
    }
  }

  /** A fenced read of the counter `key`, then a fenced write of its value + 1, under `token`. */
  private async fencedIncrement(session: Session, key: string, token: bigint): Promise<void> {
    const sid = session.id.toString();
    const url = `${values.store}/c/${encodeURIComponent(key)}`;
    const headers = { [FENCING_TOKEN_HEADER]: token.toString(), "x-session": sid };
    const got = await fetch(url, {
      headers: { ...headers, "x-req": `${name}.${++opCount}` },
      signal: AbortSignal.timeout(5_000),
    });
    if (got.status === 200) {
      const { value } = (await got.json()) as { value: number };
      // Deliberately no look at the session before writing: a paused worker cannot know
      // it was paused, and the store's fence has to refuse it.
      if (this.rng.chance(0.5)) await sleep(this.rng.int(1, 60));
      const req = `${name}.${++opCount}`;
      const put = await fetch(url, {
        method: "PUT",
        headers: { ...headers, "x-req": req, "content-type": "application/json" },
        body: JSON.stringify({ read: value }),
        signal: AbortSignal.timeout(5_000),
      });
      await put.arrayBuffer();
      emit({
        t: "incr",
        worker: name,
        key,
        session: sid,
        token: token.toString(),
        read: value,
        status: put.status,
        req,
        ret: nowUs(),
      });
    } else {
      await got.arrayBuffer();
    }
  }

  /**
   * The read-heavy task: the counter's lock in shared mode (beside other readers, never
   * beside a writer), one fenced shared read, release. Like the writer it never looks at
   * its session before reading: a reader paused past its TTL must be fenced off once a
   * writer with a higher token has reached the store.
   */
  private async sharedReadTask(session: Session): Promise<void> {
    const key = generational(this.rng.pick(counters));
    const lock = `counter/${key}`;
    // Mostly without waiting: the checker's model of a lock with shared grants keeps its
    // FIFO queue, and every order of many concurrent waits is a state it must explore.
    const grant = await this.acquire(
      session,
      lock,
      this.rng.chance(0.25) ? this.rng.int(50, 300) : 0,
      true,
    );
    if (grant === undefined) return;
    const { token } = grant;
    const sid = session.id.toString();
    const req = `${name}.${++opCount}`;
    try {
      if (this.rng.chance(0.3)) await sleep(this.rng.int(1, 30));
      const got = await fetch(`${values.store}/c/${encodeURIComponent(key)}`, {
        headers: {
          [FENCING_TOKEN_HEADER]: token.toString(),
          [FENCING_MODE_HEADER]: "shared",
          "x-session": sid,
          "x-req": req,
        },
        signal: AbortSignal.timeout(5_000),
      });
      const base = {
        t: "sread" as const,
        worker: name,
        key,
        session: sid,
        token: token.toString(),
        status: got.status,
        req,
        acquireCall: grant.call,
      };
      if (got.status === 200)
        emit({ ...base, value: ((await got.json()) as { value: number }).value });
      else {
        await got.arrayBuffer();
        emit(base);
      }
    } finally {
      await this.release(session, lock, token);
    }
  }

  private async plainTask(session: Session): Promise<void> {
    const lock = `plain/${generational(this.rng.pick(plainLocks))}`;
    if (this.rng.chance(0.3)) {
      await this.read(lock);
      return;
    }
    const token = (
      await this.acquire(session, lock, this.rng.chance(0.5) ? 0 : this.rng.int(50, 500))
    )?.token;
    if (token === undefined) {
      if (this.rng.chance(0.5)) await this.read(lock);
      return;
    }
    if (this.rng.chance(0.5)) await this.read(lock);
    if (this.rng.chance(0.3)) await this.validate(lock, token);
    await sleep(this.rng.int(0, 60));
    await this.release(session, lock, token);
    if (this.rng.chance(0.2)) await this.validate(lock, token);
  }
}

const rng = new Rng(Number(values.seed));
const loops = Array.from(
  { length: Number(values.loops) },
  (_, i) => new Loop(`${name}-${i}`, new Rng(rng.fork())),
);
createInterface({ input: process.stdin }).on("line", (line) => {
  if (line.trim() === "stop") stopping = true;
});
emit({ t: "ready", what: name });
await Promise.all(loops.map((l) => l.run()));
await Promise.race([client.close(), sleep(3_000)]);
process.exit(0);
