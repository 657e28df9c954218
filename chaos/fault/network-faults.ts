// Network faults between a lab's members, as iptables rules in each member's own chains
// (topology.ts): partitions and one-way drops (silent DROP, no reset, as a real partition),
// random loss, and delay with jitter through NFQUEUE and the nfq-delay program (this kind of
// kernel may lack netem). Traffic to or from the host's own address is never touched.
import { spawn, type ChildProcess } from "node:child_process";
import { findTool, run } from "./command.ts";
import { addressOf, members, namespaceOf, type LabSpec } from "./lab-spec.ts";
import { buildProgram } from "./shims.ts";
import { CHAINS } from "./topology.ts";

/** The NFQUEUE number of the delayer (queues are per namespace, so one number serves all). */
const DELAY_QUEUE = "0";

export class NetworkFaults {
  /** The nfq-delay processes, one per member while a delay is on. */
  private readonly delayers: ChildProcess[] = [];

  constructor(protected readonly spec: LabSpec) {}

  private check(member: number): void {
    if (!Number.isInteger(member) || member < 1 || member > this.spec.size)
      throw new Error(`lab ${this.spec.name}: no member ${member}`);
  }

  /** Replaces chains' contents in one member in one atomic iptables-restore. */
  private async setChains(
    member: number,
    chains: Partial<Record<string, string[]>>,
  ): Promise<void> {
    const lines = ["*filter"];
    for (const [chain, rules] of Object.entries(chains)) {
      lines.push(`-F ${chain}`);
      for (const rule of rules ?? []) lines.push(`-A ${chain} ${rule}`);
    }
    lines.push("COMMIT", "");
    await run(
      "ip",
      ["netns", "exec", namespaceOf(this.spec, member), "iptables-restore", "-w", "--noflush"],
      { input: lines.join("\n") },
    );
  }

  private async append(member: number, chain: string, rule: string[]): Promise<void> {
    this.check(member);
    await run("ip", [
      "netns",
      "exec",
      namespaceOf(this.spec, member),
      "iptables",
      "-w",
      "-A",
      chain,
      ...rule,
    ]);
  }

  /**
   * Cuts the members into `groups`: no packet crosses between groups, either way. Members
   * not named are each a group of their own. Replaces any earlier partition or drop.
   */
  async partition(groups: readonly (readonly number[])[]): Promise<void> {
    const groupOf = new Map<number, number>();
    groups.forEach((group, g) => {
      for (const m of group) {
        this.check(m);
        if (groupOf.has(m)) throw new Error(`member ${m} is in two groups`);
        groupOf.set(m, g);
      }
    });
    let next = groups.length;
    for (const m of members(this.spec)) if (!groupOf.has(m)) groupOf.set(m, next++);
    await Promise.all(
      members(this.spec).map((m) => {
        const others = members(this.spec)
          .filter((o) => groupOf.get(o) !== groupOf.get(m))
          .map((o) => addressOf(this.spec, o));
        return this.setChains(m, {
          [CHAINS.in]: others.map((a) => `-s ${a} -j DROP`),
          [CHAINS.out]: others.map((a) => `-d ${a} -j DROP`),
        });
      }),
    );
  }

  /** One way only: packets from `from` to `to` vanish; `to` still reaches `from`. Adds to what is there. */
  async drop(from: number, to: number): Promise<void> {
    this.check(to);
    await this.append(from, CHAINS.out, ["-d", addressOf(this.spec, to), "-j", "DROP"]);
  }

  /** TCP from `from` to `to`'s `ports` vanishes (one service cut off, others reachable). */
  async blockPorts(from: number, to: number, ports: readonly number[]): Promise<void> {
    this.check(to);
    await this.append(from, CHAINS.out, [
      "-d",
      addressOf(this.spec, to),
      "-p",
      "tcp",
      "-m",
      "multiport",
      "--dports",
      ports.join(","),
      "-j",
      "DROP",
    ]);
  }

  /** Ends every partition, drop and port block. */
  async heal(): Promise<void> {
    await Promise.all(
      members(this.spec).map((m) => this.setChains(m, { [CHAINS.in]: [], [CHAINS.out]: [] })),
    );
  }

  /** Each member drops `percent` % of what it sends, at random (0: none). */
  async loss(percent: number): Promise<void> {
    if (!(percent >= 0 && percent <= 100)) throw new Error(`loss ${percent}% out of 0..100`);
    const rules =
      percent === 0
        ? []
        : [
            `-o eth0 -m statistic --mode random --probability ${(percent / 100).toFixed(4)} -j DROP`,
          ];
    await Promise.all(members(this.spec).map((m) => this.setChains(m, { [CHAINS.loss]: rules })));
  }

  /** Each member's outgoing packets wait `ms` ± `jitterMs` (jitter reorders); 0 and 0: none. */
  async delay(ms: number, jitterMs = 0): Promise<void> {
    if (!(Number.isInteger(ms) && ms >= 0 && Number.isInteger(jitterMs) && jitterMs >= 0))
      throw new Error(`delay ${ms} ms ± ${jitterMs} ms: whole non-negative numbers`);
    await this.stopDelay();
    if (ms === 0 && jitterMs === 0) return;
    const program = await buildProgram("nfq-delay");
    for (const m of members(this.spec)) {
      const child = spawn(
        findTool("ip") ?? "ip",
        [
          "netns",
          "exec",
          namespaceOf(this.spec, m),
          program,
          DELAY_QUEUE,
          String(ms),
          String(jitterMs),
        ],
        { stdio: "ignore" },
      );
      child.on("error", () => undefined);
      this.delayers.push(child);
    }
    // The queue is bound before the rule sends packets to it; --queue-bypass lets packets
    // through, never drops them, should a delayer be missing.
    await new Promise((r) => setTimeout(r, 100));
    await Promise.all(
      members(this.spec).map((m) =>
        this.setChains(m, {
          [CHAINS.delay]: [`-o eth0 -j NFQUEUE --queue-num ${DELAY_QUEUE} --queue-bypass`],
        }),
      ),
    );
  }

  private async stopDelay(): Promise<void> {
    await Promise.all(
      members(this.spec).map((m) =>
        this.setChains(m, { [CHAINS.delay]: [] }).catch(() => undefined),
      ),
    );
    const stopping = this.delayers.splice(0).map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          child.once("exit", () => resolve());
          child.kill("SIGTERM");
          setTimeout(() => {
            child.kill("SIGKILL");
            resolve();
          }, 2_000).unref();
        }),
    );
    await Promise.all(stopping);
  }

  /** Heals, and ends loss and delay. */
  async clear(): Promise<void> {
    await this.heal();
    await this.loss(0);
    await this.stopDelay();
  }
}
