// A lock handle's upgrade() and downgrade() against a scripted cluster: what they send,
// how the handle then holds the new grant (token and mode), and how an upgrade whose answer
// never came, or whose caller gave up, is settled through CancelWait of its seq rather than
// left unknown.
import { describe, expect, it } from "vitest";
import { NotHolderError, OutcomeUnknownError, PalisadeClient } from "../../../client/index.ts";
import type {
  AcquireRequest,
  CancelWaitRequest,
  CancelWaitResult,
  DowngradeRequest,
  ReleaseRequest,
  UpgradeAnswer,
  UpgradeRequest,
} from "../../../proto/lock-values.ts";
import { scriptedApi } from "./lock-api-kit.ts";

interface Script {
  upgrade: (req: UpgradeRequest) => Promise<UpgradeAnswer>;
  cancel: CancelWaitResult;
}

function setup(script: Script) {
  const sent = {
    acquires: [] as AcquireRequest[],
    upgrades: [] as UpgradeRequest[],
    downgrades: [] as DowngradeRequest[],
    cancels: [] as CancelWaitRequest[],
    releases: [] as ReleaseRequest[],
  };
  const api = scriptedApi({
    OpenSession: async () => ({ sessionId: 1n, ttlMs: 60_000 }),
    Acquire: async (req) => {
      sent.acquires.push(req);
      const mode = req.mode ?? "exclusive";
      return {
        kind: "granted",
        token: 7n,
        holder: { sessionId: 1n, clientName: "", token: 7n, grantedIndex: 7n },
        grants: [{ lock: req.lock, token: 7n, mode }],
      };
    },
    Upgrade: (req) => {
      sent.upgrades.push(req);
      return script.upgrade(req);
    },
    Downgrade: async (req) => {
      sent.downgrades.push(req);
      return { token: 40n, mode: req.mode };
    },
    CancelWait: async (req) => {
      sent.cancels.push(req);
      return script.cancel;
    },
    Release: async (req) => {
      sent.releases.push(req);
      return {};
    },
    CloseSession: async () => ({}),
  });
  const client = new PalisadeClient(
    { endpoints: ["127.0.0.1:1"], sessionTtlMs: 60_000 },
    { lockApi: api },
  );
  return { client, sent };
}

describe("LockHandle.upgrade", () => {
  it("sends Upgrade with the grant's token and wait; upgraded, the handle holds the exclusive grant", async () => {
    const { client, sent } = setup({
      upgrade: async () => ({ kind: "upgraded", token: 30n }),
      cancel: { outcome: "cancelled" },
    });
    const handle = await client.lock("L", { mode: "upgradeable" });
    expect(handle.mode).toBe("upgradeable");
    expect(await handle.upgrade({ waitMs: 2_000 })).toBe(true);
    expect(sent.upgrades).toMatchObject([{ lock: "L", token: 7n, waitMs: 2_000 }]);
    expect(handle).toMatchObject({ token: 30n, mode: "exclusive" });
    await handle.release();
    expect(sent.releases).toMatchObject([{ lock: "L", token: 30n }]);
    await client.close();
  });

  it("not upgraded in time resolves false and keeps the upgradeable grant", async () => {
    const { client, sent } = setup({
      upgrade: async () => ({ kind: "notUpgraded", holder: null }),
      cancel: { outcome: "cancelled" },
    });
    const handle = await client.lock("L", { mode: "upgradeable" });
    expect(await handle.upgrade()).toBe(false);
    expect(handle).toMatchObject({ token: 7n, mode: "upgradeable", held: true });
    expect(sent.cancels).toEqual([]);
    await client.close();
  });

  it("without an answer, learns the outcome with CancelWait of its seq: an upgrade granted first counts", async () => {
    const { client, sent } = setup({
      upgrade: () => Promise.reject(new OutcomeUnknownError("no answer")),
      cancel: { outcome: "granted", token: 31n },
    });
    const handle = await client.lock("L", { mode: "upgradeable" });
    expect(await handle.upgrade({ waitMs: 1_000 })).toBe(true);
    const seq = sent.upgrades[0]?.seq;
    expect(sent.cancels).toMatchObject([{ lock: "L", acquireSeq: seq }]);
    expect(handle).toMatchObject({ token: 31n, mode: "exclusive" });
    await client.close();
  });

  it("given up by its signal, cancels the wait, rejects with the signal's reason and keeps the upgradeable grant", async () => {
    const { client, sent } = setup({
      upgrade: () => new Promise(() => undefined),
      cancel: { outcome: "cancelled" },
    });
    const handle = await client.lock("L", { mode: "upgradeable" });
    const controller = new AbortController();
    const upgraded = handle.upgrade({ waitMs: 60_000, signal: controller.signal });
    await new Promise((r) => setImmediate(r));
    controller.abort(new Error("shutting down"));
    await expect(upgraded).rejects.toThrow("shutting down");
    expect(sent.cancels).toMatchObject([{ lock: "L", acquireSeq: sent.upgrades[0]?.seq }]);
    expect(handle).toMatchObject({ token: 7n, mode: "upgradeable" });
    await client.close();
  });

  it("granted just before its signal's cancel took effect, is downgraded back: the caller keeps an upgradeable grant", async () => {
    const { client, sent } = setup({
      upgrade: () => new Promise(() => undefined),
      cancel: { outcome: "granted", token: 33n },
    });
    const handle = await client.lock("L", { mode: "upgradeable" });
    const controller = new AbortController();
    const upgraded = handle.upgrade({ waitMs: 60_000, signal: controller.signal });
    await new Promise((r) => setImmediate(r));
    controller.abort(new Error("shutting down"));
    await expect(upgraded).rejects.toThrow("shutting down");
    expect(sent.downgrades).toMatchObject([{ lock: "L", token: 33n, mode: "upgradeable" }]);
    expect(handle).toMatchObject({ token: 40n, mode: "upgradeable" });
    await client.close();
  });

  it("after release() is refused before anything is sent", async () => {
    const { client, sent } = setup({
      upgrade: async () => ({ kind: "upgraded", token: 30n }),
      cancel: { outcome: "cancelled" },
    });
    const handle = await client.lock("L", { mode: "upgradeable" });
    await handle.release();
    await expect(handle.upgrade()).rejects.toThrow(NotHolderError);
    await expect(handle.downgrade("shared")).rejects.toThrow(NotHolderError);
    expect(sent.upgrades).toEqual([]);
    await client.close();
  });
});

describe("LockHandle.downgrade", () => {
  it("sends Downgrade with the mode; the handle holds the new grant", async () => {
    const { client, sent } = setup({
      upgrade: async () => ({ kind: "upgraded", token: 30n }),
      cancel: { outcome: "cancelled" },
    });
    const handle = await client.lock("L");
    await handle.downgrade("upgradeable");
    expect(sent.downgrades).toMatchObject([{ lock: "L", token: 7n, mode: "upgradeable" }]);
    expect(handle).toMatchObject({ token: 40n, mode: "upgradeable" });
    await client.close();
  });
});
