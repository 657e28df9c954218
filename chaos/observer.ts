// The observer, run inside the clients' namespace: prints the leader as it changes and
// every lock event of the cluster's watch stream (with its log index, a grant's mode when
// shared, and the host monotonic time it arrived). "final" on stdin: takes a sentinel lock, waits until the
// watch has delivered its grant (so every event up to that index is in), lists the live
// sessions and prints them. "stop" ends it.
import { createInterface } from "node:readline";
import { parseArgs } from "node:util";
import { PalisadeClient } from "../client/index.ts";
import { nowUs } from "./clock.ts";
import { emit } from "./protocol.ts";

const { values } = parseArgs({ options: { endpoints: { type: "string", default: "" } } });
const endpoints = values.endpoints.split(",");
const client = new PalisadeClient({
  endpoints,
  clientName: "observer",
  callTimeoutMs: 1_000,
  retryBudgetMs: 10_000,
});
const stop = new AbortController();
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
const SENTINEL = "chaos-final/sentinel";
let sentinelSeen: ((index: bigint) => void) | undefined;

async function pollLeader(): Promise<void> {
  let last = "";
  while (!stop.signal.aborted) {
    const answers = await Promise.all(
      endpoints.map((e) => client.admin.status(e).catch(() => undefined)),
    );
    const leaders = answers.filter((s) => s?.role === "leader");
    const top = leaders.sort((a, b) => (a!.term > b!.term ? -1 : 1))[0];
    if (top) {
      const now = `${top.nodeId}:${top.term}`;
      if (now !== last) emit({ t: "leader", id: top.nodeId, term: top.term.toString() });
      last = now;
    }
    await sleep(300);
  }
}

async function watchAll(): Promise<void> {
  for await (const event of client.read.watch("", { signal: stop.signal })) {
    const at = nowUs();
    if (event.kind === "resync") {
      emit({ t: "watch", kind: "resync", index: event.index.toString(), at });
      continue;
    }
    if (event.lock === SENTINEL) {
      if (event.kind === "acquired") sentinelSeen?.(event.index);
      continue;
    }
    emit({
      t: "watch",
      kind: event.kind,
      index: event.index.toString(),
      lock: event.lock,
      session: event.sessionId.toString(),
      token: event.token.toString(),
      ...(event.mode === "shared" ? { mode: "shared" as const } : {}),
      at,
    });
  }
}

async function final(): Promise<void> {
  for (;;) {
    try {
      const seen = new Promise<bigint>((r) => (sentinelSeen = r));
      const session = await client.openSession({ ttlMs: 10_000 });
      const got = await session.acquire(SENTINEL, { waitMs: 5_000 });
      if (!got.acquired) throw new Error("sentinel not acquired");
      const index = await Promise.race([seen, sleep(20_000).then(() => undefined)]);
      if (index === undefined) throw new Error("the watch did not deliver the sentinel grant");
      const call = nowUs();
      const sessions = await client.read.allSessions({ timeoutMs: 10_000 });
      const ret = nowUs();
      await session.close().catch(() => undefined);
      const live = sessions
        .map((s) => s.sessionId)
        .filter((id) => id !== session.id)
        .map(String);
      emit({ t: "final", live, call, ret, syncedIndex: index.toString() });
      return;
    } catch (err) {
      emit({ t: "log", msg: `final: ${(err as Error).message}` });
      await sleep(500);
    }
  }
}

createInterface({ input: process.stdin }).on("line", (line) => {
  const cmd = line.trim();
  if (cmd === "final") void final();
  if (cmd === "stop") {
    stop.abort();
    void Promise.race([client.close(), sleep(2_000)]).then(() => process.exit(0));
  }
});
void pollLeader();
watchAll().catch((err: unknown) =>
  emit({ t: "log", msg: `watch ended: ${(err as Error).message}` }),
);
emit({ t: "ready", what: "observer" });
