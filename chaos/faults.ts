// The fault schedule: two lanes running side by side, each choosing its next fault from
// the seed — network faults (partitions, one-way drops, bridges, loss, delay) and
// process/clock faults (kill -9 and restart, SIGSTOP/SIGCONT of nodes and of workers,
// wall-clock jumps, and with --clock-rate restarts under a monotonic clock running at
// another rate). Each fault is undone before its lane picks the next one.
import { writeFileSync } from "node:fs";
import type { NetworkFaults } from "./fault/network-faults.ts";
import type { NsProcess } from "./procs.ts";
import type { Rng } from "./rng.ts";

export interface Target {
  /** The lab's network faults (members 1-3: nodes, 4 and 5: clients). */
  net: NetworkFaults;
  nodes: Map<number, NsProcess>;
  workers: NsProcess[];
  /** The worker that next reports a grant of a counter lock (undefined after `ms`). */
  nextCounterGrant(ms: number): Promise<string | undefined>;
  /** The leader the observer saw last (0 if none). */
  leader(): number;
  clockFile(node: number): string;
  /**
   * With --clock-rate only: the environment that starts a node under libfaketime with its
   * monotonic clock (and its wall clock) running `rate` times as fast as the host's.
   */
  clockRateEnv?: (node: number, rate: number) => Record<string, string>;
  log(msg: string): void;
}

export type FaultKind =
  | "partition-minority"
  | "partition-leader"
  | "one-way"
  | "bridge"
  | "loss"
  | "delay"
  | "cut-off-client"
  | "kill-node"
  | "kill-leader"
  | "pause-node"
  | "pause-leader"
  | "pause-worker"
  | "pause-holder"
  | "clock-jump"
  | "clock-rate";

/**
 * Monotonic-clock rates of the clock-rate fault: all far beyond the SPEC's drift bound
 * ρ = 0.01, slower and faster than the host.
 */
export const CLOCK_RATES = [0.5, 0.8, 1.25, 1.5, 2] as const;

const PROCESS_FAULTS: readonly FaultKind[] = [
  "kill-node",
  "kill-leader",
  "pause-node",
  "pause-leader",
  "pause-worker",
  "pause-holder",
  "clock-jump",
];

const NODES = [1, 2, 3];
// The clients' namespaces (4: workers, store, observer; 5: one more worker) stay on one side.
const CLIENTS = [4, 5];

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

export class FaultSchedule {
  readonly counts = new Map<FaultKind, number>();
  private deadline = 0;

  constructor(
    private readonly rng: Rng,
    private readonly target: Target,
  ) {}

  async run(ms: number): Promise<void> {
    this.deadline = Date.now() + ms;
    await Promise.all([this.lane(() => this.networkFault()), this.lane(() => this.processFault())]);
  }

  private get over(): boolean {
    return Date.now() >= this.deadline;
  }

  private async lane(next: () => Promise<void>): Promise<void> {
    while (!this.over) {
      await next();
      await sleep(this.rng.int(300, 2_500));
    }
  }

  private count(kind: FaultKind, detail: string): void {
    this.counts.set(kind, (this.counts.get(kind) ?? 0) + 1);
    this.target.log(`fault ${kind}: ${detail}`);
  }

  /** Holds a fault for a while, cut short at the end of the run. */
  private async hold(lo: number, hi: number): Promise<void> {
    await sleep(Math.min(this.rng.int(lo, hi), Math.max(0, this.deadline - Date.now())));
  }

  private others(node: number): number[] {
    return NODES.filter((n) => n !== node);
  }

  private async networkFault(): Promise<void> {
    const kind = this.rng.pick<FaultKind>([
      "partition-minority",
      "partition-leader",
      "one-way",
      "bridge",
      "loss",
      "delay",
      "cut-off-client",
    ]);
    const leader = this.target.leader() || this.rng.pick(NODES);
    const net = this.target.net;
    switch (kind) {
      case "partition-minority":
      case "partition-leader": {
        const alone = kind === "partition-leader" ? leader : this.rng.pick(NODES);
        const rest = this.others(alone);
        // The clients sit with the majority or, to reach a stale leader, with the minority.
        const groups = this.rng.chance(0.6)
          ? [[alone], [...rest, ...CLIENTS]]
          : [[alone, ...CLIENTS], rest];
        this.count(kind, groups.map((g) => g.join(",")).join("|"));
        await net.partition(groups);
        await this.hold(1_500, 8_000);
        await net.heal();
        return;
      }
      case "one-way": {
        const from = this.rng.chance(0.5) ? leader : this.rng.pick(NODES);
        const to = this.rng.chance(0.2) ? 4 : this.rng.pick(this.others(from));
        this.count(kind, `${from}->${to}`);
        await net.drop(from, to);
        await this.hold(1_500, 8_000);
        await net.heal();
        return;
      }
      case "bridge": {
        const [a, b] = this.others(this.rng.pick(NODES));
        this.count(kind, `${a}<x>${b}`);
        await net.drop(a, b);
        await net.drop(b, a);
        await this.hold(1_500, 8_000);
        await net.heal();
        return;
      }
      case "cut-off-client": {
        // n5's worker loses the cluster but keeps the store: its session expires while it
        // may hold a lock, and its writes must then be refused by the fence.
        this.count(kind, "n5 <x> n1,n2,n3");
        for (const n of NODES) {
          await net.drop(5, n);
          await net.drop(n, 5);
        }
        await this.hold(2_000, 9_000);
        await net.heal();
        return;
      }
      case "loss": {
        const pct = this.rng.int(5, 35);
        this.count(kind, `${pct}%`);
        await net.loss(pct);
        await this.hold(2_000, 8_000);
        await net.loss(0);
        return;
      }
      case "delay": {
        const ms = this.rng.int(5, 120);
        const jitter = this.rng.int(0, ms);
        this.count(kind, `${ms}ms +-${jitter}ms`);
        await net.delay(ms, jitter);
        await this.hold(2_000, 8_000);
        await net.delay(0);
        return;
      }
      default:
        return;
    }
  }

