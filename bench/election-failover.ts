// Election failover: `candidates` processes campaign for one election and `observers`
// processes observe it (election-proc.ts, each its own client); the leader's process is
// SIGKILLed, or SIGSTOPped, or told to resign (Palisade: `resign({ to })` the candidate
// that joined last, which a plain resign would not pick); the figures are the time from
// then to the new leader's process reporting its campaign resolved, and to every observer
// having reported that leader. After each run the old leader's process is SIGKILLed and a
// new candidate joins the back of the queue, so every run starts with the same number of
// candidates waiting. Palisade: a three-node cluster with product defaults, each client's
// session TTL `ttlMs`; etcd: three members and the etcd3 client's election, each candidate
// a lease of the same TTL. Every process and folder is removed at the end, also on failure.
import { spawn, type ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { Etcd3 } from "etcd3";
import { PalisadeClient } from "../client/index.ts";
import { BenchCluster, makeTempDir, removeTempDir, sleep, trackChild } from "./cluster-control.ts";
import { EtcdCluster } from "./etcd-control.ts";
import {
  lastObserved,
  msBetween,
  seriesOf,
  type ElectionRun,
  type ElectionSide,
} from "./election-figures.ts";

export interface ElectionFailoverOptions {
  runs: number;
  /** Palisade's session TTL and etcd's lease TTL (whole seconds). */
  ttlMs: number;
  candidates: number;
  observers: number;
  log: (line: string) => void;
}

type System = "palisade" | "etcd";
type Kind = "kill" | "stop" | "handoff";

const PROC = fileURLToPath(
  new URL(
    import.meta.url.endsWith(".ts") ? "./election-proc.ts" : "./election-proc.js",
    import.meta.url,
  ),
);
const STEP_TIMEOUT_MS = 30_000;
const POLL_MS = 10;

interface Report {
  event: string;
  at_ns?: string;
  token?: string;
  value?: string;
  session?: string;
  message?: string;
}

/** One election-proc process and what it reported so far. */
class ElectionProc {
  readonly seen: Report[] = [];
  private stderr = "";
  private readonly exited: Promise<void>;

  constructor(
    readonly child: ChildProcess,
    readonly value: string,
  ) {
    trackChild(child);
    child.stderr?.on("data", (b: Buffer) => {
      this.stderr = (this.stderr + b.toString()).slice(-2_000);
    });
    createInterface({ input: child.stdout! }).on("line", (line) => {
      try {
        this.seen.push(JSON.parse(line) as Report);
      } catch {
        // not a report
      }
    });
    this.exited = new Promise((r) => child.once("exit", () => r()));
  }

  get alive(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /** The first report that `match` takes, or undefined; throws on an error report or an exit. */
  find(match: (r: Report) => boolean): Report | undefined {
    const hit = this.seen.find(match);
    if (hit) return hit;
    const error = this.seen.find((r) => r.event === "error");
    if (error) throw new Error(`election process ${this.value}: ${error.message ?? "error"}`);
    if (!this.alive)
      throw new Error(`election process ${this.value} exited: ${this.stderr.slice(-500)}`);
    return undefined;
  }

  send(line: string): void {
    this.child.stdin?.write(`${line}\n`);
  }

  async kill(): Promise<void> {
    if (this.alive) {
      this.child.kill("SIGKILL");
      await this.exited;
    }
  }
}

/** Polls `probe` until it gives a value; null once `timeoutMs` passed. */
async function until<T>(
  probe: () => T | undefined | Promise<T | undefined>,
  timeoutMs: number,
): Promise<T | null> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (performance.now() >= deadline) return null;
    await sleep(POLL_MS);
  }
}

async function must<T>(
  probe: () => T | undefined | Promise<T | undefined>,
  what: string,
): Promise<T> {
  const v = await until(probe, STEP_TIMEOUT_MS);
  if (v === null) throw new Error(`${what} within ${STEP_TIMEOUT_MS} ms`);
  return v;
}

interface Driver {
  system: System;
  endpoints: string[];
  /** Whether `waiting` candidates wait behind a leader (as the cluster sees it). */
  settled(election: string, waiting: number): Promise<boolean>;
}

