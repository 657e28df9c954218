// One client process of the keepalive scale part's etcd side: the peers' etcd3 client
// (etcd3@1.1.2, from their node_modules) grants `count` leases of TTL `ttlS` and keeps them
// alive (each lease its own keepalive stream, every TTL/3, as etcd3 does) until it is
// killed, counting every lease it sees lost. Reports like keepalive-proc.ts:
//   {"event":"opened","opened":N,"open_errors":E,"lost":L}   {"event":"status",…} every second
// No grant starts after GRANT_SECONDS: etcd3 gives each lease a keepalive stream of its
// own, and on these two cores granting slows down as they add up.
//   node dist/bench/etcd-keepalive-proc.js PEERS_DIR ENDPOINTS COUNT TTL_S GRANT_SECONDS
import { join } from "node:path";
import { pathToFileURL } from "node:url";

/** The part of etcd3's API used here. */
interface EtcdLease {
  grant(): Promise<string>;
  on(event: "lost", listener: (err: Error) => void): void;
}
interface Etcd3Client {
  lease(ttl: number, options?: { autoKeepAlive?: boolean }): EtcdLease;
}
interface Etcd3Module {
  Etcd3: new (options: { hosts: string[] }) => Etcd3Client;
}

const GRANT_CONCURRENCY = 128;

async function main(argv: string[]): Promise<void> {
  const [peers, endpointList, countText, ttlText, boundText] = argv;
  const count = Number(countText);
  const ttlS = Number(ttlText);
  const grantUntil = performance.now() + Number(boundText) * 1000;
  if (!peers || !endpointList || !(count > 0) || !(ttlS > 0) || !(Number(boundText) > 0)) throw new Error("usage: etcd-keepalive-proc.js PEERS_DIR ENDPOINTS COUNT TTL_S GRANT_SECONDS");
  const { Etcd3 } = (await import(pathToFileURL(join(peers, "node_modules", "etcd3", "lib", "index.js")).href)) as Etcd3Module;
  const client = new Etcd3({ hosts: endpointList.split(",") });
  let opened = 0;
  let openErrors = 0;
  let lost = 0;
  const lostSamples: string[] = [];
  const report = (event: string): void => {
    process.stdout.write(JSON.stringify({ event, opened, open_errors: openErrors, lost, lost_samples: lostSamples }) + "\n");
  };
  setInterval(() => report("status"), 1_000);
  let next = 0;
  const leases: EtcdLease[] = [];
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
  process.stdout.write(JSON.stringify({ event: "error", message: e instanceof Error ? e.message : String(e) }) + "\n");
  process.exit(1);
});
