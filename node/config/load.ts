// Reading the cluster file: parse, validate, resolve paths, and pick the local node.
// Every problem is reported by the path of the field it concerns, all at once, so an
// operator fixes the file in one pass.
import { readFileSync } from "node:fs";
import { dirname, isAbsolute, resolve } from "node:path";
import type { z } from "zod";
import { parseHostPort } from "./address.ts";
import { clusterConfigSchema } from "./schema.ts";
import type { ClusterConfig, NodeSpec } from "./schema.ts";

/** A cluster file that cannot be used; `problems` holds one "field: reason" line each. */
export class ConfigError extends Error {
  readonly source: string;
  readonly problems: readonly string[];

  constructor(source: string, problems: readonly string[]) {
    super(`invalid cluster config ${source}:\n${problems.map((p) => `  ${p}`).join("\n")}`);
    this.name = "ConfigError";
    this.source = source;
    this.problems = problems;
  }
}

/** Reads, validates and resolves a cluster file. Throws ConfigError. */
export function loadClusterConfig(file: string): ClusterConfig {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (err) {
    throw new ConfigError(file, [`cannot read file: ${(err as Error).message}`]);
  }
  return parseClusterConfig(text, file);
}

/**
 * Validates a cluster config given as JSON text or as an already parsed value.
 * `source` names it in errors; relative paths (dataDir, tls files) are resolved against
 * `baseDir`, by default the folder of `source`.
 */
export function parseClusterConfig(
  json: unknown,
  source: string,
  baseDir: string = dirname(resolve(source)),
): ClusterConfig {
  let value = json;
  if (typeof json === "string") {
    try {
      value = JSON.parse(json);
    } catch (err) {
      throw new ConfigError(source, [`not valid JSON: ${(err as Error).message}`]);
    }
  }
  const result = clusterConfigSchema.safeParse(value);
  if (!result.success) {
    throw new ConfigError(source, result.error.issues.flatMap(describeIssue));
  }
  const cfg = resolvePaths(result.data, baseDir);
  const shared = sharedDataDirs(cfg.nodes);
  if (shared.length > 0) throw new ConfigError(source, shared);
  return cfg;
}

/** The cluster seen from one node: its own entry and the other members. */
export type NodeConfig = ClusterConfig & { self: NodeSpec; peers: NodeSpec[] };

/** Picks the node with this id (a number, or the text of a `--id` option). Throws ConfigError. */
export function nodeConfig(cfg: ClusterConfig, id: number | string): NodeConfig {
  const wanted = typeof id === "string" && /^\d+$/.test(id.trim()) ? Number(id.trim()) : id;
  if (typeof wanted !== "number" || !Number.isSafeInteger(wanted) || wanted < 1) {
    throw new ConfigError(`cluster ${cfg.clusterId}`, [
      `--id: expected a positive integer, got ${JSON.stringify(id)}`,
    ]);
  }
  const self = cfg.nodes.find((node) => node.id === wanted);
  if (!self) {
    const ids = cfg.nodes.map((node) => node.id).join(", ");
    throw new ConfigError(`cluster ${cfg.clusterId}`, [
      `--id: node ${wanted} is not in the cluster file (its nodes: ${ids})`,
    ]);
  }
  return { ...cfg, self, peers: cfg.nodes.filter((node) => node !== self) };
}

/** Turns a zod issue path into `nodes[1].peerAddress`. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const key of path) {
    if (typeof key === "number") out += `[${key}]`;
    else out += out === "" ? String(key) : `.${String(key)}`;
  }
  return out === "" ? "(root)" : out;
}

function describeIssue(issue: z.core.$ZodIssue): string[] {
  if (issue.code === "unrecognized_keys") {
    return issue.keys.map((key) => `${formatPath([...issue.path, key])}: unknown field`);
  }
  return [`${formatPath(issue.path)}: ${issue.message}`];
}

function resolvePaths(cfg: ClusterConfig, baseDir: string): ClusterConfig {
  const abs = (p: string): string => (isAbsolute(p) ? p : resolve(baseDir, p));
  const resolved: ClusterConfig = {
    ...cfg,
    nodes: cfg.nodes.map((node) => ({ ...node, dataDir: abs(node.dataDir) })),
  };
  if (cfg.tls)
    resolved.tls = { ca: abs(cfg.tls.ca), cert: abs(cfg.tls.cert), key: abs(cfg.tls.key) };
  const pageTls = cfg.statusPage.tls;
  if (pageTls) {
    resolved.statusPage = {
      ...cfg.statusPage,
      tls: {
        cert: abs(pageTls.cert),
        key: abs(pageTls.key),
        ...(pageTls.ca !== undefined ? { ca: abs(pageTls.ca) } : {}),
      },
    };
  }
  return resolved;
}

/** Two nodes on one host cannot share a data folder (LevelDB allows one process per folder). */
function sharedDataDirs(nodes: NodeSpec[]): string[] {
  const seen = new Map<string, number>();
  const problems: string[] = [];
  nodes.forEach((node, i) => {
    const host = parseHostPort(node.peerAddress)?.host.toLowerCase() ?? "";
    const key = `${host}\u0000${node.dataDir}`;
    const earlier = seen.get(key);
    if (earlier !== undefined) {
      problems.push(
        `nodes[${i}].dataDir: ${node.dataDir} is also nodes[${earlier}].dataDir on the same host`,
      );
    } else {
      seen.set(key, i);
    }
  });
  return problems;
}
