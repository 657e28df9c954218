// One client process of the keepalive scale part: one PalisadeClient (default transport,
// the stream) opens `count` sessions of TTL `ttlMs` and keeps them alive until it is killed,
// counting every session it sees lost. It reports on stdout, one JSON line each:
//   {"event":"opened","opened":N,"open_errors":E,"lost":L}   once all opens are answered
//   {"event":"status","opened":N,"open_errors":E,"lost":L,"lost_samples":[…]}   every second
//   node dist/bench/keepalive-proc.js ENDPOINTS COUNT TTL_MS DEADLINE_TICK_MS NAME
import { PalisadeClient, type Session } from "../client/index.ts";

/** Opens in flight from this process at once. */
const OPEN_CONCURRENCY = 128;

async function main(argv: string[]): Promise<void> {
  const [endpointList, countText, ttlText, tickText, name] = argv;
  const count = Number(countText);
  const ttlMs = Number(ttlText);
  const deadlineTickMs = Number(tickText);
  if (
    !endpointList ||
    !name ||
    ![count, ttlMs, deadlineTickMs].every((n) => Number.isFinite(n) && n > 0)
  ) {
    throw new Error("usage: keepalive-proc.js ENDPOINTS COUNT TTL_MS DEADLINE_TICK_MS NAME");
  }
  const client = new PalisadeClient({
    endpoints: endpointList.split(","),
    clientName: name,
    retryBudgetMs: 60_000,
    deadlineTickMs,
  });
  const sessions: Session[] = [];
  let openErrors = 0;
  let lost = 0;
  const lostSamples: string[] = [];
  const figures = (): Record<string, unknown> => ({
    opened: sessions.length,
    open_errors: openErrors,
    lost,
    lost_samples: lostSamples,
  });
  const report = (event: string): void => {
    process.stdout.write(JSON.stringify({ event, ...figures() }) + "\n");
  };
  setInterval(() => report("status"), 1_000);
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < count) {
      next++;
      try {
        const session = await client.openSession({ ttlMs });
        session.onLost((reason) => {
          lost++;
          if (lostSamples.length < 3) lostSamples.push(reason.slice(0, 200));
        });
        sessions.push(session);
      } catch {
        openErrors++;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(OPEN_CONCURRENCY, count) }, lane));
  report("opened");
}

main(process.argv.slice(2)).catch((e: unknown) => {
  process.stdout.write(
    JSON.stringify({ event: "error", message: e instanceof Error ? e.message : String(e) }) + "\n",
  );
  process.exit(1);
});
