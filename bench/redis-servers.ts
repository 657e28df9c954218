// Redis servers on OS-chosen loopback ports for the benchmark's reference columns: one for
// single Redis, five for Redlock. Durability as a user enabling persistence would set it:
// append-only file, fsync every second, no RDB snapshots. Each server keeps its config,
// data and log in its own folder. Only the pids spawned here are ever signalled.
import { spawn, type ChildProcess } from "node:child_process";
import { closeSync, mkdirSync, openSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import { join } from "node:path";
import { freePorts } from "../scripts/free-ports.ts";
import { sleep, trackChild } from "./cluster-control.ts";

export interface RedisServer {
  endpoint: string;
  pid: number;
}

function config(dir: string, port: number): string {
  return [
    "bind 127.0.0.1",
    "protected-mode yes",
    `port ${port}`,
    "daemonize no",
    `dir ${dir}`,
    `logfile ${join(dir, "redis.log")}`,
    'save ""',
    "appendonly yes",
    "appendfsync everysec",
    "maxmemory-policy noeviction",
    "",
  ].join("\n");
}

/** Whether the server answers PING with PONG. */
function pong(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    const done = (ok: boolean): void => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1_000, () => done(false));
    socket.once("error", () => done(false));
    socket.once("connect", () => socket.write("PING\r\n"));
    socket.once("data", (data) => done(data.toString().startsWith("+PONG")));
  });
}

/**
 * Starts `count` servers under `dir` and resolves once each answers. `outlive`: they keep
 * running when this process exits (stopped later by pid).
 */
export async function startRedisServers(
  dir: string,
  count: number,
  options: { outlive?: boolean } = {},
): Promise<RedisServer[]> {
  const ports = await freePorts(count);
  const children: ChildProcess[] = [];
  for (const port of ports) {
    const home = join(dir, String(port));
    mkdirSync(home, { recursive: true });
    writeFileSync(join(home, "redis.conf"), config(home, port));
    const out = openSync(join(home, "stdout.log"), "a");
    const child = spawn("redis-server", [join(home, "redis.conf")], {
      stdio: ["ignore", out, out],
      detached: options.outlive ?? false,
    });
    closeSync(out);
    if (child.pid === undefined)
      throw new Error(`redis-server on ${port} did not start (apt-get install redis-server)`);
    if (options.outlive) child.unref();
    else trackChild(child);
    children.push(child);
  }
  const until = performance.now() + 15_000;
  for (const port of ports) {
    while (!(await pong(port))) {
      if (performance.now() > until)
        throw new Error(
          `redis-server on ${port} did not answer within 15 s; see ${join(dir, String(port), "redis.log")}`,
        );
      await sleep(100);
    }
  }
  return ports.map((port, i) => ({ endpoint: `127.0.0.1:${port}`, pid: children[i]!.pid! }));
}
