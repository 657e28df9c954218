// One stable, readable line per message, entry and snapshot, and a few lines per Ready and
// status: what the golden interaction files show. A change in what the core does shows up
// as a diff of these lines, so keep the formats fixed.
import type { PeerProgress, RaftStatus } from "../../node/raft/core.ts";
import { decodeMembership } from "../../node/raft/membership-codec.ts";
import type {
  Entry,
  Membership,
  Message,
  ReadState,
  Ready,
  Snapshot,
  SoftState,
} from "../../node/raft/types.ts";

const text = new TextDecoder();

export function describeIds(ids: readonly number[]): string {
  return `(${ids.join(",")})`;
}

export function describeMembership(m: Membership): string {
  const retired = m.retired && m.retired.length > 0 ? ` Retired:${describeIds(m.retired)}` : "";
  return `Voters:${describeIds(m.voters)} Learners:${describeIds(m.learners)}${retired}`;
}

/** `term/index kind`, then the command (normal) or the membership it carries (config). */
export function describeEntry(e: Entry): string {
  const head = `${e.term}/${e.index} ${e.kind}`;
  switch (e.kind) {
    case "noop":
      return head;
    case "normal":
      return `${head} ${JSON.stringify(text.decode(e.data))}`;
    case "config":
      try {
        return `${head} ${describeMembership(decodeMembership(e.data))}`;
      } catch {
        return `${head} (malformed)`;
      }
  }
}

export function describeSnapshot(s: Snapshot): string {
  return `Index:${s.meta.index} Term:${s.meta.term} ${describeMembership(s.meta.membership)} Data:${JSON.stringify(text.decode(s.data))}`;
}

export function describeMessage(m: Message): string {
  const head = `${m.from}->${m.to}`;
  switch (m.type) {
    case "vote":
      return `${head} ${m.pre ? "PreVote" : "Vote"} Term:${m.term} Log:${m.lastTerm}/${m.lastIndex}${m.transfer ? " Transfer" : ""}`;
    case "voteResp":
      return `${head} ${m.pre ? "PreVoteResp" : "VoteResp"} Term:${m.term} ${m.granted ? "Granted" : "Rejected"}`;
    case "append": {
      const entries =
        m.entries.length > 0 ? ` Entries:[${m.entries.map(describeEntry).join(", ")}]` : "";
      return `${head} App Term:${m.term} Log:${m.prevTerm}/${m.prevIndex} Commit:${m.commit}${entries}`;
    }
    case "appendResp":
      return m.success
        ? `${head} AppResp Term:${m.term} Index:${m.index}`
        : `${head} AppResp Term:${m.term} Rejected Index:${m.index} Hint:${m.hintTerm}/${m.hintIndex}`;
    case "heartbeat":
      return `${head} Heartbeat Term:${m.term} Commit:${m.commit}${m.round > 0 ? ` Round:${m.round}` : ""}`;
    case "heartbeatResp":
      return `${head} HeartbeatResp Term:${m.term}${m.round > 0 ? ` Round:${m.round}` : ""}`;
    case "timeoutNow":
      return `${head} TimeoutNow Term:${m.term}`;
    case "readIndex":
      return `${head} ReadIndex Term:${m.term} Request:${m.requestId}`;
    case "readIndexResp":
      return `${head} ReadIndexResp Term:${m.term} Request:${m.requestId} Index:${m.index}`;
    case "snapshot":
      return `${head} Snapshot Term:${m.term} Snapshot:[${describeSnapshot(m.snapshot)}]`;
  }
}

export function describeSoftState(s: SoftState): string {
  return `Role:${s.role} Leader:${s.leader} Term:${s.term}`;
}

export function describeReadState(r: ReadState): string {
  return r.index === 0
    ? `request ${r.requestId} failed`
    : `request ${r.requestId} at index ${r.index}`;
}

/** A Ready, section by section; the soft state only when it differs from `lastSoft`. */
export function describeReady(rd: Ready, lastSoft: SoftState | null): string[] {
  const out = [`Ready MustSync=${rd.mustSync}:`];
  const s = rd.soft;
  if (
    !lastSoft ||
    s.role !== lastSoft.role ||
    s.leader !== lastSoft.leader ||
    s.term !== lastSoft.term
  )
    out.push(describeSoftState(s));
  if (rd.hardState)
    out.push(
      `HardState Term:${rd.hardState.term} Vote:${rd.hardState.vote} Commit:${rd.hardState.commit}`,
    );
  if (rd.snapshot) out.push(`Snapshot ${describeSnapshot(rd.snapshot)}`);
  if (rd.entries.length > 0) out.push("Entries:", ...rd.entries.map(describeEntry));
  if (rd.committed.length > 0) out.push("Committed:", ...rd.committed.map(describeEntry));
  if (rd.earlyMessages.length > 0)
    out.push("EarlyMessages:", ...rd.earlyMessages.map(describeMessage));
  if (rd.messages.length > 0) out.push("Messages:", ...rd.messages.map(describeMessage));
  if (rd.readStates.length > 0) out.push("ReadStates:", ...rd.readStates.map(describeReadState));
  return out;
}

function describeProgress(p: PeerProgress): string {
  const extra = [
    p.recentActive ? "active" : "inactive",
    ...(p.probeSent ? ["probe-sent"] : []),
    ...(p.inflight > 0 ? [`inflight=${p.inflight}`] : []),
    ...(p.pendingSnapshot > 0 ? [`pending-snapshot=${p.pendingSnapshot}`] : []),
  ];
  return `${p.id}: match=${p.match} next=${p.next} ${p.state} ${extra.join(" ")}`;
}

export function describeStatus(s: RaftStatus): string[] {
  const out = [
    `${s.id} ${s.role} term=${s.term} vote=${s.vote} leader=${s.leader}`,
    `log: snapshot=${s.snapshot.term}/${s.snapshot.index} last=${s.lastTerm}/${s.lastIndex} durable=${s.durableIndex} commit=${s.commit} applied=${s.applied}`,
    describeMembership(s.membership),
  ];
  if (s.role === "leader") {
    out.push(`transfer: ${s.transferee === 0 ? "none" : `to ${s.transferee}`}`);
    out.push("progress:", ...s.progress.map(describeProgress));
  }
  return out;
}
