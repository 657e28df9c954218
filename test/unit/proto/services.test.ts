import { describe, expect, it } from "vitest";
import { palisade } from "../../../proto/gen/palisade.js";
import {
  adminServiceDefinition,
  lockServiceDefinition,
  lockServiceNodeDefinition,
  raftServiceDefinition,
  sentBytesOf,
} from "../../../proto/grpc.ts";
import { callBytes, peekRequest } from "../../../node/api/stream-requests.ts";
import { CALL_NAMES } from "../../../proto/lock-calls.ts";
import { toU64, u64 } from "../../../proto/wire.ts";

describe("gRPC service definitions", () => {
  it("the call table names every unary LockService RPC of the proto, each once", () => {
    const rpcs = Object.getOwnPropertyNames(palisade.v1.LockService.prototype)
      .filter((name) => !["constructor", "watch", "observe", "stream"].includes(name))
      .map((name) => name.charAt(0).toUpperCase() + name.slice(1));
    expect([...CALL_NAMES].sort()).toEqual(rpcs.sort());
  });

  it("declare every LockService method with its path and streaming mode", () => {
    expect(Object.keys(lockServiceDefinition)).toEqual([
      "OpenSession",
      "KeepAlive",
      "CloseSession",
      "Acquire",
      "CancelWait",
      "Release",
      "GetLock",
      "ListLocks",
      "GetSession",
      "ListSessions",
      "GetLockHistory",
      "ValidateToken",
      "Campaign",
      "Proclaim",
      "Resign",
      "Upgrade",
      "Downgrade",
      "Leader",
      "Watch",
      "Observe",
      "Stream",
    ]);
    expect(lockServiceDefinition.Acquire.path).toBe("/palisade.v1.LockService/Acquire");
    expect(lockServiceDefinition.Acquire.originalName).toBe("acquire");
    expect(lockServiceDefinition.Watch.responseStream).toBe(true);
    expect(lockServiceDefinition.Observe.responseStream).toBe(true);
    expect(lockServiceDefinition.Release.responseStream).toBe(false);
    expect(lockServiceDefinition.Stream.path).toBe("/palisade.v1.LockService/Stream");
    expect([
      lockServiceDefinition.Stream.requestStream,
      lockServiceDefinition.Stream.responseStream,
    ]).toEqual([true, true]);
    expect(adminServiceDefinition.Status.path).toBe("/palisade.v1.AdminService/Status");
    expect(adminServiceDefinition.Backup.responseStream).toBe(true);
    expect(raftServiceDefinition.Stream.path).toBe("/palisade.v1.RaftService/Stream");
    expect(Object.keys(raftServiceDefinition)).toEqual(["Stream"]);
  });

  it("serialise an Acquire with its exactly-once fields and a uint64 token answer", () => {
    const method = lockServiceDefinition.Acquire;
    const request = palisade.v1.AcquireRequest.create({
      sessionId: toU64(42n),
      lock: "orders/7",
      waitMs: toU64(1500),
      seq: toU64(9),
      ackedUpTo: toU64(6),
      held: [toU64(8)],
    });
    const decoded = method.requestDeserialize(method.requestSerialize(request));
    expect(decoded.lock).toBe("orders/7");
    expect(
      [decoded.sessionId, decoded.waitMs, decoded.seq, decoded.ackedUpTo].map((v) => u64(v)),
    ).toEqual([42n, 1500n, 9n, 6n]);
    expect(decoded.held.map((v) => u64(v))).toEqual([8n]);

    const token = (1n << 48n) + 34n;
    const response = palisade.v1.AcquireResponse.create({
      acquired: true,
      token: toU64(token),
      holder: {
        sessionId: toU64(42n),
        clientName: "worker",
        token: toU64(token),
        grantedIndex: toU64(34),
      },
    });
    const answer = method.responseDeserialize(method.responseSerialize(response));
    expect(answer.acquired).toBe(true);
    expect(u64(answer.token)).toBe(token);
    expect(answer.holder?.clientName).toBe("worker");
  });

  it("carry write bookkeeping on Release and CloseSession too", () => {
    for (const type of [palisade.v1.ReleaseRequest, palisade.v1.CloseSessionRequest]) {
      const message = type.fromObject({ sessionId: "5", seq: "3", ackedUpTo: "1", held: ["2"] });
      const decoded = type.decode(type.encode(message).finish());
      expect(u64(decoded.seq)).toBe(3n);
      expect(u64(decoded.ackedUpTo)).toBe(1n);
      expect(decoded.held.map((v) => u64(v))).toEqual([2n]);
    }
  });
});

describe("the node's requests keep the bytes they came as", () => {
  it("a unary request remembers its bytes; the stream names where a call's request lies", () => {
    const acquire = palisade.v1.AcquireRequest.encode({
      sessionId: toU64(7n),
      seq: toU64(1),
      lock: "a",
    }).finish();
    const bytes = Buffer.from(acquire);
    const request = lockServiceNodeDefinition.Acquire.requestDeserialize(bytes);
    expect(sentBytesOf(request)).toBe(bytes);
    expect(sentBytesOf({})).toBeUndefined();

    const streamed = palisade.v1.StreamRequest.encode({ id: toU64(9), acquire: request }).finish();
    const peek = peekRequest(streamed);
    expect([...(callBytes(streamed, peek) ?? [])]).toEqual([...acquire]);
    // A call field given twice is left to the decoder's rules: no bytes are taken as sent.
    const twice = new Uint8Array([...streamed, ...streamed.subarray(2)]);
    expect(callBytes(twice, peekRequest(twice))).toBeUndefined();
  });

  it("peek a request's id exactly, small or up to 2^64 - 1, as the decoder reads it", () => {
    for (const id of [
      0n,
      1n,
      127n,
      128n,
      2n ** 49n - 1n,
      2n ** 49n,
      2n ** 53n + 1n,
      2n ** 64n - 1n,
    ]) {
      const bytes = palisade.v1.StreamRequest.encode({ id: toU64(id), keepAlive: {} }).finish();
      expect(peekRequest(bytes).id).toBe(id.toString());
      expect(u64(palisade.v1.StreamRequest.decode(bytes).id)).toBe(id);
    }
  });
});