/** What identifies a leader in the reports: Palisade's token, etcd's value. */
const idOf = (r: Report): string | undefined => r.token ?? r.value;
const nsOf = (r: Report): bigint => BigInt(r.at_ns ?? "0");

async function measure(
  driver: Driver,
  options: ElectionFailoverOptions,
  config: string,
): Promise<ElectionSide> {
  const { system, endpoints } = driver;
  const election = `bench/election-failover/${Date.now().toString(36)}`;
  const bound = options.ttlMs + STEP_TIMEOUT_MS;
  let seq = 0;
  const start = (role: "candidate" | "observer"): ElectionProc => {
    const value = `${role === "candidate" ? "c" : "o"}${++seq}`;
    const child = spawn(
      process.execPath,
      [PROC, system, role, endpoints.join(","), String(options.ttlMs), election, value],
      { stdio: ["pipe", "pipe", "pipe"] },
    );
    return new ElectionProc(child, value);
  };
  const observers: ElectionProc[] = [];
  let candidates: ElectionProc[] = [];
  let leader: ElectionProc | null = null;
  let leaderId = "";

  const seenBy = (o: ElectionProc, id: string, after = 0n): Report | undefined =>
    o.find((r) => r.event === "leader" && idOf(r) === id && nsOf(r) >= after);
  /** A new candidate at the back of the queue, once the cluster lists it there. */
  const join = async (): Promise<void> => {
    const c = start("candidate");
    candidates.push(c);
    await must(
      () => c.find((r) => r.event === "ready"),
      `${system}: candidate ${c.value} not ready`,
    );
    const waiting = candidates.length - 1;
    await must(
      async () => ((await driver.settled(election, waiting)) ? true : undefined),
      `${system}: ${waiting} candidates not waiting`,
    );
  };
  /** A leader and candidates - 1 waiting, every observer having seen the leader. */
  const fill = async (): Promise<void> => {
    if (!leader) {
      for (const c of candidates) await c.kill();
      candidates = [];
      const first = start("candidate");
      candidates.push(first);
      const elected = await must(
        () => first.find((r) => r.event === "elected"),
        `${system}: the first candidate not elected`,
      );
      leader = first;
      leaderId = idOf(elected) ?? "";
    }
    while (candidates.length < options.candidates) await join();
    while (observers.length < options.observers) observers.push(start("observer"));
    for (const o of observers)
      await must(
        () => seenBy(o, leaderId),
        `${system}: observer ${o.value} did not see the leader`,
      );
  };

  const one = async (kind: Kind): Promise<{ run: ElectionRun; wrongSuccessor: boolean }> => {
    await fill();
    const old = leader as ElectionProc;
    const waiting = candidates.filter((c) => c !== old);
    const successor = system === "palisade" && kind === "handoff" ? waiting.at(-1) : undefined;
    let t0: bigint;
    if (kind === "handoff") {
      const to = successor?.find((r) => r.event === "ready")?.session;
      old.send(to !== undefined ? `resign ${to}` : "resign");
      t0 = nsOf(
        await must(
          () => old.find((r) => r.event === "resigning"),
          `${system}: the leader did not resign`,
        ),
      );
    } else {
      // At a random point of the leader's keepalive period, as a crash would land.
      await sleep(Math.random() * (options.ttlMs / 3));
      t0 = process.hrtime.bigint();
      old.child.kill(kind === "kill" ? "SIGKILL" : "SIGSTOP");
    }
    const hit = await until(() => {
      for (const c of waiting) {
        const r = c.find((x) => x.event === "elected");
        if (r) return { c, r };
      }
      return undefined;
    }, bound);
    await old.kill(); // stopped or resigned: gone now
    candidates = candidates.filter((c) => c !== old);
    if (!hit) {
      leader = null; // the next run starts a new queue
      return { run: { elected_ms: null, observed_ms: null }, wrongSuccessor: false };
    }
    leader = hit.c;
    leaderId = idOf(hit.r) ?? "";
    const id = leaderId;
    const seenAt = await Promise.all(
      observers.map(async (o) => {
        const r = await until(() => seenBy(o, id, t0), bound);
        return r ? nsOf(r) : null;
      }),
    );
    return {
      run: { elected_ms: msBetween(t0, nsOf(hit.r)), observed_ms: lastObserved(t0, seenAt) },
      wrongSuccessor: successor !== undefined && hit.c !== successor,
    };
  };

  try {
    const series = async (kind: Kind): Promise<{ runs: ElectionRun[]; wrong: number }> => {
      const runs: ElectionRun[] = [];
      let wrong = 0;
      for (let k = 1; k <= options.runs; k++) {
        const { run, wrongSuccessor } = await one(kind);
        runs.push(run);
        if (wrongSuccessor) wrong++;
        options.log(
          `${system} election ${kind} ${k}/${options.runs}: elected ${run.elected_ms ?? "-"} ms, all observers ${run.observed_ms ?? "-"} ms` +
            (wrongSuccessor ? " (not the named successor)" : ""),
        );
      }
      return { runs, wrong };
    };
    const kill = await series("kill");
    const stop = await series("stop");
    const handoff = await series("handoff");
    return {
      ttl_ms: options.ttlMs,
      candidates: options.candidates,
      observers: options.observers,
      kill: seriesOf(kill.runs, bound),
      stop: seriesOf(stop.runs, bound),
      handoff: seriesOf(handoff.runs, bound),
      wrong_successor: handoff.wrong,
      config,
    };
  } finally {
    await Promise.all([...candidates, ...observers].map((p) => p.kill()));
  }
}

