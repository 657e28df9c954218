// Starts the systems the throughput part compares Palisade with, on loopback, and returns
// once they serve; they keep running after it exits, and run.sh stops them by pid:
//   node dist/bench/peers.js etcd DIR    three etcd members: DIR/endpoints, DIR/pids
//   node dist/bench/peers.js redis DIR   one Redis (DIR/single) and five for Redlock
//                                        (DIR/redlock), pids in DIR/pids
// Endpoints are comma-separated, pids one per line, written as soon as each process
// starts so that a failure later still leaves every pid to stop.
import { appendFileSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { EtcdCluster } from "./etcd-control.ts";
import { startRedisServers } from "./redis-servers.ts";

async function etcd(dir: string): Promise<void> {
  const cluster = await EtcdCluster.create(dir, { outlive: true });
  for (const id of cluster.ids) {
    cluster.start(id);
    appendFileSync(join(dir, "pids"), `${cluster.pidOf(id)}\n`);
  }
  const leader = await cluster.waitLeader();
  writeFileSync(join(dir, "endpoints"), `${cluster.endpoints.join(",")}\n`);
  process.stdout.write(
    `etcd cluster ready: ${cluster.endpoints.join(",")} (leader m${leader}; pids ${cluster.ids.map((id) => cluster.pidOf(id)).join(",")})\n`,
  );
}

async function redis(dir: string): Promise<void> {
  const servers = await startRedisServers(dir, 6, { outlive: true });
  writeFileSync(join(dir, "pids"), servers.map((s) => `${s.pid}\n`).join(""));
  const [single, ...redlock] = servers;
  writeFileSync(join(dir, "single"), `${single!.endpoint}\n`);
  writeFileSync(join(dir, "redlock"), `${redlock.map((s) => s.endpoint).join(",")}\n`);
  process.stdout.write(
    `redis ready: single ${single!.endpoint} (pid ${single!.pid}); redlock ${redlock.map((s) => `${s.endpoint} (pid ${s.pid})`).join(", ")}\n`,
  );
}

const [system, dir] = process.argv.slice(2);
if ((system !== "etcd" && system !== "redis") || !dir) {
  process.stderr.write("usage: node dist/bench/peers.js etcd|redis DIR\n");
  process.exit(2);
}
mkdirSync(dir, { recursive: true });
(system === "etcd" ? etcd(dir) : redis(dir)).then(
  () => process.exit(0),
  (err: unknown) => {
    process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  },
);
