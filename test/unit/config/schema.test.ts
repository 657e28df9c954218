import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import {
  ConfigError,
  DEFAULT_DISK,
  DEFAULT_LIMITS,
  DEFAULT_RAFT,
  DEFAULT_SESSION,
  clusterConfigSchema,
  formatHostPort,
  loadClusterConfig,
  nodeConfig,
  parseClusterConfig,
  parseHostPort,
} from "../../../node/config/index.ts";
import type { ClusterConfigInput } from "../../../node/config/index.ts";
import { lockLimitsOf } from "../../../node/server/node.ts";
import { NODE_MALLOC_ENV } from "../../../node/util/malloc-env.ts";

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");

function threeNodes(): ClusterConfigInput {
  return {
    clusterId: "test",
    nodes: [1, 2, 3].map((id) => ({
      id,
      peerAddress: `127.0.0.1:${7100 + id}`,
      clientAddress: `127.0.0.1:${7000 + id}`,
      dataDir: `data/node-${id}`,
    })),
  };
}

/** The problems a config produces, or [] if it is valid. */
function problems(input: unknown): string[] {
  try {
    parseClusterConfig(input, "/etc/palisade/test.json");
    return [];
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return [...(err as ConfigError).problems];
  }
}

describe("shipped cluster files", () => {
  it("local.json validates, with data dirs resolved next to the repository", () => {
    const cfg = loadClusterConfig(join(repo, "cluster-config/local.json"));
    expect(cfg.nodes.map((n) => n.id)).toEqual([1, 2, 3]);
    expect(cfg.nodes.map((n) => n.clientAddress)).toEqual([
      "127.0.0.1:7001",
      "127.0.0.1:7002",
      "127.0.0.1:7003",
    ]);
    expect(cfg.nodes.map((n) => n.peerAddress)).toEqual([
      "127.0.0.1:7101",
      "127.0.0.1:7102",
      "127.0.0.1:7103",
    ]);
    expect(cfg.nodes.map((n) => n.metricsAddress)).toEqual([
      "127.0.0.1:7201",
      "127.0.0.1:7202",
      "127.0.0.1:7203",
    ]);
    expect(cfg.nodes.map((n) => n.dataDir)).toEqual(
      [1, 2, 3].map((i) => join(repo, "data", `node-${i}`)),
    );
    expect(cfg.raft).toEqual(DEFAULT_RAFT);
  });

  it("the three-host example validates and keeps absolute data dirs", () => {
    const cfg = loadClusterConfig(join(repo, "cluster-config/three-host/palisade.json"));
    expect(cfg.nodes.map((n) => n.peerAddress)).toEqual([
      "10.0.0.11:7100",
      "10.0.0.12:7100",
      "10.0.0.13:7100",
    ]);
    expect(cfg.nodes.every((n) => n.dataDir === "/var/lib/palisade")).toBe(true);
    expect(cfg.limits).toEqual(DEFAULT_LIMITS);
  });

  it("the systemd unit starts the node with the instance name as its id", () => {
    const unit = readFileSync(join(repo, "cluster-config/three-host/palisade@.service"), "utf8");
    expect(unit).toMatch(/^ExecStart=.*--config \/etc\/palisade\/palisade\.json --id %i$/m);
    expect(unit).toMatch(/^Restart=on-failure$/m);
    expect(unit).toMatch(/^User=palisade$/m);
    // The malloc settings the other launchers give a node too.
    for (const [name, value] of Object.entries(NODE_MALLOC_ENV))
      expect(unit).toMatch(new RegExp(`^Environment=${name}=${value}$`, "m"));
  });

  it("docs/deployment.md lists every knob of the schema", () => {
    const doc = readFileSync(join(repo, "docs/deployment.md"), "utf8");
    const sections = ["raft", "limits", "disk", "session", "auth"] as const;
    for (const section of sections) {
      const inner = clusterConfigSchema.shape[section].unwrap();
      for (const knob of Object.keys(inner.shape)) {
        expect(doc, `${section}.${knob}`).toContain(`${section}.${knob}`);
      }
    }
  });
});

