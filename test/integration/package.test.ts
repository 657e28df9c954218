// `npm pack` makes a package that installs with its production dependencies only and runs:
// both bins answer --help, a node run from it serves (its status page too), palisadectl from
// it reads that node's status and a plain .mjs app takes a lock through it, `palisade init`
// writes a cluster folder, palisade-lock/client and palisade-lock/fence resolve to compiled
// JavaScript with type declarations, as does every import path the docs show. Everything
// happens in a temp folder that is removed at the end.
import { execFile, spawn, type ChildProcess } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePorts } from "../../scripts/free-ports.ts";
import { ensureRoot, forgetPid, IT_ROOT, recordOwner, recordPid } from "./pidfiles.ts";

const REPO_ROOT = resolve(fileURLToPath(new URL("../..", import.meta.url)));
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function run(file: string, args: string[], cwd: string, timeoutMs = 90_000): Promise<Run> {
  return new Promise((done) => {
    execFile(
      file,
      args,
      { cwd, timeout: timeoutMs, maxBuffer: 16 * 1024 * 1024 },
      (err, stdout, stderr) => {
        done({ code: err ? (typeof err.code === "number" ? err.code : 1) : 0, stdout, stderr });
      },
    );
  });
}

interface PackedFile {
  path: string;
}

let dir: string;
let app: string;
let packed: string[] = [];
let node: ChildProcess | null = null;

beforeAll(async () => {
  ensureRoot();
  dir = mkdtempSync(join(IT_ROOT, "cluster-pack-"));
  recordOwner(dir);
  // `npm pack` runs `prepare`, which builds dist/ afresh.
  const pack = await run("npm", ["pack", "--json", "--pack-destination", dir], REPO_ROOT);
  if (pack.code !== 0) throw new Error(`npm pack failed:\n${pack.stderr}`);
  const [info] = JSON.parse(pack.stdout.slice(pack.stdout.indexOf("["))) as Array<{
    filename: string;
    files: PackedFile[];
  }>;
  packed = info.files.map((f) => f.path);
  app = join(dir, "app");
  mkdirSync(app);
  writeFileSync(
    join(app, "package.json"),
    JSON.stringify({ name: "palisade-pack-check", private: true, type: "module" }),
  );
  const install = await run(
    "npm",
    [
      "install",
      "--omit=dev",
      "--prefer-offline",
      "--no-audit",
      "--no-fund",
      join(dir, info.filename),
    ],
    app,
  );
  if (install.code !== 0) throw new Error(`npm install of the package failed:\n${install.stderr}`);
}, 150_000);

