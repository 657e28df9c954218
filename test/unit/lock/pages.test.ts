// Pages of one lock's holders and waiters on the state machine: a page continues after the
// last entry sent, so grants and waits that end or begin between two pages neither come
// again nor push an entry that was due off its page; grants of one entry are ordered by
// session id; a page ends at its count or before its bytes, never empty while entries are
// left; and the bytes a page counts are above what its entries take on the wire.
import { describe, expect, it } from "vitest";
import {
  entryBytes,
  MAX_LOCK_NAME_BYTES,
  type HolderPlace,
  type LockHolderInfo,
  type LockPageBounds,
  type LockStateMachine,
  type LockWaiterInfo,
} from "../../../node/lock/index.ts";
import { palisade } from "../../../proto/gen/palisade.js";
import { toU64 } from "../../../proto/wire.ts";
import { Client, setup, tokenOf } from "./kit.ts";

const pb = palisade.v1;

function bounds(
  limit: number,
  after?: HolderPlace,
  afterIndex?: number,
  maxBytes = 1 << 20,
): LockPageBounds {
  return { holders: { limit, maxBytes, after }, waiters: { limit, maxBytes, afterIndex } };
}

/** Every page of a lock's holders, `limit` at a time, running `between` after each page. */
function holderPages(
  sm: LockStateMachine,
  lock: string,
  limit: number,
  between: (page: number) => void = () => undefined,
): LockHolderInfo[][] {
  const pages: LockHolderInfo[][] = [];
  let after: HolderPlace | undefined;
  for (;;) {
    const page = sm.lockPage(lock, bounds(limit, after));
    pages.push([...page.holders]);
    if (page.nextHoldersAfter === null) return pages;
    after = page.nextHoldersAfter;
    between(pages.length);
  }
}

function waiterPages(
  sm: LockStateMachine,
  lock: string,
  limit: number,
  between: (page: number) => void = () => undefined,
): LockWaiterInfo[][] {
  const pages: LockWaiterInfo[][] = [];
  let afterIndex = 0;
  for (;;) {
    const page = sm.lockPage(lock, bounds(limit, undefined, afterIndex));
    pages.push([...page.waiters]);
    if (page.nextWaitersAfter === null) return pages;
    afterIndex = page.nextWaitersAfter;
    between(pages.length);
  }
}

const names = (entries: ReadonlyArray<{ clientName: string }>): string[] =>
  entries.map((e) => e.clientName);

describe("pages of a lock's holders", () => {
  it("holders released or granted between pages neither come twice nor push a holder that was due off its page", () => {
    const runner = setup();
    const clients = Array.from(
      { length: 30 },
      (_, i) => new Client(runner, `h${String(i + 1).padStart(2, "0")}`),
    );
    const tokens = clients.map((c) => tokenOf(c.permit("pool", 50).result));
    const late = new Client(runner, "late");
    const pages = holderPages(runner.machine, "pool", 10, (page) => {
      if (page !== 1) return;
      // One holder already listed and one not yet listed let go; a new one comes in.
      clients[4]?.release("pool", tokens[4] as bigint);
      clients[14]?.release("pool", tokens[14] as bigint);
      late.permit("pool", 50);
    });
    const listed = pages.flat();
    expect(new Set(names(listed)).size).toBe(listed.length);
    const expected = clients.map((c) => c.name).filter((n) => n !== "h15");
    expect(names(listed)).toEqual([...expected, "late"]);
    expect(pages.map((p) => p.length)).toEqual([10, 10, 10]);
  });

  it("grants of one log entry are listed by session id, and a page that ends inside them goes on with the next session", () => {
    const runner = setup();
    const writer = new Client(runner, "writer");
    const readers = Array.from({ length: 7 }, (_, i) => new Client(runner, `r${i}`));
    const writerToken = tokenOf(writer.exclusive("doc").result);
    // Queued in an order that is not the order of their session ids.
    for (const i of [5, 2, 6, 0, 3, 1, 4]) readers[i]?.shared("doc", 60_000);
    writer.release("doc", writerToken);
    const all = runner.machine.lockPage("doc", bounds(100)).holders;
    expect(new Set(all.map((h) => h.token)).size).toBe(1);
    expect(names(all)).toEqual(readers.map((r) => r.name));
    const pages = holderPages(runner.machine, "doc", 3);
    expect(pages.map(names)).toEqual([["r0", "r1", "r2"], ["r3", "r4", "r5"], ["r6"]]);
  });

  it("a page ends before its bytes would pass the bound, never empty while holders are left, and says so", () => {
    const runner = setup();
    const data = "d".repeat(1_000);
    for (let i = 0; i < 5; i++)
      new Client(runner, `h${i}`).permit("pool", 5, 0, { holderData: data });
    const size = entryBytes(
      runner.machine.lockPage("pool", bounds(1)).holders[0] as LockHolderInfo,
    );
    const twoAndAHalf = {
      holders: { limit: 100, maxBytes: Math.floor(size * 2.5) },
      waiters: { limit: 0, maxBytes: 0 },
    };
    const page = runner.machine.lockPage("pool", twoAndAHalf);
    expect(page.holders).toHaveLength(2);
    expect(page.nextHoldersAfter).toEqual({
      token: page.holders[1]?.token,
      sessionId: page.holders[1]?.sessionId,
    });
    const tiny = runner.machine.lockPage("pool", {
      holders: { limit: 100, maxBytes: 1 },
      waiters: { limit: 0, maxBytes: 0 },
    });
    expect(tiny.holders).toHaveLength(1);
    expect(tiny.holderCount).toBe(5);
    const none = runner.machine.lockPage("pool", {
      holders: { limit: 0, maxBytes: 1 << 20 },
      waiters: { limit: 0, maxBytes: 0 },
    });
    expect(none).toMatchObject({ holders: [], holderCount: 5, nextHoldersAfter: null });
  });
});

