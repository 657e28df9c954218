// A throwaway PostgreSQL server for the fence tests: the newest Debian-packaged server
// binaries, a fresh data directory owned by the `postgres` user (the tests run as root in
// CI, and PostgreSQL refuses to run as root), a private port and a private socket
// directory, no TCP listener. stop() removes it all; a server left by a test process that
// died is stopped by the next start.
import { execFile, spawnSync } from "node:child_process";
import {
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import { processAlive } from "../../chaos/fault/registry.ts";

const run = promisify(execFile);
const PREFIX = "palisade-fence-pg-";
export const INSTALL_COMMAND =
  "sudo apt-get update && sudo apt-get install -y postgresql (or: bash scripts/install-test-deps.sh)";

/** The newest `/usr/lib/postgresql/<version>/bin` that has initdb and pg_ctl. */
export function postgresBinDir(root = "/usr/lib/postgresql"): string {
  const versions = existsSync(root)
    ? readdirSync(root).filter(
        (v) =>
          existsSync(join(root, v, "bin", "initdb")) && existsSync(join(root, v, "bin", "pg_ctl")),
      )
    : [];
  versions.sort((a, b) => a.localeCompare(b, "en", { numeric: true }));
  const newest = versions.at(-1);
  if (newest === undefined)
    throw new Error(
      `PostgreSQL server binaries not found under ${root}; install them with: ${INSTALL_COMMAND}`,
    );
  return join(root, newest, "bin");
}

interface PostgresUser {
  uid: number;
  gid: number;
}

/** As root, the server runs as `postgres`; as anyone else, as that user. */
function serverUser(): PostgresUser | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const line = readFileSync("/etc/passwd", "utf8")
    .split("\n")
    .find((l) => l.startsWith("postgres:"));
  if (!line) throw new Error(`no postgres user; install PostgreSQL with: ${INSTALL_COMMAND}`);
  const [, , uid, gid] = line.split(":");
  return { uid: Number(uid), gid: Number(gid) };
}

function asServerUser(
  user: PostgresUser | undefined,
  command: string,
  args: string[],
): [string, string[]] {
  return user ? ["runuser", ["-u", "postgres", "--", command, ...args]] : [command, args];
}

function stopNow(bin: string, user: PostgresUser | undefined, dataDir: string): void {
  if (!existsSync(join(dataDir, "postmaster.pid"))) return;
  const [command, args] = asServerUser(user, join(bin, "pg_ctl"), [
    "-D",
    dataDir,
    "-m",
    "immediate",
    "-w",
    "stop",
  ]);
  spawnSync(command, args, { stdio: "ignore" });
}

/** Stops and removes servers whose test process is gone. */
function cleanupLeftovers(bin: string, user: PostgresUser | undefined): void {
  for (const entry of readdirSync(tmpdir())) {
    if (!entry.startsWith(PREFIX)) continue;
    const root = join(tmpdir(), entry);
    let owner: number;
    try {
      owner = (JSON.parse(readFileSync(join(root, "owner.json"), "utf8")) as { owner: number })
        .owner;
    } catch {
      // Being created, or broken: judged by its owner file only once it has one.
      continue;
    }
    if (processAlive(owner)) continue;
    stopNow(bin, user, join(root, "data"));
    rmSync(root, { recursive: true, force: true });
  }
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r, reject) => {
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => r());
  });
  const address = server.address();
  await new Promise<void>((r) => server.close(() => r()));
  return typeof address === "object" && address ? address.port : 0;
}

export interface PostgresServer {
  /** The socket directory (pg's `host`). */
  readonly host: string;
  readonly port: number;
  pool(max?: number): pg.Pool;
  stop(): Promise<void>;
}

export async function startPostgres(): Promise<PostgresServer> {
  const bin = postgresBinDir();
  const user = serverUser();
  cleanupLeftovers(bin, user);
  const root = mkdtempSync(join(tmpdir(), PREFIX));
  writeFileSync(join(root, "owner.json"), JSON.stringify({ owner: process.pid }));
  const dataDir = join(root, "data");
  const socketDir = join(root, "sock");
  mkdirSync(dataDir, { mode: 0o700 });
  mkdirSync(socketDir, { mode: 0o700 });
  if (user) for (const dir of [root, dataDir, socketDir]) chownSync(dir, user.uid, user.gid);
  const exitHook = (): void => stopNow(bin, user, dataDir);
  process.on("exit", exitHook);
  const pools: pg.Pool[] = [];

  const exec = async (command: string, args: string[]): Promise<void> => {
    const [file, argv] = asServerUser(user, join(bin, command), args);
    try {
      await run(file, argv, { cwd: root });
    } catch (err) {
      const { stderr, stdout } = err as { stderr?: string; stdout?: string };
      let log = "";
      try {
        log = readFileSync(join(root, "server.log"), "utf8");
      } catch {
        // No log yet.
      }
      throw new Error(
        `${command} failed: ${(err as Error).message}\n${stdout ?? ""}${stderr ?? ""}\n${log}`,
        { cause: err },
      );
    }
  };

  const port = await freePort();
  try {
    await exec("initdb", [
      "-D",
      dataDir,
      "-U",
      "postgres",
      "-A",
      "trust",
      "-E",
      "UTF8",
      "--locale=C",
      "--no-sync",
    ]);
    const serverOptions = `-p ${port} -k ${socketDir} -c listen_addresses='' -c fsync=off -c synchronous_commit=off -c full_page_writes=off`;
    await exec("pg_ctl", [
      "-D",
      dataDir,
      "-l",
      join(root, "server.log"),
      "-o",
      serverOptions,
      "-w",
      "-t",
      "60",
      "start",
    ]);
  } catch (err) {
    stopNow(bin, user, dataDir);
    rmSync(root, { recursive: true, force: true });
    process.off("exit", exitHook);
    throw err;
  }

  return {
    host: socketDir,
    port,
    pool(max = 4) {
      const pool = new pg.Pool({
        host: socketDir,
        port,
        user: "postgres",
        database: "postgres",
        max,
      });
      pools.push(pool);
      return pool;
    },
    async stop() {
      await Promise.allSettled(pools.map((pool) => pool.end()));
      try {
        await exec("pg_ctl", ["-D", dataDir, "-m", "fast", "-w", "stop"]);
      } finally {
        stopNow(bin, user, dataDir);
        process.off("exit", exitHook);
        rmSync(root, { recursive: true, force: true });
      }
    },
  };
}
