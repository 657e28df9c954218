// Palisade next to a single Redis and Redlock (five Redis servers), same fenced-counter
// task, under scripted versions of the scenarios of "How to do distributed locking"
// (Kleppmann, 2016): a client paused past its lease, and one server's clock jumping
// forward while client 1 is cut off from two servers. Redis runs in n4 (a wall-clock
// shim on each server, chaos/fault/c/clock-jump.c); client 1 of the clock scenario runs in n5 so that
// iptables can cut it off from two servers. Palisade uses the fenced store; the Redis
// designs have no token to fence with, so they use the same store without its fence.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { NetworkFaults } from "../fault/network-faults.ts";
import { buildShim } from "../fault/shims.ts";
import { addressOf } from "../netns.ts";
import { NsProcess } from "../procs.ts";
import type { AdmissionRecord, Line } from "../protocol.ts";

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
const SINGLE_PORT = 6390;
const REDLOCK_PORTS = [6391, 6392, 6393, 6394, 6395];
const FENCED_STORE = 8090;
const UNFENCED_STORE = 8091;

export type System = "palisade" | "redis" | "redlock";

export interface CompareContext {
  /** The chaos lab's network faults (client 1 of the clock scenario runs in member 5). */
  net: NetworkFaults;
  runDir: string;
  endpoints: string;
  /** A Palisade node's wall-clock offset file (libfaketime). */
  clockFile(node: number): string;
  leader(): number;
  say(msg: string): void;
}

export interface ScenarioResult {
  scenario: string;
  system: System;
  violations: string[];
  notes: string[];
}

type Answer = Record<string, unknown> & { cmd: string };

class StepClient {
  private readonly answers: Answer[] = [];
  private wake: (() => void) | undefined;
  readonly proc: NsProcess;

  constructor(name: string, ns: number, args: string[], logDir: string) {
    this.proc = new NsProcess({
      name,
      ns,
      script: "chaos/compare/step-client.ts",
      args,
      logPath: join(logDir, `${name}.log`),
      onLine: (line) => {
        this.answers.push(line as unknown as Answer);
        this.wake?.();
      },
    });
    this.proc.start();
  }

  private async next(timeoutMs: number): Promise<Answer> {
    const until = Date.now() + timeoutMs;
    while (this.answers.length === 0) {
      if (Date.now() > until) throw new Error(`${this.proc.options.name}: no answer`);
      await new Promise<void>((r) => {
        this.wake = r;
        setTimeout(r, 100);
      });
    }
    return this.answers.shift()!;
  }

  async ready(): Promise<void> {
    await this.next(30_000);
  }

  async step(cmd: "acquire" | "read" | "write" | "release"): Promise<Answer> {
    this.proc.send(JSON.stringify({ cmd }));
    return this.next(20_000);
  }

  startLoop(ms: number): Promise<Answer> {
    this.proc.send(JSON.stringify({ cmd: "loop", ms }));
    return this.next(ms + 30_000);
  }

  async exit(): Promise<void> {
    this.proc.signal("SIGCONT");
    this.proc.send(JSON.stringify({ cmd: "exit" }));
    if (!(await this.proc.waitExit(3_000))) await this.proc.kill();
  }
}

export class Comparison {
  private readonly admissions: AdmissionRecord[] = [];
  private readonly procs: NsProcess[] = [];
  private readonly dir: string;
  private clients = 0;

  constructor(private readonly ctx: CompareContext) {
    this.dir = join(ctx.runDir, "compare");
  }

  private redisClock(port: number): string {
    return join(this.dir, `redis-clock-${port}`);
  }

  async start(): Promise<void> {
    mkdirSync(this.dir, { recursive: true });
    const shim = await buildShim("clock-jump");
    for (const port of [SINGLE_PORT, ...REDLOCK_PORTS]) {
      writeFileSync(this.redisClock(port), "+0\n");
      mkdirSync(join(this.dir, `redis-${port}`), { recursive: true });
      const redis = new NsProcess({
        name: `redis-${port}`,
        ns: 4,
        script: "",
        args: [],
        logPath: join(this.dir, `redis-${port}.log`),
        env: { LD_PRELOAD: shim, CLOCK_JUMP_FILE: this.redisClock(port) },
        command: [
          "redis-server",
          "--port",
          String(port),
          "--bind",
          "0.0.0.0",
          "--protected-mode",
          "no",
          "--save",
          "",
          "--appendonly",
          "no",
          "--daemonize",
          "no",
          "--dir",
          join(this.dir, `redis-${port}`),
        ],
      });
      redis.start();
      this.procs.push(redis);
    }
    for (const [port, fenced] of [
      [FENCED_STORE, true],
      [UNFENCED_STORE, false],
    ] as const) {
      const store = new NsProcess({
        name: `store-${port}`,
        ns: 4,
        script: "chaos/store.ts",
        logPath: join(this.dir, `store-${port}.log`),
        args: ["--port", String(port), ...(fenced ? [] : ["--no-fence"])],
        onLine: (line: Line) => {
          if (line.t === "admit") this.admissions.push(line);
        },
      });
      store.start();
      this.procs.push(store);
    }
    await sleep(3_000);
  }

