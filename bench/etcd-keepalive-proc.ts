// One client process of the keepalive scale part's etcd side: the etcd3 client grants
// `count` leases of TTL `ttlS` and keeps them
// alive (each lease its own keepalive stream, every TTL/3, as etcd3 does) until it is
// killed, counting every lease it sees lost. Reports like keepalive-proc.ts:
//   {"event":"opened","opened":N,"open_errors":E,"lost":L}   {"event":"status",…} every second
// No grant starts after GRANT_SECONDS: etcd3 gives each lease a keepalive stream of its
// own, and on these two cores granting slows down as they add up.
//   node dist/bench/etcd-keepalive-proc.js ENDPOINTS COUNT TTL_S GRANT_SECONDS
import { Etcd3, type Lease } from "etcd3";

const GRANT_CONCURRENCY = 128;

async function main(argv: string[]): Promise<void> {
  const [endpointList, countText, ttlText, boundText] = argv;
  const count = Number(countText);
  const ttlS = Number(ttlText);
  const grantUntil = performance.now() + Number(boundText) * 1000;
  if (!endpointList || !(count > 0) || !(ttlS > 0) || !(Number(boundText) > 0))
    throw new Error("usage: etcd-keepalive-proc.js ENDPOINTS COUNT TTL_S GRANT_SECONDS");
  const client = new Etcd3({ hosts: endpointList.split(",") });
  let opened = 0;
  let openErrors = 0;
  let lost = 0;
  const lostSamples: string[] = [];
  const report = (event: string): void => {
    process.stdout.write(
      JSON.stringify({ event, opened, open_errors: openErrors, lost, lost_samples: lostSamples }) +
        "\n",
    );
  };
  setInterval(() => report("status"), 1_000);
  let next = 0;
  const leases: Lease[] = [];
  const lane = async (): Promise<void> => {
    while (next < count && performance.now() < grantUntil) {
      next++;
      const lease = client.lease(ttlS);
      let granted = false;
      let counted = false;
      lease.on("lost", (err) => {
        // A grant that failed is counted as such; a lease is lost once however often etcd3 says so.
        if (!granted || counted) return;
        counted = true;
        lost++;
        if (lostSamples.length < 3) lostSamples.push(String(err?.message ?? err).slice(0, 200));
      });
      try {
        await lease.grant();
        granted = true;
        leases.push(lease);
        opened++;
      } catch {
        openErrors++;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(GRANT_CONCURRENCY, count) }, lane));
  report("opened");
}

main(process.argv.slice(2)).catch((e: unknown) => {
  process.stdout.write(
    JSON.stringify({ event: "error", message: e instanceof Error ? e.message : String(e) }) + "\n",
  );
  process.exit(1);
});
