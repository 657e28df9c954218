// The network namespaces n1..n5 on the private bridge, through ../shared/netns/netns.sh:
// setup, network faults, and teardown (also of an earlier run's leftovers).
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { promisify } from "node:util";
import { PACKAGE_ROOT } from "../node/util/package-root.ts";

const run = promisify(execFile);

export const NETNS_SCRIPT = process.env.CHAOS_NETNS_SH ?? resolve(PACKAGE_ROOT, "../shared/netns/netns.sh");
export const STATE_DIR = process.env.CHAOS_STATE ?? "/run/chaos-netns";
export const NAMESPACES = 5;

export const addressOf = (ns: number): string => `10.77.0.${ns}`;

export async function netns(...args: string[]): Promise<string> {
  const { stdout } = await run("bash", [NETNS_SCRIPT, ...args], { timeout: 60_000 });
  return stdout.trim();
}

async function namespacesPresent(): Promise<boolean> {
  const { stdout } = await run("ip", ["netns", "list"]);
  const names = new Set(stdout.split("\n").map((l) => l.split(" ")[0]));
  return Array.from({ length: NAMESPACES }, (_, i) => `n${i + 1}`).some((n) => names.has(n));
}

/** Removes namespaces, bridge, route, rules and processes left by an earlier run. */
export async function cleanLeftovers(): Promise<boolean> {
  const leftover = existsSync(`${STATE_DIR}/nodes`) || (await namespacesPresent());
  if (!leftover) return false;
  // `up` first so that `down` knows every namespace even if the state file was lost.
  await netns("up", String(NAMESPACES)).catch(() => "");
  await netns("down");
  return true;
}

export function checkPrerequisites(): string[] {
  const missing: string[] = [];
  if (process.getuid?.() !== 0) missing.push("root (network namespaces and iptables)");
  if (!existsSync(NETNS_SCRIPT)) missing.push(`the netns toolkit at ${NETNS_SCRIPT} (set CHAOS_NETNS_SH)`);
  for (const bin of ["/usr/sbin/iptables", "/usr/sbin/ip", "/usr/bin/gcc"]) if (!existsSync(bin)) missing.push(bin);
  if (!existsSync(FAKETIME_LIB)) missing.push(`${FAKETIME_LIB} (apt-get install libfaketime)`);
  if (!existsSync("/usr/include/libnetfilter_queue/libnetfilter_queue.h")) missing.push("libnetfilter-queue-dev");
  if (missing.length > 0) missing.push("(run scripts/install-test-deps.sh)");
  return missing;
}

export const FAKETIME_LIB = "/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1";
