// G6 for sessions: a session whose keepalives stopped is expired within one TTL of the last
// keepalive a leader processed, where each leader change may add one TTL (the new leader
// starts every TTL afresh) and each event-loop stall of the leader may add its own length
// (the stall rule moves deadlines by the stall). Checked on the leader's first proposal of
// each expiry, so a host that extends sessions more than that (restarting every TTL after a
// stall, say) is caught.
import type { NodeId } from "../../../node/raft/types.ts";

export interface ExpiryBounds {
  /** Largest drift of a node's clock (a TTL on a node's clock lasts up to TTL × (1 + drift)). */
  readonly driftMax: number;
  readonly tickMs: number;
}

export class ExpiryChecker {
  /** When a leader last started or restarted each session's TTL (open, keepalive), virtual ms. */
  private readonly lastRestart = new Map<bigint, number>();
  private readonly ttl = new Map<bigint, number>();
  private readonly leaderSince = new Map<NodeId, number>();
  private readonly stalls: Array<{ node: NodeId; from: number; to: number }> = [];
  private readonly proposals: Array<{ session: bigint; node: NodeId; at: number }> = [];
  private readonly proposed = new Set<bigint>();
  checked = 0;

  constructor(private readonly bounds: ExpiryBounds) {}

  /** A leader applied the session's opening: its TTL runs from now. */
  started(session: bigint, ttlMs: number, at: number): void {
    this.ttl.set(session, ttlMs);
    this.lastRestart.set(session, Math.max(this.lastRestart.get(session) ?? 0, at));
  }

  /** A leader took a keepalive of the session: its TTL restarts now. */
  keptAlive(session: bigint, at: number): void {
    this.lastRestart.set(session, Math.max(this.lastRestart.get(session) ?? 0, at));
  }

  becameLeader(node: NodeId, at: number): void {
    this.leaderSince.set(node, at);
  }

  stalled(node: NodeId, from: number, to: number): void {
    this.stalls.push({ node, from, to });
  }

  /** A leader proposed the session's expiry (the first proposal is checked). */
  expiryProposed(session: bigint, node: NodeId, at: number): void {
    if (this.proposed.has(session)) return;
    this.proposed.add(session);
    this.proposals.push({ session, node, at });
  }

  check(): string[] {
    const out: string[] = [];
    const { driftMax, tickMs } = this.bounds;
    for (const p of this.proposals) {
      const ttl = this.ttl.get(p.session);
      const restarted = this.lastRestart.get(p.session);
      if (ttl === undefined || restarted === undefined) continue;
      const base = Math.max(restarted, this.leaderSince.get(p.node) ?? 0);
      // A stall moves every deadline later by its whole length at the first tick after it,
      // also the TTL of a keepalive that waited out the stall and was taken at its end.
      // Stalls that overlap are one to the node: it ticks again only after the last ends.
      let stalled = 0;
      for (const s of mergedStalls(this.stalls, p.node)) {
        if (s.from >= p.at || s.to < base - 2 * tickMs * (1 + driftMax)) continue;
        stalled += s.to - s.from;
      }
      // The keeper looks after every tick, and a tick comes at most a tick and a bit late.
      const latest = base + (ttl + 3 * tickMs) * (1 + driftMax) + stalled + 1;
      this.checked++;
      if (p.at > latest) {
        out.push(
          `G6: node ${p.node} proposed the expiry of session ${p.session} at t=${p.at.toFixed(1)}, later than its TTL (${ttl} ms) allows: TTL last restarted at t=${base.toFixed(1)}, ${stalled.toFixed(1)} ms of stalls since`,
        );
      }
    }
    return out;
  }
}

/** A node's stalls with the overlapping ones joined, in time order. */
function mergedStalls(
  stalls: ReadonlyArray<{ node: NodeId; from: number; to: number }>,
  node: NodeId,
): Array<{ from: number; to: number }> {
  const mine = stalls.filter((s) => s.node === node).sort((a, b) => a.from - b.from);
  const merged: Array<{ from: number; to: number }> = [];
  for (const s of mine) {
    const last = merged[merged.length - 1];
    if (last !== undefined && s.from <= last.to) last.to = Math.max(last.to, s.to);
    else merged.push({ from: s.from, to: s.to });
  }
  return merged;
}