afterAll(async () => {
  if (node && node.exitCode === null && node.signalCode === null) {
    node.kill("SIGKILL");
    await new Promise((r) => node?.once("exit", r));
  }
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const bin = (name: string): string => join(app, "node_modules/.bin", name);

describe("the package made by npm pack", () => {
  it("holds compiled JavaScript and declarations, no TypeScript sources, and installs no dev dependency", () => {
    expect(packed).toContain("dist/node/cli/main.js");
    expect(packed).toContain("dist/bundle/node.mjs");
    expect(packed).toContain("dist/client/index.d.ts");
    expect(packed).toContain("dist/proto/gen/palisade.js");
    expect(packed).toContain("dist/client/run/watchdog.mjs");
    expect(packed.filter((p) => p.endsWith(".ts") && !p.endsWith(".d.ts"))).toEqual([]);
    for (const dev of ["tsx", "typescript", "vitest", "eslint"])
      expect(existsSync(join(app, "node_modules", dev)), dev).toBe(false);
  });

  it("runs palisade --help and palisadectl --help", async () => {
    const palisade = await run(bin("palisade"), ["--help"], app);
    expect(palisade.code, palisade.stderr).toBe(0);
    expect(palisade.stdout).toMatch(/^Usage: palisade node/);
    const ctl = await run(bin("palisadectl"), ["--help"], app);
    expect(ctl.code, ctl.stderr).toBe(0);
    expect(ctl.stdout).toMatch(/^Usage: palisadectl/);
  });

  it("exports palisade-lock/client and palisade-lock/fence as JavaScript with type declarations", async () => {
    const probe = await run(
      process.execPath,
      [
        "--input-type=module",
        "-e",
        "const c = await import('palisade-lock/client'); const f = await import('palisade-lock/fence');" +
          "console.log(typeof c.PalisadeClient, typeof f.MemoryFence, import.meta.resolve('palisade-lock/client'))",
      ],
      app,
    );
    expect(probe.code, probe.stderr).toBe(0);
    expect(probe.stdout.trim()).toMatch(
      /^function function file:\/\/.*\/node_modules\/palisade-lock\/dist\/client\/index\.js$/,
    );
    // A TypeScript consumer gets the declarations: a typed call compiles, a mistyped one does not.
    writeFileSync(
      join(app, "check.ts"),
      [
        `import { PalisadeClient, type NodeStatus } from "palisade-lock/client";`,
        `import { MemoryFence } from "palisade-lock/fence";`,
        `const status: Promise<NodeStatus> = new PalisadeClient({ endpoints: ["127.0.0.1:1"] }).admin.status("127.0.0.1:1");`,
        `// @ts-expect-error: a fencing token is a bigint`,
        `void new MemoryFence().guard("resource", "not a token", async () => undefined);`,
        `void status;`,
      ].join("\n"),
    );
    const tsc = await run(
      process.execPath,
      [
        join(REPO_ROOT, "node_modules/typescript/bin/tsc"),
        "--noEmit",
        "--strict",
        "--module",
        "nodenext",
        "--moduleResolution",
        "nodenext",
        "--target",
        "es2022",
        "--skipLibCheck",
        "--typeRoots",
        join(REPO_ROOT, "node_modules/@types"),
        "--types",
        "node",
        "check.ts",
      ],
      app,
    );
    expect(tsc.code, tsc.stdout).toBe(0);
  });

  it("runs a node whose status palisadectl from the package reads, serves its status page, and stops it with SIGTERM", async () => {
    const [peerPort, clientPort, metricsPort] = await freePorts(3);
    const endpoint = `127.0.0.1:${clientPort}`;
    const config = join(dir, "cluster.json");
    writeFileSync(
      config,
      JSON.stringify({
        clusterId: "palisade-pack",
        nodes: [
          {
            id: 1,
            peerAddress: `127.0.0.1:${peerPort}`,
            clientAddress: endpoint,
            metricsAddress: `127.0.0.1:${metricsPort}`,
            dataDir: "node-1",
          },
        ],
        disk: { reserveBytes: 0 },
      }),
    );
    let output = "";
    node = spawn(
      bin("palisade"),
      ["node", "--config", config, "--id", "1", "--log-format", "json"],
      { cwd: app, stdio: ["ignore", "pipe", "pipe"] },
    );
    node.stdout?.on("data", (d: Buffer) => (output += d.toString()));
    node.stderr?.on("data", (d: Buffer) => (output += d.toString()));
    const pid = node.pid as number;
    recordPid(pid, dir);
    const exited = new Promise<number | null>((r) => node?.once("exit", (code) => r(code)));
    let status: Run = { code: -1, stdout: "", stderr: "" };
    for (let i = 0; i < 100 && status.code !== 0; i++) {
      if (node.exitCode !== null) throw new Error(`the node exited:\n${output}`);
      status = await run(
        bin("palisadectl"),
        ["--endpoints", endpoint, "--json", "--timeout", "1s", "status"],
        app,
      );
      if (status.code !== 0) await sleep(200);
    }
    expect(status.code, `${status.stderr}\n${output}`).toBe(0);
    const rows = JSON.parse(status.stdout) as Array<{ reachable: boolean; nodeId?: number }>;
    expect(rows).toEqual([expect.objectContaining({ reachable: true, nodeId: 1 })]);
    // A plain .mjs application of the package's user takes and releases a lock.
    writeFileSync(
      join(app, "main.mjs"),
      [
        `import { PalisadeClient } from "palisade-lock/client";`,
        `const client = new PalisadeClient({ endpoints: [${JSON.stringify(endpoint)}] });`,
        `const token = await client.withLock("pack/1", async ({ token }) => token);`,
        `console.log("token", String(token));`,
        `await client.close();`,
      ].join("\n"),
    );
    const main = await run(process.execPath, ["main.mjs"], app);
    expect(main.code, main.stderr).toBe(0);
    expect(main.stdout).toMatch(/^token [1-9]\d*$/m);
    expect(main.stderr).toBe("");
    // The page's files are read beside the bundled node.
    const page = await fetch(`http://127.0.0.1:${metricsPort}/ui`);
    expect(page.status).toBe(200);
    expect(await page.text()).toMatch(/<html/i);
    node.kill("SIGTERM");
    expect(await exited).toBe(0);
    forgetPid(pid);
    expect(output).toContain("node stopped");
  });

  it("exports every import path the docs show", async () => {
    const docs = [
      "README.md",
      "client/README.md",
      ...readdirSync(join(REPO_ROOT, "docs"), { recursive: true, encoding: "utf8" })
        .filter((f) => f.endsWith(".md"))
        .map((f) => join("docs", f)),
    ];
    const shown = new Set<string>();
    for (const doc of docs)
      for (const m of readFileSync(join(REPO_ROOT, doc), "utf8").matchAll(
        /from "(palisade-lock(?:\/[\w-]+)*)"/g,
      ))
        shown.add(m[1] as string);
    expect([...shown]).toContain("palisade-lock/client");
    for (const spec of shown) {
      const probe = await run(
        process.execPath,
        ["--input-type=module", "-e", `await import(${JSON.stringify(spec)})`],
        app,
      );
      expect(probe.code, `${spec}: ${probe.stderr}`).toBe(0);
    }
  });

  it("runs palisade init, which writes the cluster file, certificates and the systemd unit", async () => {
    const out = join(dir, "init");
    const init = await run(
      bin("palisade"),
      ["init", "--dir", out, "--hosts", "10.9.0.1,10.9.0.2,10.9.0.3"],
      app,
    );
    expect(init.code, init.stderr).toBe(0);
    for (const file of [
      "palisade.json",
      "palisade@.service",
      "certs/ca.crt",
      "certs/node-1.crt",
      "certs/admin.key",
    ]) {
      expect(existsSync(join(out, file)), file).toBe(true);
    }
  });
});
