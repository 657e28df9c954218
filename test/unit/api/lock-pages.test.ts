// Reads of locks with long holder and waiter lists, through real gRPC calls to the node's
// LockService handlers over an applied state (no cluster): GetLock answers a bounded first
// page of each list with the totals and a continuation, every page of a list together is
// the whole list once, ListLocks pages are bounded by bytes as well as by locks, and
// palisadectl shows the first page and pages through the rest when asked.
import * as grpc from "@grpc/grpc-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PalisadeClient } from "../../../client/client.ts";
import { Connection } from "../../../client/connection.ts";
import type { LockHolderInfo, LockWaiterInfo } from "../../../client/types.ts";
import type { ServiceContext } from "../../../node/api/context.ts";
import { lockServiceHandlers } from "../../../node/api/lock-service.ts";
import { LockRequests } from "../../../node/host/lock-requests.ts";
import type { NodeHost } from "../../../node/host/node-host.ts";
import { LockStateMachine, type AcquireCommand } from "../../../node/lock/index.ts";
import { createLogger } from "../../../node/util/logger.ts";
import { palisade } from "../../../proto/gen/palisade.js";
import {
  lockServiceDefinition as lockApi,
  lockServiceNodeDefinition,
  type UnaryMethod,
} from "../../../proto/grpc.ts";
import { runCtlHere } from "../../integration/ctl-in-process.ts";

const pb = palisade.v1;

/** gRPC's default limit on a message a client receives. */
const MESSAGE_LIMIT = 4 * 1024 * 1024;
const HOLDERS = 10_000;
const WAITERS = 10_000;
const BIG_LOCKS = 200;
const PERMITS_EACH = 100;

/** Holder data of 1 KiB that names its session, so each page's entries can be told apart. */
const dataOf = (session: bigint): string => `session ${session} `.padEnd(1_024, "x");

/**
 * The state: "pool", a semaphore of 10,000 permits held by sessions 1..10,000; "queue",
 * held by one session with sessions 1..10,000 waiting behind it; and 200 semaphores
 * "big/NNN" of 100 permits, each held by sessions 1..100. Every grant and wait carries
 * 1 KiB of holder data.
 */
function bigState(): LockStateMachine {
  const sm = new LockStateMachine();
  let index = 0;
  const open = (): bigint => {
    sm.apply(++index, {
      type: "openSession",
      requestId: `r${index}`,
      ttlMs: 60_000,
      clientName: `client-${index}`,
      wallMs: 0,
    });
    return BigInt(index);
  };
  const seqs = new Map<bigint, number>();
  const acquire = (sessionId: bigint, fields: Partial<AcquireCommand> & { lock: string }): void => {
    const seq = (seqs.get(sessionId) ?? 0) + 1;
    seqs.set(sessionId, seq);
    const answer = sm.apply(++index, {
      type: "acquire",
      sessionId,
      seq,
      ackedUpTo: seq - 1,
      held: [],
      waitMs: 0,
      wallMs: 0,
      holderData: dataOf(sessionId),
      ...fields,
    }).result;
    if (answer.kind === "error")
      throw new Error(
        `acquire of ${fields.lock} by ${sessionId}: ${JSON.stringify(answer, (_k, v: unknown) => (typeof v === "bigint" ? String(v) : v))}`,
      );
  };
  const sessions: bigint[] = [];
  for (let i = 0; i < HOLDERS; i++) sessions.push(open());
  const owner = open();
  acquire(owner, { lock: "queue" });
  for (const s of sessions) acquire(s, { lock: "pool", permits: HOLDERS });
  for (const s of sessions.slice(0, WAITERS)) acquire(s, { lock: "queue", waitMs: 3_600_000 });
  for (let l = 0; l < BIG_LOCKS; l++) {
    const lock = `big/${String(l).padStart(3, "0")}`;
    for (const s of sessions.slice(0, PERMITS_EACH)) acquire(s, { lock, permits: PERMITS_EACH });
  }
  return sm;
}

let sm: LockStateMachine;
let endpoint: string;
let server: grpc.Server;
const clients: PalisadeClient[] = [];
const connections: Connection[] = [];