export async function runElectionFailover(options: ElectionFailoverOptions): Promise<ElectionSide> {
  const dir = makeTempDir("palisade-election-failover-");
  const cluster = await BenchCluster.create(dir);
  const admin = new PalisadeClient({
    endpoints: cluster.endpoints,
    callTimeoutMs: 1_000,
    retryBudgetMs: 5_000,
  });
  try {
    cluster.startAll();
    await cluster.waitServing();
    return await measure(
      {
        system: "palisade",
        endpoints: cluster.endpoints,
        settled: async (election, waiting) => {
          const info = await admin.elections.leader(election).catch(() => null);
          return info !== null && info.leader !== null && info.candidateCount === waiting;
        },
      },
      options,
      `3 nodes, product defaults; ${options.candidates} candidate and ${options.observers} observer processes, each one client ` +
        `(\`client.elections.campaign\` / \`observe\`) with session TTL (\`sessionTtlMs\`) ${options.ttlMs} ms; ` +
        "a handoff is `lead.resign({ to })` naming the candidate that joined last",
    );
  } finally {
    await admin.close().catch(() => undefined);
    await cluster.stopAll("SIGKILL");
    removeTempDir(dir);
  }
}

export async function runEtcdElectionFailover(
  options: ElectionFailoverOptions,
): Promise<ElectionSide> {
  const dir = makeTempDir("palisade-etcd-election-failover-");
  const cluster = await EtcdCluster.create(dir);
  let client: Etcd3 | null = null;
  try {
    cluster.startAll();
    await cluster.waitLeader();
    const etcd = new Etcd3({ hosts: cluster.endpoints });
    client = etcd;
    // The etcd3 election keeps one key per candidate under "election/NAME/", the leader's the oldest.
    const settled = async (election: string, waiting: number): Promise<boolean> => {
      const count = await etcd
        .getAll()
        .prefix(`election/${election}/`)
        .count()
        .catch(() => -1);
      return count === waiting + 1;
    };
    return await measure(
      { system: "etcd", endpoints: cluster.endpoints, settled },
      options,
      `3 members, etcd defaults; ${options.candidates} candidate and ${options.observers} observer processes, each one etcd3 client ` +
        `(\`client.election(name, ttl)\`: \`campaign\` / \`observe\`), each candidate a lease of TTL ${options.ttlMs / 1000} s; ` +
        "a handoff is `campaign.resign()` (the lease revoked), the next candidate in line taking over",
    );
  } finally {
    client?.close();
    await cluster.stopAll("SIGKILL");
    removeTempDir(dir);
  }
}
