// npm run chaos -- --seed S --minutes M [--clock-rate]
// A real three-node Palisade cluster in network namespaces n1..n3, client workers, the
// fenced store and an observer in n4, faults from the seed (see faults.ts), then the
// checks (see checks.ts). Prints faults by kind, operations checked and a verdict, writes
// the history, exits 1 on any violation. Everything it set up is torn down at exit.
// --clock-rate adds restarts of a node under a monotonic clock running at another rate
// (clock-rate.ts); the client-deadline check, which such rates break by design, is then
// skipped. Before the faults, a minute of load on the Stream RPC (stream-phase.ts) checks
// that many waits cost a client no session and that a client that never reads its answers
// does not grow the leader; --skip-stream-load leaves it out.
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { runChecks, type RunRecords } from "./checks.ts";
import { nowUs } from "./clock.ts";
import { clockRateEnv, verifyClockRate } from "./clock-rate.ts";
import { runComparison, type ScenarioResult, type System } from "./compare/scenarios.ts";
import { FaultSchedule, type FaultKind } from "./faults.ts";
import type { NetnsLab } from "./fault/netns-lab.ts";
import {
  FAKETIME_LIB,
  addressOf,
  checkPrerequisites,
  cleanLeftovers,
  openChaosLab,
} from "./netns.ts";
import { NsProcess, killAll } from "./procs.ts";
import type { FinalRecord, Line } from "./protocol.ts";
import { Rng } from "./rng.ts";
import { dropRunLock, takeRunLock } from "./run-lock.ts";
import { runStreamPhase, streamPhaseLines, type StreamPhaseReport } from "./stream-phase.ts";

const USAGE =
  "usage: npm run chaos -- --seed N --minutes M [--workers W] [--clock-rate] [--skip-stream-load] [--unfenced-store] [--compare SYSTEMS] [--out DIR]";

function parsed(): ReturnType<typeof parseOptions> {
  try {
    return parseOptions();
  } catch (err) {
    // An unknown or malformed option: say which, then how to call it, with no stack.
    console.error(`${(err as Error).message}\n${USAGE}`);
    process.exit(2);
  }
}

const parseOptions = () =>
  parseArgs({
    options: {
      help: { type: "boolean", short: "h", default: false },
      seed: { type: "string", default: "1" },
      minutes: { type: "string", default: "3" },
      workers: { type: "string", default: "5" },
      // Self-check of the suite: a store without the fence must make the checks fail.
      "unfenced-store": { type: "boolean", default: false },
      // Also run the Redis designs through the scripted scenarios (never changes the exit status).
      compare: { type: "string" },
      // Also restart nodes under monotonic clocks running at rates beyond the drift bound.
      "clock-rate": { type: "boolean", default: false },
      // Leave out the minute of load on the Stream RPC before the faults.
      "skip-stream-load": { type: "boolean", default: false },
      out: { type: "string" },
    },
  });
const { values } = parsed();
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}
const seed = Number(values.seed);
const minutes = Number(values.minutes);
if (!Number.isInteger(seed) || !(minutes > 0)) {
  console.error(USAGE);
  process.exit(2);
}
// Outside the repository: its data/ is shared with other local runs that may clear it.
const runDir = resolve(values.out ?? join("/var/tmp/palisade-chaos", `seed-${seed}`));
const clockRate = values["clock-rate"];
const startedAt = Date.now();
const elapsed = (): string => `${((Date.now() - startedAt) / 1000).toFixed(1)}s`;
const say = (msg: string): void => console.log(`[chaos ${elapsed()}] ${msg}`);
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

const compareWith = (values.compare ?? "").split(",").filter((s) => s !== "") as System[];
for (const system of compareWith) {
  if (system !== "redis" && system !== "redlock") {
    console.error(`--compare: unknown system ${system} (redis, redlock)`);
    process.exit(2);
  }
}

const SESSION_TTL_MS = 3_000;
/** How long the workers use one set of lock names (see epochUs below). */
const LOCK_GENERATION_MS = 120_000;
const CLIENT_PORT = 7100;
const PEER_PORT = 7000;
const NODE_IDS = [1, 2, 3];
const endpoints = NODE_IDS.map((i) => `${addressOf(i)}:${CLIENT_PORT}`).join(",");

const lines: Line[] = [];
const faultLog: string[] = [];
let leader = 0;
let final: FinalRecord | undefined;
let lab: NetnsLab | undefined;
const nodes = new Map<number, NsProcess>();
const workers: NsProcess[] = [];

