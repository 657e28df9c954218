// One process of a throughput run spread over several (bench/lock-group.ts forks it with an
// IPC channel): it opens the backend and its workers' sessions, answers "ready", starts the
// workers when told, says "warm" once each of them completed a cycle, and after the window
// it is given sends what they recorded. It exits when the parent goes away.
import type { FromChild, ToChild } from "./lock-group.ts";
import { openLocalGroup, type WorkerGroup } from "./lock-group.ts";
import { sharedClock } from "./lock-part.ts";

const send = (m: FromChild): Promise<void> =>
  new Promise((resolve) => process.send?.(m, undefined, {}, () => resolve()));

const fail = (err: unknown): void => {
  const message = err instanceof Error ? err.message : String(err);
  void send({ kind: "failed", message }).finally(() => process.exit(1));
};

let group: WorkerGroup | null = null;

async function handle(m: ToChild): Promise<void> {
  if (m.kind === "open") {
    const { spec } = m;
    group = await openLocalGroup(spec.backend, spec.options, spec.plan, sharedClock(spec.epochNs));
    void group.warm.then(() => send({ kind: "warm" }));
    await send({ kind: "ready", described: group.described });
  } else if (m.kind === "start") {
    if (!group) throw new Error("start before open");
    group.start();
  } else {
    if (!group) throw new Error("measure before open");
    const [part] = await group.measure(m.window);
    await send({ kind: "part", part: part! });
    // Client channels may linger a moment; nothing is left to wait for.
    process.exit(0);
  }
}

if (!process.send) throw new Error("lock-bench-child.js runs only as a forked child");
process.on("message", (m: ToChild) => handle(m).catch(fail));
process.on("disconnect", () => process.exit(1));
