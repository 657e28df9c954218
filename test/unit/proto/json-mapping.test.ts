// proto3's JSON mapping as the HTTP gateway reads it: every call's request maps from JSON
// to the bytes the gRPC path would carry, 64-bit values as decimal strings both ways, and
// whatever else arrives (wrong types, unknown or inherited names, a number past 2^53, deep
// nesting, random values in every field) is refused with JsonMappingError naming the field
// and never with another error.
import { describe, expect, it } from "vitest";
import {
  encodeFromJson,
  JsonMappingError,
  jsonFromEncoded,
  messageType,
} from "../../../proto/json-mapping.ts";
import { CALL_NAMES, encodeRequest, specOf } from "../../../proto/lock-calls.ts";
import { palisade } from "../../../proto/gen/palisade.js";
import { SeededRandom } from "../../../node/util/rng.ts";

const acquire = messageType("palisade.v1.AcquireRequest");

function refusal(json: unknown): string {
  try {
    encodeFromJson(acquire, json);
  } catch (error) {
    expect(error).toBeInstanceOf(JsonMappingError);
    return (error as Error).message;
  }
  throw new Error(`accepted ${JSON.stringify(json)}`);
}

describe("JSON mapping of requests", () => {
  it("maps an Acquire to the bytes the gRPC client sends for the same request", () => {
    const json = {
      sessionId: "18446744073709551615",
      lock: "jobs/a",
      wait_ms: 1000,
      seq: "3",
      acked_up_to: "2",
      held: ["1"],
      mode: "LOCK_MODE_SHARED",
      holderData: "aGk=",
    };
    const bytes = encodeFromJson(acquire, json);
    const viaGrpc = palisade.v1.AcquireRequest.encode(
      encodeRequest("Acquire", {
        sessionId: 2n ** 64n - 1n,
        lock: "jobs/a",
        waitMs: 1000,
        seq: 3,
        ackedUpTo: 2,
        held: [1],
        mode: "shared",
        holderData: "hi",
      }),
    ).finish();
    expect(Buffer.from(bytes).toString("hex")).toBe(Buffer.from(viaGrpc).toString("hex"));
    // And back, with every field and 64-bit values as strings.
    expect(jsonFromEncoded(acquire, bytes)).toMatchObject({
      sessionId: "18446744073709551615",
      waitMs: "1000",
      held: ["1"],
      mode: "LOCK_MODE_SHARED",
      holdMs: "0",
    });
  });

  it("knows every call's request and answer, and writes every field of an answer", () => {
    for (const name of CALL_NAMES) {
      const request = messageType(`palisade.v1.${name}Request`);
      const answer = messageType(`palisade.v1.${name}Response`);
      expect(encodeFromJson(request, {}).length, name).toBe(0);
      const json = jsonFromEncoded(answer, new Uint8Array());
      for (const field of answer.fieldsArray)
        if (!field.partOf) expect(Object.keys(json), `${name}.${field.name}`).toContain(field.name);
    }
  });

  it("refuses what would change a value or hide a mistake, naming the field", () => {
    // 2^53 + 1 as a body carries it: parsing rounds it to 2^53.
    expect(refusal(JSON.parse('{"sessionId": 9007199254740993}'))).toContain("decimal strings");
    expect(refusal({ sessionId: 2 ** 64 })).toContain("sessionId");
    expect(refusal({ seq: "-1" })).toContain("out of range for uint64");
    expect(refusal({ seq: "18446744073709551616" })).toContain("out of range");
    expect(refusal({ seq: "1e3" })).toContain("decimal integer string");
    expect(refusal({ seq: 1.5 })).toContain("an integer");
    expect(refusal({ lock: 7 })).toBe("lock: expected a string, got the number 7");
    expect(refusal({ lock: "a", colour: "red" })).toContain(
      "colour: AcquireRequest has no such field",
    );
    expect(refusal({ session_id: "1", sessionId: "1" })).toContain("given twice");
    expect(refusal({ mode: "LOCK_MODE_BOGUS" })).toContain("LOCK_MODE_SHARED");
    expect(refusal({ held: "1" })).toContain("held: expected an array");
    expect(refusal({ held: [null] })).toContain("held[0]");
    expect(refusal({ holderData: "not base64!" })).toContain("base64");
    expect(refusal({ moreLocks: [{ lock: "b", extra: 1 }] })).toContain("moreLocks[0].extra");
    expect(refusal([])).toContain("AcquireRequest object");
    expect(refusal("Acquire")).toContain("AcquireRequest object");
    // Names an object inherits are no fields.
    for (const key of ["constructor", "__proto__", "toString", "hasOwnProperty"])
      expect(refusal(JSON.parse(`{"${key}": 1}`))).toContain("no such field");
  });

  it("refuses any random value in any field of any request with JsonMappingError only", () => {
    const rng = new SeededRandom(20261202);
    const pick = <T>(xs: readonly T[]): T => xs[rng.int(0, xs.length - 1)] as T;
    const value = (depth: number): unknown => {
      switch (rng.int(0, 9)) {
        case 0:
          return null;
        case 1:
          return rng.chance(0.5);
        case 2:
          return pick([0, -1, 1.5, 2 ** 53, -(2 ** 63), 1e308, 4294967296]);
        case 3:
          return pick(["", "1", "-5", "x", "LOCK_MODE_SHARED", "18446744073709551616", "aGk="]);
        case 4:
          return depth > 3 ? [] : [value(depth + 1), value(depth + 1)];
        case 5:
          return depth > 3
            ? {}
            : { lock: value(depth + 1), [pick(["a", "lock", "seq"])]: value(depth + 1) };
        default:
          return String(rng.int(0, 1_000_000));
      }
    };
    let accepted = 0;
    for (let i = 0; i < 3_000; i++) {
      const name = pick(CALL_NAMES);
      const type = messageType(`palisade.v1.${name}Request`);
      const field = pick(type.fieldsArray);
      const json = { [rng.chance(0.5) ? field.name : field.name.toLowerCase()]: value(0) };
      try {
        const bytes = encodeFromJson(type, json);
        // What maps must decode as the message it claims to be.
        specOf(name).request.type.decode(bytes);
        accepted++;
      } catch (error) {
        if (!(error instanceof JsonMappingError)) throw error;
      }
    }
    // Both outcomes happen: the values are neither all refused nor all taken.
    expect(accepted).toBeGreaterThan(100);
    expect(accepted).toBeLessThan(2_900);
  });

  it("refuses nesting deeper than it reads", () => {
    let deep: Record<string, unknown> = { lock: "x" };
    for (let i = 0; i < 100; i++) deep = { moreLocks: [deep] };
    const lockTarget = messageType("palisade.v1.LockTarget");
    expect(lockTarget.fields.moreLocks).toBeUndefined();
    // LockTarget does not nest, so the depth is refused as an unknown field first.
    expect(refusal(deep)).toMatch(/no such field|nested more than/);
  });
});
