// Summarises V8 CPU profiles (`node --cpu-prof`) as text: where a process spent its time,
// by part of the stack (gRPC, protobuf, LevelDB, Raft core, lock state machine, host,
// server, client, Node internals, GC, idle) and by function, self time.
//
//   node dist/bench/profile-summary.js PROFILE.cpuprofile [...] [--top N]
//
// With the benchmark: PALISADE_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" PARTS=throughput \
//   MODES=uncontended CONCS=64 npm run bench, then this on the leader's profile (the largest).
import { readFileSync } from "node:fs";
import { basename } from "node:path";

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}

interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** The part of the stack a frame belongs to, from its script's path. */
export function partOf(frame: CallFrame): string {
  const { url, functionName } = frame;
  if (functionName === "(garbage collector)") return "GC";
  if (functionName === "(idle)") return "idle";
  if (functionName === "(program)") return "V8/native (program)";
  if (url === "") return "native";
  if (url.includes("@grpc/grpc-js")) return "grpc-js";
  if (url.includes("protobufjs") || url.includes("proto/gen/")) return "protobuf";
  if (url.includes("classic-level") || url.includes("abstract-level") || url.includes("/level"))
    return "LevelDB binding";
  if (url.includes("/node/raft/")) return "Raft core";
  if (url.includes("/node/lock/")) return "lock state machine";
  if (url.includes("/node/host/")) return "host (driver, requests)";
  if (url.includes("/node/api/")) return "client API (services, stream)";
  if (url.includes("/node/ops/")) return "operations (metrics, health, status page)";
  if (url.includes("/node/server/")) return "server (composition)";
  if (url.includes("/node/transport/")) return "peer transport";
  if (url.includes("/node/storage/")) return "storage";
  if (url.includes("/proto/")) return "wire helpers";
  if (url.includes("/client/")) return "client library";
  if (url.includes("prom-client")) return "metrics";
  if (url.includes("pino")) return "logging";
  if (url.includes("/bundle/")) return "node bundle (other)";
  if (url.startsWith("node:")) return "Node internals";
  if (url.includes("node_modules")) return "other dependencies";
  return "other";
}

export interface Summary {
  totalMs: number;
  parts: Array<{ part: string; ms: number; share: number }>;
  functions: Array<{ fn: string; part: string; ms: number; share: number }>;
}

export function summarise(profile: CpuProfile, top = 25): Summary {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const selfUs = new Map<number, number>();
  for (let i = 0; i < profile.samples.length; i++) {
    const id = profile.samples[i] as number;
    selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  }
  const parts = new Map<string, number>();
  const fns = new Map<string, { part: string; us: number }>();
  let total = 0;
  for (const [id, us] of selfUs) {
    const frame = byId.get(id)?.callFrame;
    if (!frame) continue;
    total += us;
    const part = partOf(frame);
    parts.set(part, (parts.get(part) ?? 0) + us);
    const where = frame.url === "" ? "" : ` ${basename(frame.url)}:${frame.lineNumber + 1}`;
    const key = `${frame.functionName || "(anonymous)"}${where}`;
    const f = fns.get(key) ?? { part, us: 0 };
    f.us += us;
    fns.set(key, f);
  }
  const share = (us: number): number => (total === 0 ? 0 : us / total);
  return {
    totalMs: total / 1000,
    parts: [...parts]
      .sort((a, b) => b[1] - a[1])
      .map(([part, us]) => ({ part, ms: us / 1000, share: share(us) })),
    functions: [...fns]
      .sort((a, b) => b[1].us - a[1].us)
      .slice(0, top)
      .map(([fn, f]) => ({ fn, part: f.part, ms: f.us / 1000, share: share(f.us) })),
  };
}

function render(name: string, s: Summary): string {
  const pct = (x: number): string => `${(x * 100).toFixed(1)}%`;
  const lines = [
    `## ${name}: ${s.totalMs.toFixed(0)} ms sampled`,
    "",
    "| part | self ms | share |",
    "|---|---:|---:|",
  ];
  for (const p of s.parts) lines.push(`| ${p.part} | ${p.ms.toFixed(0)} | ${pct(p.share)} |`);
  lines.push("", "| function (self time) | part | ms | share |", "|---|---|---:|---:|");
  for (const f of s.functions)
    lines.push(
      `| ${f.fn.replace(/\|/g, "\\|")} | ${f.part} | ${f.ms.toFixed(0)} | ${pct(f.share)} |`,
    );
  return lines.join("\n");
}

function main(argv: string[]): void {
  let top = 25;
  const files: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === "--top") top = Number(argv[++i]);
    else files.push(argv[i] as string);
  }
  if (files.length === 0) {
    process.stderr.write("usage: profile-summary PROFILE.cpuprofile [...] [--top N]\n");
    process.exit(2);
  }
  for (const file of files) {
    const profile = JSON.parse(readFileSync(file, "utf8")) as CpuProfile;
    process.stdout.write(`${render(basename(file), summarise(profile, top))}\n\n`);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) main(process.argv.slice(2));