  async stop(): Promise<void> {
    await Promise.all(this.procs.map((p) => p.kill()));
  }

  private client(system: System, ns: number, lock: string, key: string, ttlMs: number): StepClient {
    const name = `${system}-${++this.clients}`;
    const redisServers = (system === "redis" ? [SINGLE_PORT] : REDLOCK_PORTS)
      .map((p) => `${addressOf(4)}:${p}`)
      .join(",");
    const store = `http://${addressOf(4)}:${system === "palisade" ? FENCED_STORE : UNFENCED_STORE}`;
    return new StepClient(
      name,
      ns,
      [
        "--system",
        system,
        "--name",
        name,
        "--endpoints",
        this.ctx.endpoints,
        "--redis",
        redisServers,
        "--store",
        store,
        "--lock",
        lock,
        "--key",
        key,
        "--ttl",
        String(ttlMs),
      ],
      this.dir,
    );
  }

  /** Lost updates on `key`: admitted writes based on a value someone else had already changed. */
  private lostUpdates(key: string): string[] {
    return this.admissions
      .filter((a) => a.key === key && a.access === "write" && a.basedOn !== a.before)
      .map(
        (a) =>
          `lost update: ${a.session}'s write of ${a.value} (based on ${a.basedOn}) overwrote ${a.before}`,
      );
  }

  /** Client 1 acquires and reads, is stopped past its lease; client 2 acquires, reads, writes; client 1 resumes and writes. */
  async pausedPastLease(system: System): Promise<ScenarioResult> {
    const key = `pause-${system}`;
    const ttl = 2_000;
    const a = this.client(system, 4, `cmp/pause/${system}`, key, ttl);
    const b = this.client(system, 4, `cmp/pause/${system}`, key, ttl);
    const result: ScenarioResult = {
      scenario: "client paused past its lease",
      system,
      violations: [],
      notes: [],
    };
    try {
      await Promise.all([a.ready(), b.ready()]);
      const got = await a.step("acquire");
      if (got.ok !== true) throw new Error(`client 1 not granted: ${JSON.stringify(got)}`);
      await a.step("read");
      a.proc.signal("SIGSTOP");
      await sleep(ttl + 2_500);
      const got2 = await b.step("acquire");
      result.notes.push(
        `client 2 ${got2.ok === true ? "granted" : "not granted"} while client 1 was stopped`,
      );
      if (got2.ok === true) {
        await b.step("read");
        await b.step("write");
        await b.step("release");
      }
      a.proc.signal("SIGCONT");
      const late = await a.step("write");
      result.notes.push(`client 1's late write answered ${String(late.status)}`);
      if (late.status === 204 && got2.ok === true)
        result.violations.push(
          "client 1 wrote after its lease had passed and client 2 had written",
        );
      result.violations.push(...this.lostUpdates(key));
    } catch (err) {
      result.notes.push(`scenario error: ${(err as Error).message}`);
    } finally {
      await Promise.all([a.exit(), b.exit()]);
    }
    return result;
  }

  /** Three clients run the counter task in a loop (TTL 1 s) while the plan stops them, one at a time. */
  async randomPauses(system: System, plan: PausePlan): Promise<ScenarioResult> {
    const key = `loop-${system}`;
    const clients = [0, 1, 2].map(() => this.client(system, 4, `cmp/loop/${system}`, key, 1_000));
    const result: ScenarioResult = {
      scenario: `random pauses (${plan.pauses.length}, ${plan.ms / 1000} s)`,
      system,
      violations: [],
      notes: [],
    };
    try {
      await Promise.all(clients.map((c) => c.ready()));
      const started = Date.now();
      const answers = Promise.all(clients.map((c) => c.startLoop(plan.ms)));
      for (const [who, at, length] of plan.pauses) {
        await sleep(Math.max(0, started + at - Date.now()));
        clients[who].proc.signal("SIGSTOP");
        await sleep(length);
        clients[who].proc.signal("SIGCONT");
      }
      const done = await answers;
      const acked = done.reduce((n, a) => n + Number(a.acked ?? 0), 0);
      const refused = done.reduce((n, a) => n + Number(a.refused ?? 0), 0);
      const writes = this.admissions.filter((a) => a.key === key && a.access === "write");
      const value = writes.length > 0 ? writes[writes.length - 1].value : 0;
      result.notes.push(
        `${acked} increments acknowledged, ${refused} refused by the fence, final counter ${value}`,
      );
      if (value < acked)
        result.violations.push(`counter ${value} below ${acked} acknowledged increments`);
      const lost = this.lostUpdates(key);
      if (lost.length > 0) result.violations.push(`${lost.length} lost updates, e.g. ${lost[0]}`);
    } catch (err) {
      result.notes.push(`scenario error: ${(err as Error).message}`);
    } finally {
      await Promise.all(clients.map((c) => c.exit()));
    }
    return result;
  }

