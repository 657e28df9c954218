// Compares how fast different node commands start, e.g. this checkout against another one:
// each command starts node 1 of a new three-node cluster file on an empty data directory,
// timed from spawn to its first Status answer (as startup-targets.ts times it), the
// commands taking turns so that machine noise hits them alike.
//
//   node dist/bench/startup-compare.js RUNS 'LABEL=DIR|NODE-ARGS' ...
//   e.g. node dist/bench/startup-compare.js 20 \
//          'tsx=/tmp/main|--import tsx node/cli/main.ts' 'bin=.|bin/palisade.mjs node'
// NODE-ARGS are what follows `node` (run in DIR); `--config FILE --id 1` is appended.
import { resolve } from "node:path";
import { spawn } from "node:child_process";
import { BenchCluster, makeTempDir, removeTempDir } from "./cluster-control.ts";
import { summarize, untilStatus } from "./startup-targets.ts";

interface Variant {
  label: string;
  cwd: string;
  args: string[];
  samples: number[];
}

function parseVariant(text: string): Variant {
  const match = /^([^=]+)=([^|]+)\|(.+)$/.exec(text);
  if (!match) throw new Error(`expected LABEL=DIR|NODE-ARGS, got "${text}"`);
  return {
    label: match[1],
    cwd: resolve(match[2]),
    args: match[3].split(" ").filter((a) => a !== ""),
    samples: [],
  };
}

async function once(variant: Variant): Promise<number> {
  const dir = makeTempDir("palisade-startup-compare-");
  try {
    const cluster = await BenchCluster.create(dir);
    const startedAt = performance.now();
    const child = spawn(
      process.execPath,
      [...variant.args, "--config", cluster.configPath, "--id", "1", "--log-format", "json"],
      {
        cwd: variant.cwd,
        stdio: "ignore",
      },
    );
    const exited = new Promise<void>((r) => child.once("exit", () => r()));
    try {
      return await untilStatus(
        cluster.endpointOf(1),
        startedAt,
        () => child.exitCode === null && child.signalCode === null,
        () => `${variant.label} exited`,
      );
    } finally {
      child.kill("SIGTERM");
      await exited;
    }
  } finally {
    removeTempDir(dir);
  }
}

async function main(argv: string[]): Promise<void> {
  const runs = Number(argv[0]);
  const variants = argv.slice(1).map(parseVariant);
  if (!Number.isInteger(runs) || runs < 1 || variants.length === 0) {
    throw new Error("usage: node dist/bench/startup-compare.js RUNS 'LABEL=DIR|NODE-ARGS' ...");
  }
  for (let i = 0; i < runs; i++) for (const v of variants) v.samples.push(await once(v));
  for (const v of variants) {
    const t = summarize(v.samples);
    process.stdout.write(
      `${v.label}: p50 ${t.p50_ms} ms, p90 ${t.p90_ms} ms, max ${t.max_ms} ms (${t.runs} runs)\n`,
    );
  }
}

main(process.argv.slice(2)).then(
  () => process.exit(0),
  (e: unknown) => {
    process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n`);
    process.exit(1);
  },
);