const grantWaiters: ((worker: string) => void)[] = [];

function collect(line: Line): void {
  if (line.t === "leader") leader = line.id;
  if (line.t === "op" && line.out?.kind === "granted" && line.lock.startsWith("counter/")) {
    for (const resolveGrant of grantWaiters.splice(0)) resolveGrant(line.worker);
  }
  if (line.t === "final") final = line;
  if (line.t === "log") return;
  lines.push(line);
}

async function waitFor(what: string, check: () => boolean, ms: number): Promise<void> {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

function printComparison(results: ScenarioResult[]): void {
  console.log("\nScripted scenarios (the Redis designs' violations never change the exit status):");
  for (const r of results) {
    const verdict =
      r.violations.length === 0 ? "no violation" : `${r.violations.length} VIOLATION(S)`;
    console.log(`  ${r.system.padEnd(9)} ${r.scenario.padEnd(48)} ${verdict}`);
    for (const n of r.notes) console.log(`      ${n}`);
    for (const v of r.violations) console.log(`      ! ${v}`);
  }
}

let tornDown = false;
async function teardown(): Promise<void> {
  if (tornDown) return;
  tornDown = true;
  await killAll().catch(() => undefined);
  await lab?.close().catch((err: unknown) => console.error(`teardown: ${(err as Error).message}`));
  dropRunLock();
}

function onSignal(sig: NodeJS.Signals): void {
  console.error(`\n[chaos] ${sig}: tearing down`);
  void teardown().finally(() => process.exit(130));
}

async function main(): Promise<number> {
  const missing = checkPrerequisites();
  if (missing.length > 0) {
    console.error(`chaos: missing prerequisites:\n  ${missing.join("\n  ")}`);
    return 2;
  }
  const holder = takeRunLock();
  if (holder !== undefined) {
    console.error(
      `chaos: another chaos run (pid ${holder}) is using the namespaces; stop it first`,
    );
    tornDown = true; // nothing of ours to tear down, and its namespaces are not ours
    return 2;
  }
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  if (await cleanLeftovers()) say("removed leftovers of an earlier run");
  rmSync(runDir, { recursive: true, force: true });
  mkdirSync(runDir, { recursive: true });
  say(
    `seed ${seed}, ${minutes} min${clockRate ? ", with clock-rate faults" : ""}, run directory ${runDir}`,
  );
  if (clockRate) {
    // A rate libfaketime did not apply would make the fault a plain restart: refuse.
    const probe = await verifyClockRate(2);
    say(
      `clock-rate: a Node process under libfaketime x2 saw ${probe.hrtimeMs.toFixed(0)} ms of hrtime and its ${probe.timerMs} ms timer fire in ${probe.hostMs.toFixed(0)} ms of host time`,
    );
  }
  lab = await openChaosLab();
  const net = lab;

  const config = {
    clusterId: "palisade-chaos",
    nodes: NODE_IDS.map((id) => ({
      id,
      peerAddress: `${addressOf(id)}:${PEER_PORT}`,
      clientAddress: `${addressOf(id)}:${CLIENT_PORT}`,
      dataDir: join(runDir, `node-${id}`),
    })),
    raft: { tickMs: 50, electionTicks: 10, heartbeatTicks: 1 },
    limits: { minTtlMs: 500 },
    disk: { reserveBytes: 0 },
  };
  const configPath = join(runDir, "cluster.json");
  writeFileSync(configPath, JSON.stringify(config, null, 2));
  const clockFile = (id: number): string => join(runDir, `clock-${id}`);
  for (const id of NODE_IDS) {
    writeFileSync(clockFile(id), "+0\n");
    const node = new NsProcess({
      name: `node-${id}`,
      ns: id,
      script: "bin/palisade.mjs",
      logPath: join(runDir, `node-${id}.log`),
      args: ["node", "--config", configPath, "--id", String(id), "--log-format", "json"],
      env: {
        LD_PRELOAD: FAKETIME_LIB,
        FAKETIME_DONT_FAKE_MONOTONIC: "1",
        FAKETIME_TIMESTAMP_FILE: clockFile(id),
        FAKETIME_CACHE_DURATION: "1",
        NODE_ENV: "production",
      },
    });
    nodes.set(id, node);
    node.start();
  }
  const observer = new NsProcess({
    name: "observer",
    ns: 4,
    script: "chaos/observer.ts",
    args: ["--endpoints", endpoints],
    onLine: collect,
    logPath: join(runDir, "observer.log"),
  });
  observer.start();
  await waitFor("a leader", () => leader !== 0, 60_000);
  say(`leader: node ${leader}`);
  await sleep(500); // the observer's watch is pinned by now
  let storeReady = false;
  const store = new NsProcess({
    name: "store",
    ns: 4,
    script: "chaos/store.ts",
    args: ["--port", "8080", ...(values["unfenced-store"] ? ["--no-fence"] : [])],
    logPath: join(runDir, "store.log"),
    onLine: (line) => (line.t === "ready" ? (storeReady = true) : collect(line)),
  });
  store.start();
  await waitFor("the store", () => storeReady, 30_000);

  const rng = new Rng(seed);
  const workerCount = Number(values.workers);
  // Lock names (and the store keys they fence) change every LOCK_GENERATION_MS, on one clock
  // for all workers: a lock's history stays a few thousand operations long however long the
  // run, so the linearizability search over it finishes.
  const epochUs = nowUs();
  // The last worker runs in n5: the one that can be cut off from the cluster but not from the store.
  for (let w = 1; w <= workerCount; w++) {
    const worker = new NsProcess({
      name: `w${w}`,
      ns: w === workerCount ? 5 : 4,
      script: "chaos/worker.ts",
      logPath: join(runDir, `w${w}.log`),
      onLine: collect,
      args: [
        "--name",
        `w${w}`,
        "--seed",
        String(rng.fork()),
        "--endpoints",
        endpoints,
        "--store",
        `http://${addressOf(4)}:8080`,
        "--counters",
        "a,b,c",
        "--locks",
        "p1,p2,p3",
        "--loops",
        "2",
        "--ttl",
        String(SESSION_TTL_MS),
        "--epoch-us",
        String(epochUs),
        "--generation-ms",
        String(LOCK_GENERATION_MS),
      ],
    });
    workers.push(worker);
    worker.start();
  }
  let streamPhase: StreamPhaseReport | undefined;
  let streamPhaseError: string | undefined;
  if (!values["skip-stream-load"]) {
    say(`${workerCount} workers started; a minute of load on the Stream RPC first`);
    try {
      streamPhase = await runStreamPhase({
        runDir,
        endpoints,
        endpointOf: (id) => `${addressOf(id)}:${CLIENT_PORT}`,
        leader: () => leader,
        pidOf: (id) => nodes.get(id)?.pid,
        say,
      });
    } catch (err) {
      streamPhaseError = `stream load: ${(err as Error).message}`;
    }
  }
  say(`${workerCount} workers started; faults for ${minutes} min`);

  const schedule = new FaultSchedule(new Rng(rng.fork()), {
    net,
    nodes,
    workers,
    leader: () => leader,
    clockFile,
    ...(clockRate
      ? {
          clockRateEnv: (_id: number, rate: number) => ({
            ...clockRateEnv(rate),
            NODE_ENV: "production",
          }),
        }
      : {}),
    nextCounterGrant: (ms) =>
      new Promise((resolveGrant) => {
        grantWaiters.push(resolveGrant);
        setTimeout(() => resolveGrant(undefined), ms);
      }),
    log: (msg) => {
      faultLog.push(`${elapsed()} ${msg}`);
      if (process.env.CHAOS_VERBOSE) say(msg);
    },
  });
  const progress = setInterval(
    () =>
      say(
        `${lines.filter((l) => l.t === "op").length} operations, ${[...schedule.counts.values()].reduce((a, b) => a + b, 0)} faults, leader ${leader}`,
      ),
    30_000,
  );
  await schedule.run(minutes * 60_000);
  clearInterval(progress);

  // Heal everything, then let the workers run on a healthy cluster before stopping them.
  say("faults over: healing");
  await net.clear();
  for (const p of [...nodes.values(), ...workers]) p.signal("SIGCONT");
  for (const id of NODE_IDS) writeFileSync(clockFile(id), "+0\n");
  for (const node of nodes.values()) if (!node.running) node.start();
  const opsAtHeal = lines.filter((l) => l.t === "op" && l.out?.kind === "granted").length;
  await sleep(8_000);
  const grantsAfterHeal =
    lines.filter((l) => l.t === "op" && l.out?.kind === "granted").length - opsAtHeal;
  for (const w of workers) w.send("stop");
  const stuck: string[] = [];
  for (const w of workers) if (!(await w.waitExit(30_000))) stuck.push(w.options.name);
  for (const name of stuck) await workers.find((w) => w.options.name === name)?.kill();
  await sleep(SESSION_TTL_MS + 1_000); // sessions of lost clients expire
  observer.send("final");
  await waitFor("the final reading", () => final !== undefined, 120_000);
  observer.send("stop");
  await observer.waitExit(5_000);
  store.signal("SIGTERM");
  await store.waitExit(5_000);

  const records: RunRecords = {
    ops: [],
    sessions: [],
    increments: [],
    sharedReads: [],
    admissions: [],
    refusals: [],
    watch: [],
    final: final!,
  };
  for (const l of lines) {
    if (l.t === "op") records.ops.push(l);
    else if (l.t === "session") records.sessions.push(l);
    else if (l.t === "incr") records.increments.push(l);
    else if (l.t === "sread") records.sharedReads.push(l);
    else if (l.t === "admit") records.admissions.push(l);
    else if (l.t === "refuse") records.refusals.push(l);
    else if (l.t === "watch") records.watch.push(l);
  }
  const historyPath = join(runDir, "history.jsonl");
  writeFileSync(historyPath, lines.map((l) => JSON.stringify(l)).join("\n") + "\n");
  writeFileSync(join(runDir, "faults.log"), faultLog.join("\n") + "\n");
  say("checking");
  const report = runChecks(records, { clientDeadline: !clockRate });
  if (stuck.length > 0)
    report.violations.push(`workers did not stop within 30 s: ${stuck.join(", ")}`);
  if (streamPhase) report.violations.push(...streamPhase.violations);
  if (streamPhaseError) report.violations.push(streamPhaseError);

  console.log(`\nFaults injected (seed ${seed}${clockRate ? ", --clock-rate" : ""}):`);
  const kinds = [...schedule.counts.entries()].sort(([a], [b]) => a.localeCompare(b)) as [
    FaultKind,
    number,
  ][];
  for (const [kind, n] of kinds) console.log(`  ${kind.padEnd(20)} ${n}`);
  console.log(`  ${"total".padEnd(20)} ${kinds.reduce((a, [, n]) => a + n, 0)}`);
  console.log("Operations:");
  const byKind = new Map<string, number>();
  for (const op of records.ops) {
    const k = `${op.kind} ${op.ret === null ? "unknown" : (op.out?.kind ?? "?")}`;
    byKind.set(k, (byKind.get(k) ?? 0) + 1);
  }
  for (const [k, n] of [...byKind].sort(([a], [b]) => a.localeCompare(b)))
    console.log(`  ${k.padEnd(34)} ${n}`);
  console.log("Checks:");
  for (const [k, n] of Object.entries(report.counts)) console.log(`  ${k.padEnd(42)} ${n}`);
  console.log(`  ${"grants in the 8 s after healing".padEnd(42)} ${grantsAfterHeal}`);
  if (streamPhase) for (const line of streamPhaseLines(streamPhase)) console.log(line);
  else console.log(`  stream load: ${streamPhaseError ?? "skipped (--skip-stream-load)"}`);
  for (const why of report.skipped) console.log(`  skipped: ${why}`);
  console.log(`History: ${historyPath} (faults: ${join(runDir, "faults.log")})`);
  if (compareWith.length > 0) {
    const compareRng = new Rng(seed + 1_000_003);
    const results = await runComparison(
      compareWith,
      { net, runDir, endpoints, clockFile, leader: () => leader, say },
      () => compareRng.next(),
    );
    printComparison(results);
    for (const r of results)
      if (r.system === "palisade")
        report.violations.push(...r.violations.map((v) => `scripted ${r.scenario}: ${v}`));
  }
  if (report.violations.length === 0) {
    console.log(`VERDICT: PASS — no violation (seed ${seed}, ${elapsed()})`);
    return 0;
  }
  console.log(`VERDICT: FAIL — ${report.violations.length} violation(s) (seed ${seed}):`);
  for (const v of report.violations.slice(0, 50)) console.log(`  - ${v}`);
  return 1;
}

let code: number;
try {
  code = await main();
} catch (err) {
  console.error(`chaos: ${(err as Error).stack ?? String(err)}`);
  code = 1;
} finally {
  await teardown();
}
process.exit(code);