describe("defaults", () => {
  it("fill in every section left out", () => {
    const cfg = parseClusterConfig(threeNodes(), "/etc/palisade/test.json");
    expect(cfg.raft).toEqual(DEFAULT_RAFT);
    expect(cfg.limits).toEqual(DEFAULT_LIMITS);
    expect(cfg.disk).toEqual(DEFAULT_DISK);
    expect(cfg.session).toEqual(DEFAULT_SESSION);
    expect(cfg.tls).toBeUndefined();
    expect(cfg.limits.maxMessageBytes).toBe(4 * 1024 * 1024);
    expect(cfg.disk.reserveBytes).toBe(64 * 1024 * 1024);
  });

  it("fill in the knobs left out of a section that is present", () => {
    const cfg = parseClusterConfig(
      { ...threeNodes(), raft: { tickMs: 50 }, limits: { maxSessions: 7 } },
      "x.json",
    );
    expect(cfg.raft).toEqual({ ...DEFAULT_RAFT, tickMs: 50 });
    expect(cfg.limits).toEqual({ ...DEFAULT_LIMITS, maxSessions: 7 });
  });

  it("resolve relative paths against the config file's folder", () => {
    const cfg = parseClusterConfig(
      { ...threeNodes(), tls: { ca: "tls/ca.pem", cert: "/abs/node.pem", key: "tls/key.pem" } },
      "/etc/palisade/test.json",
    );
    expect(cfg.nodes[0].dataDir).toBe("/etc/palisade/data/node-1");
    expect(cfg.tls).toEqual({
      ca: "/etc/palisade/tls/ca.pem",
      cert: "/abs/node.pem",
      key: "/etc/palisade/tls/key.pem",
    });
  });

  it("accept JSON text as well as a parsed value", () => {
    const cfg = parseClusterConfig(JSON.stringify(threeNodes()), "/srv/c.json");
    expect(cfg.nodes[2].dataDir).toBe("/srv/data/node-3");
  });
});