  /**
   * Client 1 (in n5) is cut off from two Redis servers and acquires on the other three;
   * the clock of one of those three jumps forward past the TTL; client 2 acquires; both
   * read and write. Palisade: client 1 holds the lock and the wall clocks of two nodes
   * (the leader among them) jump an hour forward; client 2 must not be granted.
   */
  async clockJump(system: System): Promise<ScenarioResult> {
    const key = `clock-${system}`;
    const ttl = system === "palisade" ? 3_000 : 8_000;
    const a = this.client(system, 5, `cmp/clock/${system}`, key, ttl);
    const b = this.client(system, 4, `cmp/clock/${system}`, key, ttl);
    const result: ScenarioResult = {
      scenario: "clock jump, client 1 cut off from two servers",
      system,
      violations: [],
      notes: [],
    };
    const jumped: string[] = [];
    try {
      await Promise.all([a.ready(), b.ready()]);
      if (system === "redlock") {
        await this.ctx.net.blockPorts(5, 4, [REDLOCK_PORTS[3], REDLOCK_PORTS[4]]);
      }
      const got = await a.step("acquire");
      if (got.ok !== true) throw new Error(`client 1 not granted: ${JSON.stringify(got)}`);
      result.notes.push(
        `client 1 granted${Array.isArray(got.servers) ? ` by ${got.servers.join(",")}` : ""}`,
      );
      if (system === "palisade") {
        const leader = this.ctx.leader() || 1;
        for (const n of [leader, leader === 1 ? 2 : 1]) {
          writeFileSync(this.ctx.clockFile(n), "+3600\n");
          jumped.push(this.ctx.clockFile(n));
        }
      } else {
        const port = system === "redis" ? SINGLE_PORT : REDLOCK_PORTS[2];
        writeFileSync(this.redisClock(port), `+${(ttl / 1000) * 2}\n`);
        jumped.push(this.redisClock(port));
      }
      await sleep(1_500);
      const got2 = await b.step("acquire");
      const both = got2.ok === true;
      result.notes.push(
        `client 2 ${both ? `granted${Array.isArray(got2.servers) ? ` by ${got2.servers.join(",")}` : ""}` : "not granted"} while client 1 held the lock`,
      );
      if (both) result.violations.push("two clients held the lock at once");
      await a.step("read");
      if (both) await b.step("read");
      if (both) await b.step("write");
      await a.step("write");
      result.violations.push(...this.lostUpdates(key));
      await a.step("release");
      if (both) await b.step("release");
    } catch (err) {
      result.notes.push(`scenario error: ${(err as Error).message}`);
    } finally {
      for (const file of jumped) writeFileSync(file, "+0\n");
      await this.ctx.net.heal().catch(() => undefined);
      await Promise.all([a.exit(), b.exit()]);
    }
    return result;
  }
}

/** Per key: admitted writes, and the final counter. */
export interface CounterTally {
  writes: number;
  value: number;
}

export interface PausePlan {
  /** Pauses as [client index, start ms, length ms], drawn from the run's seed. */
  pauses: [number, number, number][];
  ms: number;
}

/** A pause plan for `clients` clients over `ms`: pauses of 1.5–3.5 s, past the 1 s TTL. */
export function pausePlan(random: () => number, clients: number, ms: number): PausePlan {
  const pauses: [number, number, number][] = [];
  for (let at = 500; at < ms - 4_000; at += 1_000 + Math.floor(random() * 2_000)) {
    pauses.push([Math.floor(random() * clients), at, 1_500 + Math.floor(random() * 2_000)]);
  }
  return { pauses, ms };
}

/** Runs the scenarios for Palisade and each compared system; returns the results. */
export async function runComparison(
  systems: System[],
  ctx: CompareContext,
  random: () => number,
): Promise<ScenarioResult[]> {
  const comparison = new Comparison(ctx);
  // One plan for every system: the same pauses at the same moments.
  const plan = pausePlan(random, 3, 20_000);
  const results: ScenarioResult[] = [];
  try {
    await comparison.start();
    for (const system of ["palisade", ...systems] as System[]) {
      ctx.say(`comparison: ${system}`);
      results.push(await comparison.pausedPastLease(system));
      results.push(await comparison.clockJump(system));
      results.push(await comparison.randomPauses(system, plan));
    }
  } finally {
    await comparison.stop();
  }
  return results;
}
