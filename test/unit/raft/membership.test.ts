import { describe, expect, it } from "vitest";
import { changeMembership } from "../../../node/raft/membership.ts";
import {
  decodeMembership,
  encodeMembership,
  membershipToWire,
} from "../../../node/raft/membership-codec.ts";
import { palisade } from "../../../proto/gen/palisade.js";
import { toU64 } from "../../../proto/wire.ts";

describe("single-server membership changes", () => {
  const three = { voters: [1, 2, 3], learners: [] };

  it("adds a learner, promotes it and removes a voter, remembering removed ids", () => {
    const a = changeMembership(three, { type: "addLearner", node: 4 });
    expect(a).toMatchObject({ voters: [1, 2, 3], learners: [4] });
    const b = changeMembership(a, { type: "promote", node: 4 });
    expect(b).toMatchObject({ voters: [1, 2, 3, 4], learners: [] });
    const c = changeMembership(b, { type: "remove", node: 1 });
    expect(c).toMatchObject({ voters: [2, 3, 4], learners: [], retired: [1] });
    expect(() => changeMembership(c, { type: "addLearner", node: 1 })).toThrow(/never reused/);
  });

  it("refuses anything but one valid step", () => {
    expect(() => changeMembership(three, { type: "addLearner", node: 2 })).toThrow(
      /already a member/,
    );
    expect(() => changeMembership(three, { type: "promote", node: 2 })).toThrow(/already a voter/);
    expect(() => changeMembership(three, { type: "promote", node: 7 })).toThrow(/not a learner/);
    expect(() => changeMembership(three, { type: "remove", node: 7 })).toThrow(/not a member/);
    expect(() =>
      changeMembership({ voters: [1], learners: [] }, { type: "remove", node: 1 }),
    ).toThrow(/last voter/);
    expect(() => changeMembership(three, { type: "addLearner", node: 0 })).toThrow(
      /positive integer/,
    );
  });

  it("round-trips through a config entry in the wire's encoding, and rejects malformed ones", () => {
    const m = {
      voters: [2, 3, 4],
      learners: [5],
      retired: [1],
      addresses: { "4": { peer: "h:1", client: "h:2" } },
    };
    const bytes = encodeMembership(m);
    expect(bytes).toEqual(palisade.v1.Membership.encode(membershipToWire(m)).finish());
    expect(decodeMembership(bytes)).toEqual(m);
    const zeroVoter = palisade.v1.Membership.encode({ voters: [toU64(0)] }).finish();
    expect(() => decodeMembership(zeroVoter)).toThrow(/not a membership: voter: node id 0/);
    expect(() => decodeMembership(new Uint8Array([0x0a, 0xff]))).toThrow(/not a membership/);
    expect(() => decodeMembership(new TextEncoder().encode('{"voters":[1]}'))).toThrow(
      /not a membership/,
    );
  });
});