describe("errors name the field", () => {
  it("duplicate node ids", () => {
    const input = threeNodes();
    input.nodes[2].id = 1;
    expect(problems(input)).toEqual(["nodes[2].id: duplicate id 1 (also nodes[0].id)"]);
  });

  it("a zero or fractional id", () => {
    const input = threeNodes();
    input.nodes[0].id = 0;
    input.nodes[1].id = 1.5;
    const found = problems(input);
    expect(found).toContain("nodes[0].id: expected an integer ≥ 1");
    expect(found).toContain("nodes[1].id: expected an integer ≥ 1");
  });

  it.each([
    "127.0.0.1",
    "127.0.0.1:0",
    "127.0.0.1:65536",
    ":7000",
    "host name:7000",
    "::1:7000",
    "http://a:1",
  ])("a bad address %j", (bad) => {
    const input = threeNodes();
    input.nodes[1].peerAddress = bad;
    expect(problems(input)).toEqual(["nodes[1].peerAddress: expected host:port"]);
  });

  it("an address used twice, across nodes and fields", () => {
    const input = threeNodes();
    input.nodes[2].metricsAddress = "127.0.0.1:7001";
    expect(problems(input)).toEqual([
      "nodes[2].metricsAddress: duplicate address 127.0.0.1:7001 (also nodes[0].clientAddress)",
    ]);
  });

  it("an election timeout too short for the heartbeat", () => {
    expect(problems({ ...threeNodes(), raft: { electionTicks: 4 } })).toEqual([
      "raft.electionTicks: must be at least 5 × heartbeatTicks (5)",
    ]);
    expect(problems({ ...threeNodes(), raft: { electionTicks: 10, heartbeatTicks: 3 } })).toEqual([
      "raft.electionTicks: must be at least 5 × heartbeatTicks (15)",
    ]);
  });

  it("inverted TTL bounds", () => {
    expect(problems({ ...threeNodes(), limits: { minTtlMs: 5000, maxTtlMs: 2000 } })).toEqual([
      "limits.maxTtlMs: must be at least limits.minTtlMs (5000)",
    ]);
  });

  it("the lock kinds' limits: defaults, bounds, and the replicated limits a leader proposes", () => {
    const defaults = parseClusterConfig(threeNodes(), "x.json");
    expect(defaults.limits).toMatchObject({
      maxPermits: 10_000,
      maxLocksPerAcquire: 64,
      maxHolderDataBytes: 1_024,
      minHoldMs: 1_000,
      maxHoldMs: 86_400_000,
    });
    const kinds = {
      maxPermits: 8,
      maxLocksPerAcquire: 4,
      maxHolderDataBytes: 256,
      minHoldMs: 2_000,
      maxHoldMs: 60_000,
    };
    const cfg = nodeConfig(parseClusterConfig({ ...threeNodes(), limits: kinds }, "x.json"), 1);
    expect(lockLimitsOf(cfg)).toMatchObject(kinds);
    expect(problems({ ...threeNodes(), limits: { minHoldMs: 5_000, maxHoldMs: 4_000 } })).toEqual([
      "limits.maxHoldMs: must be at least limits.minHoldMs (5000)",
    ]);
    expect(
      problems({
        ...threeNodes(),
        limits: { maxPermits: 0, maxLocksPerAcquire: 5_000, maxHolderDataBytes: 1 << 20 },
      }),
    ).toEqual([
      "limits.maxPermits: expected an integer from 1 to 1000000",
      "limits.maxLocksPerAcquire: expected an integer from 1 to 4096",
      "limits.maxHolderDataBytes: expected an integer from 0 to 65536",
    ]);
  });

  it("a minimum TTL shorter than the election timeout", () => {
    expect(problems({ ...threeNodes(), raft: { tickMs: 200 } })).toEqual([
      "limits.minTtlMs: must be at least the election timeout raft.tickMs × raft.electionTicks (2000 ms)",
    ]);
  });

  it("an append budget larger than a message", () => {
    expect(problems({ ...threeNodes(), raft: { maxBytesPerAppend: 8 * 1024 * 1024 } })).toEqual([
      "raft.maxBytesPerAppend: must not exceed limits.maxMessageBytes (4194304)",
    ]);
  });

  it("a drift bound that would swallow the TTL", () => {
    expect(problems({ ...threeNodes(), session: { driftBound: 0.5 } })[0]).toMatch(
      /^session\.driftBound: must be below 0\.5/,
    );
    expect(problems({ ...threeNodes(), session: { driftBound: -0.1 } })[0]).toMatch(
      /^session\.driftBound: /,
    );
  });

  it("a misspelt knob and a wrong type", () => {
    expect(problems({ ...threeNodes(), raft: { electionTick: 10 } })).toEqual([
      "raft.electionTick: unknown field",
    ]);
    expect(problems({ ...threeNodes(), disk: { reserveBytes: "64MiB" } })).toEqual([
      "disk.reserveBytes: expected an integer ≥ 0",
    ]);
  });

  it("a bad cluster id and missing nodes", () => {
    expect(problems({ clusterId: "no spaces", nodes: [] })).toEqual([
      "clusterId: expected 1–64 characters of A–Z, a–z, 0–9, '.', '_' or '-'",
      "nodes: expected at least one node",
    ]);
    expect(problems({ nodes: [] })[0]).toMatch(/^clusterId: /);
  });

  it("every problem at once", () => {
    const input = threeNodes();
    input.nodes[0].clientAddress = "nope";
    input.nodes[1].dataDir = "";
    const found = problems({ ...input, limits: { maxSessions: 0 } });
    expect(found).toEqual(
      expect.arrayContaining([
        "nodes[0].clientAddress: expected host:port",
        "nodes[1].dataDir: expected a path",
        "limits.maxSessions: expected an integer ≥ 1",
      ]),
    );
    expect(found).toHaveLength(3);
  });

  it("two nodes on one host sharing a data dir", () => {
    const input = threeNodes();
    input.nodes[1].dataDir = "./data/node-1";
    expect(problems(input)).toEqual([
      "nodes[1].dataDir: /etc/palisade/data/node-1 is also nodes[0].dataDir on the same host",
    ]);
  });

  it("the same data dir on different hosts is fine", () => {
    const input = threeNodes();
    input.nodes.forEach((n, i) => {
      n.peerAddress = `10.0.0.${i + 1}:7100`;
      n.dataDir = "/var/lib/palisade";
    });
    expect(problems(input)).toEqual([]);
  });

  it("the message lists each problem under the file name", () => {
    const input = threeNodes();
    input.nodes[1].peerAddress = "bad";
    expect(() => parseClusterConfig(input, "cluster.json")).toThrow(
      "invalid cluster config cluster.json:\n  nodes[1].peerAddress: expected host:port",
    );
  });
});