beforeAll(async () => {
  sm = bigState();
  const host = {
    limitsForRequests: () => sm.limits,
    wallMs: () => 0,
    leaderHint: () => "",
    state: sm,
    linearizable: async () => sm.appliedIndex,
  };
  const ctx = {
    host,
    locks: new LockRequests(host as unknown as NodeHost),
    logger: createLogger({ nodeId: 1, level: "silent" }),
  } as unknown as ServiceContext;
  server = new grpc.Server();
  server.addService(
    lockServiceNodeDefinition,
    lockServiceHandlers(ctx) as unknown as grpc.UntypedServiceImplementation,
  );
  const port = await new Promise<number>((resolve, reject) => {
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (err, bound) =>
      err ? reject(err) : resolve(bound),
    );
  });
  endpoint = `127.0.0.1:${port}`;
}, 60_000);

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  for (const c of connections) c.close();
  if (server) await new Promise<void>((resolve) => server.tryShutdown(() => resolve()));
});

function client(): PalisadeClient {
  const c = new PalisadeClient({ endpoints: [endpoint], retryBudgetMs: 2_000 });
  clients.push(c);
  return c;
}

/** One raw call, so the test sees the answer's encoded size. */
async function rawCall<Req, Res>(
  method: UnaryMethod<Req, Res>,
  request: Req,
): Promise<{ response: Res; bytes: number }> {
  const connection = new Connection({
    endpoints: [endpoint],
    callTimeoutMs: 10_000,
    retryBudgetMs: 2_000,
  });
  connections.push(connection);
  const response = await connection.unaryOnce(endpoint, method, request, 10_000, true);
  return { response, bytes: method.responseSerialize(response).byteLength };
}

const sessionsOf = (entries: ReadonlyArray<LockHolderInfo | LockWaiterInfo>): bigint[] =>
  entries.map((e) => e.sessionId);
const oneToN = (n: number): bigint[] => Array.from({ length: n }, (_, i) => BigInt(i + 1));

describe("GetLock of long holder and waiter lists", () => {
  it("GetLock of a semaphore with 10,000 holders of 1 KiB data answers a bounded first page with the totals", async () => {
    const { response, bytes } = await rawCall(
      lockApi.GetLock,
      pb.GetLockRequest.create({ lock: "pool" }),
    );
    expect(bytes).toBeLessThan(MESSAGE_LIMIT / 4);
    expect(response.holderCount).toBe(HOLDERS);
    expect(response.holders.length).toBeGreaterThan(0);
    expect(response.holders.length).toBeLessThanOrEqual(100);
    expect(response.nextHoldersAfter).toBeTruthy();

    const info = await client().read.getLock("pool");
    expect(info.holderCount).toBe(HOLDERS);
    expect(info.holders?.length).toBe(response.holders.length);
    expect(info.nextHoldersAfter).toBeDefined();
  });

  it("paging through a semaphore's holders lists each of its 10,000 holders exactly once, oldest first, with its data", async () => {
    const seen: LockHolderInfo[] = [];
    let pages = 0;
    for await (const page of client().read.lockPages("pool")) {
      pages++;
      expect(page.holderCount).toBe(HOLDERS);
      seen.push(...(page.holders ?? []));
    }
    expect(pages).toBeGreaterThan(1);
    expect(sessionsOf(seen)).toEqual(oneToN(HOLDERS));
    for (const h of seen) expect(h.data).toBe(dataOf(h.sessionId));
  });

  it("GetLock of a lock with 10,000 waiters of 1 KiB data answers a bounded first page with the totals, and its pages list every waiter once in queue order", async () => {
    const { response, bytes } = await rawCall(
      lockApi.GetLock,
      pb.GetLockRequest.create({ lock: "queue" }),
    );
    expect(bytes).toBeLessThan(MESSAGE_LIMIT / 4);
    expect(response.waiterCount).toBe(WAITERS);
    expect(response.waiters.length).toBeLessThanOrEqual(100);

    const seen: LockWaiterInfo[] = [];
    for await (const page of client().read.lockPages("queue", { waiterLimit: 1_000 })) {
      expect(page.waiterCount).toBe(WAITERS);
      expect(page.waiters.length).toBeLessThanOrEqual(1_000);
      seen.push(...page.waiters);
    }
    expect(sessionsOf(seen)).toEqual(oneToN(WAITERS));
    expect(seen.every((w) => w.data === dataOf(w.sessionId))).toBe(true);
  });

  it("a page of 1,000 holders of 1 KiB data is cut by bytes, and the next page starts after its last holder", async () => {
    const { response, bytes } = await rawCall(
      lockApi.GetLock,
      pb.GetLockRequest.create({ lock: "pool", holderLimit: 1_000, waiterLimit: 1_000 }),
    );
    expect(bytes).toBeLessThan(MESSAGE_LIMIT / 4);
    expect(response.holders.length).toBeLessThan(1_000);
    const last = response.holders[response.holders.length - 1];
    expect(String(response.nextHoldersAfter?.sessionId)).toBe(String(last?.sessionId));
    const next = await rawCall(
      lockApi.GetLock,
      pb.GetLockRequest.create({ lock: "pool", holdersAfter: response.nextHoldersAfter }),
    );
    expect(String(next.response.holders[0]?.sessionId)).toBe(String(response.holders.length + 1));
  });
});

