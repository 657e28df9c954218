// The benchmark's readiness probe of a Palisade cluster: a session opens and a probe lock is
// taken and released.
import { PalisadeClient } from "../client/index.ts";

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Bounded wait until the cluster serves; the error names the last failure and `logTails()`. */
export async function waitServing(
  endpoints: string[],
  timeoutMs: number,
  logTails: () => string,
): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  let lastError = "";
  while (performance.now() < deadline) {
    const client = new PalisadeClient({ endpoints, retryBudgetMs: 2_000, callTimeoutMs: 1_000 });
    try {
      const session = await client.openSession({ ttlMs: 5_000 });
      const probe = await session.acquire("bench/ready-probe");
      if (probe.acquired && probe.token !== undefined)
        await session.release("bench/ready-probe", probe.token);
      await session.close();
      return;
    } catch (e) {
      lastError = e instanceof Error ? e.message : String(e);
    } finally {
      await client.close().catch(() => undefined);
    }
    await sleep(200);
  }
  throw new Error(`cluster not serving within ${timeoutMs} ms: ${lastError}\n${logTails()}`);
}
