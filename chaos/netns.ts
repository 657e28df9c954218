// The chaos suite's lab: namespaces n1..n5 (10.77.0.1-5) on the bridge chaosbr0, built and
// torn down with the fault kit (chaos/fault). Nodes run in n1..n3, clients in n4 and n5.
// The names stay fixed so that a run removes what a run that died left behind; the run
// lock (run-lock.ts) keeps two runs apart.
import { cleanStaleLabs } from "./fault/registry.ts";
import { addressOf as memberAddress, type LabSpec } from "./fault/lab-spec.ts";
import { NetnsLab } from "./fault/netns-lab.ts";
import { missingPrerequisites } from "./fault/prerequisites.ts";
import { destroyLab } from "./fault/topology.ts";

export { FAKETIME_LIB } from "./fault/prerequisites.ts";

export const NAMESPACES = 5;

export const CHAOS_LAB: LabSpec = {
  name: "chaos",
  size: NAMESPACES,
  namespacePrefix: "n",
  vethPrefix: "chvn",
  bridge: "chaosbr0",
  subnet: "10.77.0",
};

export const addressOf = (member: number): string => memberAddress(CHAOS_LAB, member);

/** Removes the chaos lab (and any other lab whose owner died) if an earlier run left it; true if there was one. */
export async function cleanLeftovers(): Promise<boolean> {
  const stale = await cleanStaleLabs();
  return (await destroyLab(CHAOS_LAB)) || stale.length > 0;
}

/** Builds the chaos lab; the run lock makes this process its only user. */
export async function openChaosLab(): Promise<NetnsLab> {
  const lab = await NetnsLab.open(CHAOS_LAB);
  if (!lab) throw new Error("the chaos lab is held by another live process");
  return lab;
}

export function checkPrerequisites(): string[] {
  return missingPrerequisites({ delay: true, faketime: true, shims: true });
}
