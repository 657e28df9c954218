// Helpers for scripted simulation scenarios: a cluster with no random faults, whose
// faults the test itself injects step by step.
import type { NodeId } from "../../node/raft/types.ts";
import { SimCluster, type SimNode } from "./cluster.ts";
import { drawOptions, QUIET, type SimOptions } from "./options.ts";
import { PayloadLog } from "./payload-log.ts";

export interface Scripted {
  c: SimCluster<string>;
  /** The payload log of each node's current instance. */
  logs: Map<NodeId, PayloadLog>;
}

export async function scripted(
  seed: number,
  overrides: Partial<SimOptions> = {},
): Promise<Scripted> {
  const opts = drawOptions(seed, { ...QUIET, ...overrides });
  const logs = new Map<NodeId, PayloadLog>();
  const c = new SimCluster<string>(opts, {
    app: {
      create: (id, snap) => {
        const log = new PayloadLog(snap);
        logs.set(id, log);
        return log;
      },
    },
  });
  await c.start();
  return { c, logs };
}

export async function runFor(c: SimCluster<string>, ms: number): Promise<void> {
  await c.runUntil(c.sched.now + ms);
  if (c.checker.violations.length > 0)
    throw new Error(`invariant violated: ${c.checker.violations.join("; ")}`);
}

/** Run until some node leads (and return it), or fail after maxMs. */
export async function awaitLeader(
  c: SimCluster<string>,
  maxMs = 3000,
  exclude?: NodeId,
): Promise<SimNode<string>> {
  const end = c.sched.now + maxMs;
  while (c.sched.now < end) {
    const l = c.leader();
    if (l && l.id !== exclude) return l;
    await runFor(c, 10);
  }
  throw new Error(`no leader within ${maxMs}ms`);
}

let counter = 0;
export type Outcome = "pending" | "ok" | "failed";

/** Propose payloads on a node; returns their names and each one's outcome so far (read it after running). */
export function propose(
  n: SimNode<string>,
  count: number,
  prefix = "x",
): { names: string[]; results: Outcome[] } {
  const names = Array.from({ length: count }, () => `${prefix}${++counter}`);
  const results: Outcome[] = names.map(() => "pending");
  n.driver!.propose(names.map((p) => new TextEncoder().encode(p))).forEach((p, i) =>
    p.then(
      () => (results[i] = "ok"),
      () => (results[i] = "failed"),
    ),
  );
  return { names, results };
}

export function others(c: SimCluster<string>, id: NodeId): NodeId[] {
  return c.nodes.map((n) => n.id).filter((i) => i !== id);
}