  private async processFault(): Promise<void> {
    // Without --clock-rate the draws are exactly those of a run before it existed.
    const kinds = this.target.clockRateEnv
      ? [...PROCESS_FAULTS, "clock-rate" as const]
      : PROCESS_FAULTS;
    const kind = this.rng.pick<FaultKind>(kinds);
    const leader = this.target.leader() || this.rng.pick(NODES);
    switch (kind) {
      case "kill-node":
      case "kill-leader": {
        const id = kind === "kill-leader" ? leader : this.rng.pick(NODES);
        const node = this.target.nodes.get(id);
        if (!node) return;
        this.count(kind, `node ${id}`);
        await node.kill();
        await this.hold(300, 5_000);
        node.start();
        return;
      }
      case "pause-node":
      case "pause-leader": {
        const id = kind === "pause-leader" ? leader : this.rng.pick(NODES);
        const node = this.target.nodes.get(id);
        if (!node) return;
        this.count(kind, `node ${id}`);
        node.signal("SIGSTOP");
        await this.hold(500, 9_000);
        node.signal("SIGCONT");
        return;
      }
      case "pause-worker": {
        const worker = this.rng.pick(this.target.workers);
        this.count(kind, worker.options.name);
        worker.signal("SIGSTOP");
        // Longer than the session TTL (3 s) most of the time.
        await this.hold(1_000, 9_000);
        worker.signal("SIGCONT");
        return;
      }
      case "pause-holder": {
        // Stop a worker just after it was granted a counter lock, between its fenced read
        // and its write, for longer than the session TTL: its write comes late and stale.
        const name = await this.target.nextCounterGrant(5_000);
        const worker = this.target.workers.find((w) => w.options.name === name);
        if (!worker) return;
        worker.signal("SIGSTOP");
        this.count(kind, worker.options.name);
        await this.hold(3_500, 9_000);
        worker.signal("SIGCONT");
        return;
      }
      case "clock-jump": {
        const id = this.rng.pick(NODES);
        const offset = this.rng.pick([
          "+3600",
          "-3600",
          "+86400",
          "-86400",
          "+30",
          "-30",
          "+5",
          "-5",
        ]);
        this.count(kind, `node ${id} ${offset}s`);
        writeFileSync(this.target.clockFile(id), `${offset}\n`);
        await this.hold(2_000, 12_000);
        if (this.rng.chance(0.7)) writeFileSync(this.target.clockFile(id), "+0\n");
        return;
      }
      case "clock-rate": {
        // libfaketime would make a running process's monotonic clock jump back if its rate
        // changed, so a rate is only ever set by a restart: kill -9, start under the rate,
        // hold, kill -9, start at the host's rate again.
        const env = this.target.clockRateEnv;
        const id = this.rng.chance(0.5) ? leader : this.rng.pick(NODES);
        const node = this.target.nodes.get(id);
        if (!env || !node) return;
        const rate = this.rng.pick(CLOCK_RATES);
        // Half of the time the leader (if another node) is killed and restarted while the
        // node runs at its rate, so that it may take over: a leader's clock decides expiries.
        const takeOver = this.rng.chance(0.5);
        this.count(
          kind,
          `node ${id} x${rate}${id === leader ? " (leader)" : ""}${takeOver ? ", then the leader killed" : ""}`,
        );
        await node.kill();
        node.start(env(id, rate));
        if (takeOver) {
          await this.hold(1_500, 3_000); // restarted and caught up
          const current = this.target.leader();
          const other = current !== id ? this.target.nodes.get(current) : undefined;
          if (other) {
            this.target.log(
              `fault clock-rate: kill -9 of leader ${current} while node ${id} runs at x${rate}`,
            );
            await other.kill();
            await this.hold(300, 2_000);
            other.start();
          }
        }
        await this.hold(4_000, 15_000);
        await node.kill();
        node.start();
        this.target.log(
          `fault clock-rate over: node ${id} back at x1 (leader now ${this.target.leader()})`,
        );
        return;
      }
      default:
        return;
    }
  }
}
