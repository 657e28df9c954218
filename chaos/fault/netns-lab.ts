// A lab of network namespaces owned by this process: claimed in the registry, built, its
// network faults, and torn down with everything running inside it. The chaos suite uses a
// fixed lab (chaos/netns.ts); tests take a fresh one from openTestLab, whose names and
// subnet no other lab on the host uses while it exists.
import { findTool } from "./command.ts";
import { addressOf, hostAddressOf, namespaceOf, type LabSpec } from "./lab-spec.ts";
import { NetworkFaults } from "./network-faults.ts";
import { claimLab, releaseLab } from "./registry.ts";
import { createLab, destroyLab } from "./topology.ts";

export class NetnsLab extends NetworkFaults {
  private closed = false;

  private constructor(override readonly spec: LabSpec) {
    super(spec);
  }

  /** Claims and builds the lab (after tearing down a leftover of the same name); undefined if a live process holds it. */
  static async open(spec: LabSpec): Promise<NetnsLab | undefined> {
    if (!(await claimLab(spec))) return undefined;
    try {
      await destroyLab(spec);
      await createLab(spec);
    } catch (err) {
      await destroyLab(spec).catch(() => false);
      releaseLab(spec.name);
      throw err;
    }
    return new NetnsLab(spec);
  }

  get size(): number {
    return this.spec.size;
  }

  namespace(member: number): string {
    return namespaceOf(this.spec, member);
  }

  address(member: number): string {
    return addressOf(this.spec, member);
  }

  /** The host's address on the lab's bridge (labs opened with hostAddress). */
  get hostAddress(): string {
    if (!this.spec.hostAddress) throw new Error(`lab ${this.spec.name} gives the host no address`);
    return hostAddressOf(this.spec);
  }

  /** The command prefix that runs a program inside a member: `ip netns exec NS` (it execs: the pid is the program's). */
  exec(member: number): string[] {
    return [findTool("ip") ?? "ip", "netns", "exec", this.namespace(member)];
  }

  /** Ends the faults, stops every process inside the lab, removes it and drops the claim. Idempotent. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.clear().catch(() => undefined);
    await destroyLab(this.spec);
    releaseLab(this.spec.name);
  }
}

/** Subnets of test labs: 10.78.X.0/24, apart from the chaos suite's 10.77.0.0/24. */
const TEST_SUBNET_BASE = "10.78";
const TEST_SLOTS = 200;

/**
 * A fresh lab of `size` members for a test, with an address for the host so the test
 * process reaches the members. Names and subnet come from a slot free on this host (tried
 * from one drawn from the pid, so two runs rarely race for the same one).
 */
export async function openTestLab(size: number): Promise<NetnsLab> {
  const start = process.pid % TEST_SLOTS;
  let lastError: unknown;
  for (let i = 0; i < TEST_SLOTS; i++) {
    const slot = ((start + i) % TEST_SLOTS) + 10;
    const spec: LabSpec = {
      name: `test-${slot}`,
      size,
      namespacePrefix: `palisade-t${slot}-`,
      vethPrefix: `plt${slot}v`,
      bridge: `plt${slot}br`,
      subnet: `${TEST_SUBNET_BASE}.${slot}`,
      hostAddress: true,
    };
    try {
      const lab = await NetnsLab.open(spec);
      if (lab) return lab;
    } catch (err) {
      // The subnet is routed by something else on this host: try the next slot.
      lastError = err;
    }
  }
  throw new Error(
    `no free test lab slot: ${(lastError as Error | undefined)?.message ?? "all taken"}`,
  );
}
