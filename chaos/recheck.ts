// Re-runs the checks on a history written by a chaos run:
//   npx tsx chaos/recheck.ts /var/tmp/palisade-chaos/seed-1/history.jsonl [--clock-rate]
// (--clock-rate for a run made with it: the client-deadline check is skipped, as there.)
import { readFileSync } from "node:fs";
import { runChecks, type RunRecords } from "./checks.ts";
import type { FinalRecord, Line } from "./protocol.ts";

const args = process.argv.slice(2);
const clockRate = args.includes("--clock-rate");
const path = args.find((a) => !a.startsWith("--"));
if (!path) {
  console.error("usage: npx tsx chaos/recheck.ts HISTORY.jsonl [--clock-rate]");
  process.exit(2);
}
const lines = readFileSync(path, "utf8")
  .trim()
  .split("\n")
  .map((l) => JSON.parse(l) as Line);
let final: FinalRecord | undefined;
const r: Omit<RunRecords, "final"> = {
  ops: [],
  sessions: [],
  increments: [],
  sharedReads: [],
  admissions: [],
  refusals: [],
  watch: [],
};
for (const l of lines) {
  if (l.t === "op") r.ops.push(l);
  else if (l.t === "session") r.sessions.push(l);
  else if (l.t === "incr") r.increments.push(l);
  else if (l.t === "sread") r.sharedReads.push(l);
  else if (l.t === "admit") r.admissions.push(l);
  else if (l.t === "refuse") r.refusals.push(l);
  else if (l.t === "watch") r.watch.push(l);
  else if (l.t === "final") final = l;
}
if (!final) {
  console.error(`${path}: no final record (the run did not finish)`);
  process.exit(2);
}
const report = runChecks({ ...r, final }, { clientDeadline: !clockRate });
for (const [k, n] of Object.entries(report.counts)) console.log(`${k.padEnd(48)} ${n}`);
for (const why of report.skipped) console.log(`skipped: ${why}`);
console.log(report.violations.length === 0 ? "PASS" : `FAIL:\n${report.violations.join("\n")}`);
process.exit(report.violations.length === 0 ? 0 : 1);