describe("loading files", () => {
  const dir = mkdtempSync(join(tmpdir(), "palisade-config-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("reports a missing file and bad JSON", () => {
    expect(() => loadClusterConfig(join(dir, "missing.json"))).toThrow(/cannot read file/);
    const bad = join(dir, "bad.json");
    writeFileSync(bad, "{ nodes: ");
    expect(() => loadClusterConfig(bad)).toThrow(/bad\.json:\n {2}not valid JSON/);
  });

  it("resolves data dirs against the file's own folder", () => {
    const file = join(dir, "c.json");
    writeFileSync(file, JSON.stringify(threeNodes()));
    expect(loadClusterConfig(file).nodes[1].dataDir).toBe(join(dir, "data/node-2"));
  });
});

describe("nodeConfig", () => {
  const cfg = parseClusterConfig(threeNodes(), "/etc/palisade/c.json");

  it("picks the node by id, from a number or from --id text", () => {
    const two = nodeConfig(cfg, "2");
    expect(two.self.id).toBe(2);
    expect(two.peers.map((n) => n.id)).toEqual([1, 3]);
    expect(two.raft).toEqual(cfg.raft);
    expect(nodeConfig(cfg, 3).self.peerAddress).toBe("127.0.0.1:7103");
  });

  it("names the id when it is not in the file", () => {
    expect(() => nodeConfig(cfg, 4)).toThrow(ConfigError);
    expect(() => nodeConfig(cfg, 4)).toThrow(
      "--id: node 4 is not in the cluster file (its nodes: 1, 2, 3)",
    );
    expect(() => nodeConfig(cfg, "two")).toThrow('--id: expected a positive integer, got "two"');
    expect(() => nodeConfig(cfg, 0)).toThrow("--id: expected a positive integer, got 0");
  });
});

describe("host:port", () => {
  it("parses host names, IPv4 and bracketed IPv6", () => {
    expect(parseHostPort("localhost:7001")).toEqual({ host: "localhost", port: 7001 });
    expect(parseHostPort("node-1.example.com:443")).toEqual({
      host: "node-1.example.com",
      port: 443,
    });
    expect(parseHostPort("[::1]:7001")).toEqual({ host: "::1", port: 7001 });
    expect(parseHostPort("[fe80::1]:99999")).toBeUndefined();
    expect(parseHostPort("[nothex]:1")).toBeUndefined();
    expect(formatHostPort({ host: "::1", port: 7001 })).toBe("[::1]:7001");
    expect(formatHostPort({ host: "10.0.0.1", port: 7001 })).toBe("10.0.0.1:7001");
  });
});