describe("ListLocks of locks with many holders", () => {
  it("ListLocks of 200 semaphores of 100 holders with 1 KiB data answers pages under the byte bound, at most 10 holders a lock with the totals, each lock once", async () => {
    const names: string[] = [];
    let after = "";
    do {
      const { response, bytes } = await rawCall(
        lockApi.ListLocks,
        pb.ListLocksRequest.create({ prefix: "big/", after, limit: 1_000 }),
      );
      expect(bytes).toBeLessThan(MESSAGE_LIMIT / 4);
      expect(response.locks.length).toBeGreaterThan(0);
      for (const l of response.locks) {
        expect(l.holderCount).toBe(PERMITS_EACH);
        expect(l.holders?.length ?? 0).toBeLessThanOrEqual(10);
        expect(l.nextHoldersAfter).toBeTruthy();
      }
      names.push(...response.locks.map((l) => l.lock ?? ""));
      after = response.nextAfter;
    } while (after !== "");
    expect(names).toEqual(
      Array.from({ length: BIG_LOCKS }, (_, l) => `big/${String(l).padStart(3, "0")}`),
    );

    const all = await client().read.allLocks("big/");
    expect(all).toHaveLength(BIG_LOCKS);
    expect(all.every((l) => l.holderCount === PERMITS_EACH && l.waiterCount === 0)).toBe(true);
  });
});

describe("palisadectl lock and locks with long lists", () => {
  it("`lock NAME` of a semaphore with 10,000 holders prints the first page with the totals and how to see the rest; --all prints every holder", async () => {
    const first = await runCtlHere([endpoint], "lock", "pool");
    expect(first.stderr).toBe("");
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/^pool: semaphore of 10000 permits, 10000 held/);
    const lines = first.stdout.split("\n").filter((l) => l.startsWith("  holder: "));
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.length).toBeLessThanOrEqual(100);
    expect(first.stdout).toContain(
      `and ${(HOLDERS - lines.length).toLocaleString("en-US")} more holders (--all lists them all)`,
    );

    const all = await runCtlHere([endpoint], "lock", "pool", "--all");
    expect(all.code).toBe(0);
    expect(all.stdout.split("\n").filter((l) => l.startsWith("  holder: "))).toHaveLength(HOLDERS);
    expect(all.stdout).not.toContain("more holders");
  });

  it("`locks` counts every holder of each lock", async () => {
    const run = await runCtlHere([endpoint], "--json", "locks", "big/");
    expect(run.code).toBe(0);
    const locks = JSON.parse(run.stdout) as Array<{
      lock: string;
      holderCount: number;
      holders: unknown[];
    }>;
    expect(locks).toHaveLength(BIG_LOCKS);
    expect(locks.every((l) => l.holderCount === PERMITS_EACH && l.holders.length <= 10)).toBe(true);
    const text = await runCtlHere([endpoint], "locks", "big/");
    expect(text.stdout.split("\n")[1]).toMatch(/^big\/000 .* semaphore\/100 +100$/);
  });
});