describe("pages of a lock's queue", () => {
  it("waits that end or begin between pages neither come twice nor push a waiter that was due off its page", () => {
    const runner = setup();
    const owner = new Client(runner, "owner");
    owner.acquire("q");
    const waiters = Array.from(
      { length: 20 },
      (_, i) => new Client(runner, `w${String(i + 1).padStart(2, "0")}`),
    );
    for (const w of waiters) w.acquire("q", 60_000);
    const late = new Client(runner, "late");
    const pages = waiterPages(runner.machine, "q", 6, (page) => {
      if (page !== 1) return;
      waiters[2]?.cancel("q", 1);
      waiters[9]?.cancel("q", 1);
      late.acquire("q", 60_000);
    });
    const listed = pages.flat();
    expect(names(listed)).toEqual([
      ...waiters.map((w) => w.name).filter((n) => n !== "w10"),
      "late",
    ]);
    expect(runner.machine.lockPage("q", bounds(6)).waiterCount).toBe(19);
  });
});

describe("the bytes a page counts", () => {
  it("are above the protobuf encoding of the largest holder and waiter the limits allow", () => {
    const big = "é".repeat(MAX_LOCK_NAME_BYTES / 2);
    const data = "x".repeat(64 * 1024);
    const max = 2n ** 64n - 1n;
    const holder: LockHolderInfo = {
      sessionId: max,
      clientName: big,
      token: max,
      grantedAt: 2 ** 48,
      waitedFrom: 2 ** 48,
      mode: "permit",
      slot: 999_999,
      holderData: data,
      holdMs: 86_400_000,
    };
    const holderWire = pb.GetLockResponse.encode({
      holders: [
        {
          sessionId: toU64(max),
          clientName: big,
          token: toU64(max),
          grantedIndex: toU64(2 ** 48),
          mode: pb.LockMode.LOCK_MODE_SHARED,
          permits: 1_000_000,
          slot: 999_999,
          holderData: new TextEncoder().encode(data),
          holdMs: toU64(86_400_000),
        },
      ],
    }).finish().byteLength;
    expect(entryBytes(holder)).toBeGreaterThanOrEqual(holderWire);

    const targets = Array.from({ length: 64 }, (_, i) => ({
      lock: `${big.slice(0, -1)}${i % 10}`,
      permits: 1_000_000,
    }));
    const waiter: LockWaiterInfo = {
      sessionId: max,
      clientName: big,
      waitedFrom: 2 ** 48,
      seqs: [1],
      mode: "shared",
      targets,
      holderData: data,
      holdMs: 86_400_000,
    };
    const waiterWire = pb.GetLockResponse.encode({
      waiters: [
        {
          sessionId: toU64(max),
          clientName: big,
          waitingSinceIndex: toU64(2 ** 48),
          mode: pb.LockMode.LOCK_MODE_SHARED,
          permits: 1_000_000,
          locks: targets.map((t) => ({
            lock: t.lock,
            mode: pb.LockMode.LOCK_MODE_SHARED,
            permits: toU64(t.permits),
          })),
          holderData: new TextEncoder().encode(data),
          holdMs: toU64(86_400_000),
        },
      ],
    }).finish().byteLength;
    expect(entryBytes(waiter)).toBeGreaterThanOrEqual(waiterWire);
  });
});
