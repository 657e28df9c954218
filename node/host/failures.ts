// Why a request to a host failed, in the wire's terms: an ErrorReason (which fixes the
// status code, proto/wire.ts), a message a person can act on, and the leader's client
// address when a node that is not the leader knows it. The gRPC services and the
// simulator's client API both turn these into their own answers.
import type { ErrorReasonName } from "../../proto/wire.ts";
import type { ErrorAnswer } from "../lock/index.ts";
import { NotLeaderError, ProposalDroppedError } from "../raft/core.ts";
import { DriverStoppedError, ProposalLostError, ReadIndexFailedError } from "./driver.ts";

export class RequestFailure extends Error {
  override readonly name = "RequestFailure";
  constructor(
    readonly reason: ErrorReasonName,
    message: string,
    /** The leader's client address, for a request that must go there (UNAVAILABLE). */
    readonly leader: string | null = null,
  ) {
    super(message);
  }
}

/** The failure a state-machine error answer stands for: its reason and its message. */
export function answerFailure(answer: ErrorAnswer): RequestFailure {
  return new RequestFailure(answer.reason, answer.message);
}

/** A write or keepalive reached a node that is not the leader. */
export function notLeader(leader: string | null): RequestFailure {
  if (!leader)
    return new RequestFailure(
      "ERROR_REASON_NO_LEADER",
      "no leader is known yet (election in progress or no quorum); retry shortly",
    );
  return new RequestFailure(
    "ERROR_REASON_NOT_LEADER",
    `this node is not the leader; retry at the leader ${leader}`,
    leader,
  );
}

/**
 * The failure for an error from the driver while proposing or reading. Proposal failures
 * mean "retry": the client retries with the same seq, and the dedup table makes the retry
 * take effect at most once. Anything else is a bug, answered INTERNAL.
 */
export function failureOf(error: unknown, leader: string | null): RequestFailure {
  if (error instanceof RequestFailure) return error;
  if (error instanceof NotLeaderError) return notLeader(leader);
  if (error instanceof ProposalDroppedError) {
    return new RequestFailure(
      "ERROR_REASON_PROPOSAL_DROPPED",
      `the leader did not take the request (${error.message}); retry with the same seq`,
      leader,
    );
  }
  if (error instanceof ProposalLostError) {
    return new RequestFailure(
      "ERROR_REASON_LEADERSHIP_CHANGED",
      "leadership changed before the request committed; its outcome is unknown, retry with the same seq",
      leader,
    );
  }
  if (error instanceof ReadIndexFailedError) {
    return new RequestFailure(
      "ERROR_REASON_READ_NOT_CONFIRMED",
      "no leader could confirm a linearizable read (election in progress or no quorum); retry shortly",
      leader,
    );
  }
  if (error instanceof DriverStoppedError) {
    return new RequestFailure(
      "ERROR_REASON_SHUTTING_DOWN",
      "this node is shutting down or stopped; retry on another node",
      leader,
    );
  }
  return new RequestFailure(
    "ERROR_REASON_INTERNAL",
    `internal error: ${error instanceof Error ? error.message : String(error)}`,
  );
}
