// palisadectl's argument parsing and table output, and its words for how a lock is held.
import { describe, expect, it } from "vitest";
import { parseDuration, parseUint64, table, toJson } from "../../../client/ctl/format.ts";
import { endpointsFrom } from "../../../client/ctl/context.ts";
import { valueAndCommand } from "../../../client/ctl/election-verbs.ts";
import { heldAs, kindColumn, kindNotes } from "../../../client/ctl/read-verbs.ts";

describe("palisadectl formats", () => {
  it("parses durations with their units and refuses a bare number", () => {
    expect(() => parseDuration("250")).toThrow(/with its unit, such as 500ms/);
    expect(() => parseDuration("5 seconds")).toThrow(/with its unit/);
    expect(parseDuration("250ms")).toBe(250);
    expect(parseDuration("10s")).toBe(10_000);
    expect(parseDuration("1.5m")).toBe(90_000);
    expect(parseDuration("1h")).toBe(3_600_000);
    expect(() => parseDuration("soon")).toThrow(/duration/);
    expect(() => parseDuration("-1s")).toThrow(/duration/);
  });

  it("splits elect's VALUE from its command where -- stood, which commander drops", () => {
    // The operands after NAME as commander hands them over, and the arguments as given.
    expect(valueAndCommand(["v"], ["elect", "e", "v"])).toEqual({ value: "v", command: [] });
    expect(valueAndCommand([], ["elect", "e"])).toEqual({ value: "", command: [] });
    expect(
      valueAndCommand(["v", "sh", "-c", "x -- y"], ["elect", "e", "v", "--", "sh", "-c", "x -- y"]),
    ).toEqual({ value: "v", command: ["sh", "-c", "x -- y"] });
    expect(valueAndCommand(["sh", "-c", "x"], ["elect", "e", "--", "sh", "-c", "x"])).toEqual({
      value: "",
      command: ["sh", "-c", "x"],
    });
    expect(
      valueAndCommand(["v", "sh", "--", "x"], ["--json", "elect", "e", "v", "--", "sh", "--", "x"]),
    ).toEqual({ value: "v", command: ["sh", "--", "x"] });
    expect(() => valueAndCommand(["v", "true"], ["elect", "e", "v", "true"])).toThrow(
      /put the command after --/,
    );
    expect(() =>
      valueAndCommand(["v", "w", "true"], ["elect", "e", "v", "w", "--", "true"]),
    ).toThrow(/at most one VALUE before --/);
  });

  it("parses uint64 tokens and refuses anything else", () => {
    expect(parseUint64("18446744073709551615")).toBe(2n ** 64n - 1n);
    expect(() => parseUint64("18446744073709551616")).toThrow(/uint64/);
    expect(() => parseUint64("12a")).toThrow(/uint64/);
  });

  it("aligns table columns and prints bigints in JSON as strings", () => {
    expect(
      table(
        ["ID", "ROLE"],
        [
          ["1", "leader"],
          ["22", "follower"],
        ],
      ),
    ).toBe("ID  ROLE\n1   leader\n22  follower");
    expect(toJson({ token: 2n ** 63n })).toBe('{"token":"9223372036854775808"}');
  });
});

describe("palisadectl endpoints", () => {
  it("takes host:port and etcd's http:// and https:// forms, refusing a scheme that does not match the TLS options", () => {
    expect(endpointsFrom("127.0.0.1:7001, http://127.0.0.1:7002/", false)).toEqual([
      "127.0.0.1:7001",
      "127.0.0.1:7002",
    ]);
    expect(endpointsFrom("https://n1.example:7000", true)).toEqual(["n1.example:7000"]);
    expect(() => endpointsFrom("https://n1:7000", false)).toThrow(/asks for TLS: give --cacert/);
    expect(() => endpointsFrom("http://n1:7000", true)).toThrow(/plaintext, but --cacert/);
    expect(() => endpointsFrom("grpc://n1:7000", false)).toThrow(/expected host:port or http/);
  });
});

describe("palisadectl's words for upgradeable holders", () => {
  const holder = {
    sessionId: 7n,
    clientName: "palisadectl",
    token: 40n,
    grantedIndex: 40n,
  };
  it("names the mode and a pending upgrade on the holder, and how the lock is held", () => {
    expect(kindNotes({ ...holder, mode: "upgradeable" })).toBe("upgradeable");
    expect(kindNotes({ ...holder, mode: "upgradeable", upgradingSince: 52n })).toBe(
      "upgradeable, upgrading since index 52",
    );
    const up = { ...holder, mode: "upgradeable" as const };
    const reader = { ...holder, sessionId: 8n, token: 38n, mode: "shared" as const };
    expect(heldAs([up], 1)).toBe("held upgradeable");
    expect(heldAs([reader, up], 2)).toBe("shared by 2 holders, one upgradeable");
    expect(heldAs([reader], 3)).toBe("shared by 3 holders");
    expect(heldAs([holder], 1)).toBe("held exclusive");
    expect(kindColumn({ lock: "l", holder: up, waiterCount: 0, holderCount: 1 })).toBe(
      "upgradeable",
    );
    expect(
      kindColumn({
        lock: "l",
        holder: reader,
        holders: [reader, up],
        waiterCount: 0,
        holderCount: 2,
      }),
    ).toBe("shared+upgradeable");
    expect(kindColumn({ lock: "l", holder, waiterCount: 0, holderCount: 1 })).toBe("exclusive");
  });
});
