// Builds and removes a lab's namespaces: one bridge that exists only on this host, a veth
// per member with its address, and in each member the empty iptables chains the network
// faults fill. The lab's /24 gets an "unreachable" route on the host (behind the bridge's
// own route when the host has an address there), so nothing addressed to it can leave the
// machine, even after the bridge is gone.
import { run, tryRun } from "./command.ts";
import {
  addressOf,
  checkSpec,
  hostAddressOf,
  members,
  namespaceOf,
  subnetOf,
  vethOf,
  type LabSpec,
} from "./lab-spec.ts";

/** Chains in each member's filter table, hooked in this order (partition before loss before delay). */
export const CHAINS = {
  in: "FAULT_IN",
  out: "FAULT_OUT",
  loss: "FAULT_LOSS",
  delay: "FAULT_DELAY",
} as const;

/** Metric of the safety route: above the bridge's own route for the subnet. */
const SAFETY_METRIC = "4242";

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

async function namespaceExists(name: string): Promise<boolean> {
  const out = (await tryRun("ip", ["netns", "list"])) ?? "";
  return out.split("\n").some((line) => line.split(" ")[0] === name);
}

/** Refuses a subnet that the host routes somewhere (other than to an unreachable route). */
async function checkSubnetFree(spec: LabSpec): Promise<void> {
  const routes = (await run("ip", ["-4", "route", "show", "to", "match", subnetOf(spec)])).split(
    "\n",
  );
  const taken = routes.filter(
    (r) => r.trim() !== "" && !r.startsWith("default") && !r.startsWith("unreachable"),
  );
  if (taken.length > 0)
    throw new Error(
      `lab ${spec.name}: ${subnetOf(spec)} is already routed on this host: ${taken.join("; ")}`,
    );
}

function memberRules(): string {
  return [
    "*filter",
    ...Object.values(CHAINS).map((chain) => `:${chain} - [0:0]`),
    `-A INPUT -j ${CHAINS.in}`,
    `-A OUTPUT -j ${CHAINS.out}`,
    `-A OUTPUT -j ${CHAINS.loss}`,
    `-A OUTPUT -j ${CHAINS.delay}`,
    "COMMIT",
    "",
  ].join("\n");
}

async function addMember(spec: LabSpec, member: number): Promise<void> {
  const ns = namespaceOf(spec, member);
  const veth = vethOf(spec, member);
  await run("ip", ["netns", "add", ns]);
  await run("ip", ["link", "add", veth, "type", "veth", "peer", "name", "eth0", "netns", ns]);
  await run("ip", ["-n", ns, "addr", "add", `${addressOf(spec, member)}/24`, "dev", "eth0"]);
  await run("ip", ["-n", ns, "link", "set", "eth0", "up"]);
  await run("ip", ["-n", ns, "link", "set", "lo", "up"]);
  await run("ip", ["link", "set", veth, "master", spec.bridge, "up"]);
  await run("ip", ["netns", "exec", ns, "iptables-restore", "-w"], { input: memberRules() });
}

/** Creates the lab from nothing; call destroyLab first if a leftover may be there. */
export async function createLab(spec: LabSpec): Promise<void> {
  checkSpec(spec);
  await checkSubnetFree(spec);
  await run("ip", ["route", "replace", "unreachable", subnetOf(spec), "metric", SAFETY_METRIC]);
  await run("ip", ["link", "add", spec.bridge, "type", "bridge"]);
  if (spec.hostAddress)
    await run("ip", ["addr", "add", `${hostAddressOf(spec)}/24`, "dev", spec.bridge]);
  await run("ip", ["link", "set", spec.bridge, "up"]);
  for (const member of members(spec)) await addMember(spec, member);
}

/** The pids of the processes running in a member's namespace. */
export async function pidsIn(spec: LabSpec, member: number): Promise<number[]> {
  const out = (await tryRun("ip", ["netns", "pids", namespaceOf(spec, member)])) ?? "";
  return out
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map(Number);
}

function signal(pid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(pid, sig);
  } catch {
    // already gone
  }
}

/**
 * Removes whatever of the lab exists: the processes still running in its namespaces (TERM,
 * then KILL; those are the lab's by construction), the namespaces, veths, bridge and route.
 * Idempotent. Returns whether anything was there.
 */
export async function destroyLab(spec: LabSpec): Promise<boolean> {
  let found = false;
  const present: number[] = [];
  for (const member of members(spec))
    if (await namespaceExists(namespaceOf(spec, member))) present.push(member);
  const pids = (await Promise.all(present.map((m) => pidsIn(spec, m)))).flat();
  for (const pid of pids) signal(pid, "SIGCONT");
  for (const pid of pids) signal(pid, "SIGTERM");
  for (let waited = 0; waited < 2_000 && pids.some((pid) => alive(pid)); waited += 100)
    await sleep(100);
  for (const pid of pids) signal(pid, "SIGKILL");
  for (const member of present) {
    found = true;
    await tryRun("ip", ["netns", "del", namespaceOf(spec, member)]);
  }
  for (const member of members(spec))
    if ((await tryRun("ip", ["link", "del", vethOf(spec, member)])) !== undefined) found = true;
  if ((await tryRun("ip", ["link", "del", spec.bridge])) !== undefined) found = true;
  // Every unreachable route for the subnet: ours, and one a run of an older kit left without a metric.
  for (
    let i = 0;
    i < 4 && (await tryRun("ip", ["route", "del", "unreachable", subnetOf(spec)])) !== undefined;
    i++
  )
    found = true;
  return found;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
