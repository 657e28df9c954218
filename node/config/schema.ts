// Schema of the cluster file: one JSON file describes the whole cluster, and each node
// is started with its own id (`--id 2`). Unknown fields are errors, so a misspelt knob
// is reported instead of silently falling back to its default.
import { z } from "zod";
import { parseHostPort } from "./address.ts";
import {
  DEFAULT_DISK,
  DEFAULT_LIMITS,
  DEFAULT_RAFT,
  DEFAULT_SESSION,
  DEFAULT_STATUS_PAGE,
} from "./defaults.ts";

const KiB = 1024;
const MAX_GRPC_MESSAGE_BYTES = 2 ** 31 - 1;

/** An integer in [min, max]; one message for a wrong type and for a value out of range. */
function integer(min: number, max: number = Number.MAX_SAFE_INTEGER) {
  const range = max === Number.MAX_SAFE_INTEGER ? `≥ ${min}` : `from ${min} to ${max}`;
  const error = `expected an integer ${range}`;
  return z.int({ error }).min(min, { error }).max(max, { error });
}

const address = z
  .string({ error: "expected host:port" })
  .refine((text) => parseHostPort(text) !== undefined, { error: "expected host:port" });

const path = z.string({ error: "expected a path" }).min(1, { error: "expected a path" });

export const nodeSchema = z.strictObject({
  /** Raft id of the node: positive, unique, never reused for another machine. */
  id: integer(1),
  /** Where the other nodes reach this node's Raft service. */
  peerAddress: address,
  /** Where clients and palisadectl reach this node's lock and admin services. */
  clientAddress: address,
  /** Folder of the node's log, snapshots and state; relative paths are resolved against the cluster file's folder. */
  dataDir: path,
  /** Where Prometheus scrapes /metrics (and, without mTLS, where /ui is served); no metrics endpoint when absent. */
  metricsAddress: address.optional(),
  /** A listener of the status page's own (HTTPS with client certificates under mTLS); without it the page is on metricsAddress, or off under mTLS. */
  statusAddress: address.optional(),
  /** Where HTTP clients reach the JSON gateway (POST /v1/<Call>, GET /v1/Watch); HTTPS with the node's certificate under mTLS. No gateway when absent. */
  httpAddress: address.optional(),
});

export const raftSchema = z
  .strictObject({
    /** Length of one Raft tick in milliseconds; every other timing knob counts ticks. */
    tickMs: integer(1, 60_000).default(DEFAULT_RAFT.tickMs),
    /** Ticks without hearing a leader before a follower starts a (pre-)election; randomised up to twice this. */
    electionTicks: integer(2, 10_000).default(DEFAULT_RAFT.electionTicks),
    /** Ticks between the leader's heartbeats. */
    heartbeatTicks: integer(1, 1_000).default(DEFAULT_RAFT.heartbeatTicks),
    /** AppendEntries messages in flight to one follower before the leader waits for acks. */
    maxInflightMsgs: integer(1, 65_536).default(DEFAULT_RAFT.maxInflightMsgs),
    /** Byte budget of the entries in one AppendEntries (a single larger entry is still sent alone). */
    maxBytesPerAppend: integer(KiB, MAX_GRPC_MESSAGE_BYTES).default(DEFAULT_RAFT.maxBytesPerAppend),
    /** Applied entries since the last snapshot that trigger a new snapshot and log compaction. */
    snapshotEntries: integer(1).default(DEFAULT_RAFT.snapshotEntries),
  })
  .superRefine((raft, ctx) => {
    // A heartbeat must arrive several times per election timeout, or a slow event loop
    // turns into needless elections.
    if (raft.electionTicks < 5 * raft.heartbeatTicks) {
      ctx.addIssue({
        code: "custom",
        path: ["electionTicks"],
        message: `must be at least 5 × heartbeatTicks (${5 * raft.heartbeatTicks})`,
      });
    }
  });

export const limitsSchema = z
  .strictObject({
    /** Live sessions the cluster keeps; OpenSession beyond this answers RESOURCE_EXHAUSTED. */
    maxSessions: integer(1).default(DEFAULT_LIMITS.maxSessions),
    /** Locks one session may hold or wait for at once. */
    maxLocksPerSession: integer(1).default(DEFAULT_LIMITS.maxLocksPerSession),
    /** Waiters queued on one lock. */
    maxWaitersPerLock: integer(1).default(DEFAULT_LIMITS.maxWaitersPerLock),
    /** Kept answers plus pending waits per session before writes answer RESOURCE_EXHAUSTED. */
    maxInFlightPerSession: integer(1, 4_096).default(DEFAULT_LIMITS.maxInFlightPerSession),
    /** Largest gRPC message a node accepts or sends, in bytes. */
    maxMessageBytes: integer(64 * KiB, MAX_GRPC_MESSAGE_BYTES).default(
      DEFAULT_LIMITS.maxMessageBytes,
    ),
    /** Longest wait_ms an Acquire may ask for; more is INVALID_ARGUMENT. */
    maxWaitMs: integer(0).default(DEFAULT_LIMITS.maxWaitMs),
    /** Shortest session TTL a client may ask for; less is INVALID_ARGUMENT, never clamped. */
    minTtlMs: integer(1).default(DEFAULT_LIMITS.minTtlMs),
    /** Longest session TTL a client may ask for; more is INVALID_ARGUMENT, never clamped. */
    maxTtlMs: integer(1).default(DEFAULT_LIMITS.maxTtlMs),
    /** Requests per second one client identity may send to a node (certificate subject, else session, else peer host); 0 turns the limit off. */
    requestsPerSecond: z
      .number({ error: "expected a number ≥ 0" })
      .min(0, { error: "expected a number ≥ 0" })
      .max(1e9, { error: "expected a number ≤ 1e9" })
      .default(DEFAULT_LIMITS.requestsPerSecond),
    /** Requests one client identity may send at once before the per-second rate applies. */
    requestBurst: integer(1).default(DEFAULT_LIMITS.requestBurst),
    /** Most permits a semaphore may have; an Acquire asking for more (or for 0) is INVALID_ARGUMENT. */
    maxPermits: integer(1, 1_000_000).default(DEFAULT_LIMITS.maxPermits),
    /** Most locks one atomic multi-lock Acquire may name. */
    maxLocksPerAcquire: integer(1, 4_096).default(DEFAULT_LIMITS.maxLocksPerAcquire),
    /** Most bytes of holder data an Acquire may carry (kept with the grant in state, history and snapshots). */
    maxHolderDataBytes: integer(0, 64 * KiB).default(DEFAULT_LIMITS.maxHolderDataBytes),
    /** Shortest hold limit an Acquire may ask for (0, no limit, is always allowed). */
    minHoldMs: integer(1).default(DEFAULT_LIMITS.minHoldMs),
    /** Longest hold limit an Acquire may ask for. */
    maxHoldMs: integer(1).default(DEFAULT_LIMITS.maxHoldMs),
  })
  .superRefine((limits, ctx) => {
    if (limits.maxTtlMs < limits.minTtlMs) {
      ctx.addIssue({
        code: "custom",
        path: ["maxTtlMs"],
        message: `must be at least limits.minTtlMs (${limits.minTtlMs})`,
      });
    }
    if (limits.maxHoldMs < limits.minHoldMs) {
      ctx.addIssue({
        code: "custom",
        path: ["maxHoldMs"],
        message: `must be at least limits.minHoldMs (${limits.minHoldMs})`,
      });
    }
  });

export const diskSchema = z.strictObject({
  /** Free bytes kept on the data volume; below this the node stops taking proposals and acking appends until space returns. */
  reserveBytes: integer(0).default(DEFAULT_DISK.reserveBytes),
});

export const sessionSchema = z.strictObject({
  /** Bound ρ on clock-rate drift; clients end a session 2·ρ·TTL plus one tick before the server would. */
  driftBound: z
    .number({ error: "expected a number from 0 to below 0.5" })
    .min(0, { error: "expected a number from 0 to below 0.5" })
    .lt(0.5, {
      error: "must be below 0.5 so the client's margin 2·ρ·TTL stays shorter than the TTL",
    })
    .default(DEFAULT_SESSION.driftBound),
});

export const tlsSchema = z.strictObject({
  /** PEM bundle of the certificate authority that signs node, admin and client certificates. */
  ca: path,
  /** PEM certificate of this node (role node, CN node-<id>); `{id}` in the path becomes the node's id. */
  cert: path,
  /** PEM private key of this node; `{id}` in the path becomes the node's id. */
  key: path,
});

const identityName = z
  .string({ error: "expected an identity name" })
  .regex(/^[A-Za-z0-9._:@/=+-]{1,128}$/, {
    error: "expected 1–128 letters, digits or . _ : @ / = + -",
  });

export const authSchema = z.strictObject({
  /**
   * Which field of a client certificate names its identity: its subject's CN, its first DNS
   * subject alternative name, or its first URI one.
   */
  certIdentity: z.enum(["cn", "dns", "uri"]).default("cn"),
  /**
   * Identities (certificate names) that are admins whatever the policy says: the first
   * admins of a new cluster. An admin certificate (OU=admin) always is one.
   */
  admins: z.array(identityName).max(64, { error: "expected at most 64 admins" }).default([]),
});

export const statusPageSchema = z.strictObject({
  /** Whether nodes serve the read-only status page (/ui) at all. */
  enabled: z.boolean({ error: "expected true or false" }).default(DEFAULT_STATUS_PAGE.enabled),
  /** Browsers following the live event feed of one node at once; more are answered 503. */
  maxLiveFeeds: integer(1, 10_000).default(DEFAULT_STATUS_PAGE.maxLiveFeeds),
  /**
   * Under mTLS: the HTTPS certificate of each node's statusAddress listener (`{id}` becomes
   * the node's id). Browsers must present a client or admin certificate signed by `ca`
   * (default: the cluster CA).
   */
  tls: z.strictObject({ cert: path, key: path, ca: path.optional() }).optional(),
});

const lockPrefix = z
  .string({ error: "expected a lock-name prefix of 1–128 characters" })
  .min(1, { error: "expected a lock-name prefix of 1–128 characters" })
  .max(128, { error: "expected a lock-name prefix of 1–128 characters" });

export const metricsSchema = z.strictObject({
  /**
   * Lock-name prefixes that may appear as the `lock_prefix` label of the per-lock metrics
   * (each lock counts under the longest listed prefix it starts with). Empty by default:
   * lock names are user input, and a label per name would grow without bound.
   */
  lockPrefixes: z
    .array(lockPrefix, { error: "expected a list of lock-name prefixes" })
    .max(64, { error: "expected at most 64 prefixes" })
    .default([]),
});

export const clusterConfigSchema = z
  .strictObject({
    /** Name of the cluster; peers drop messages carrying another cluster's id. */
    clusterId: z
      .string({ error: "expected 1–64 characters of A–Z, a–z, 0–9, '.', '_' or '-'" })
      .regex(/^[A-Za-z0-9._-]{1,64}$/, {
        error: "expected 1–64 characters of A–Z, a–z, 0–9, '.', '_' or '-'",
      }),
    /** Every member of the cluster, the node being started included. */
    nodes: z
      .array(nodeSchema, { error: "expected a list of nodes" })
      .min(1, { error: "expected at least one node" }),
    raft: raftSchema.prefault({}),
    limits: limitsSchema.prefault({}),
    disk: diskSchema.prefault({}),
    session: sessionSchema.prefault({}),
    /** Certificates for peer, client and admin connections; plaintext when absent. */
    tls: tlsSchema.optional(),
    /** Identities: which certificate field names one, and the first admins. */
    auth: authSchema.prefault({}),
    statusPage: statusPageSchema.prefault({}),
    metrics: metricsSchema.prefault({}),
  })
  .superRefine((cfg, ctx) => {
    checkUniqueNodes(cfg.nodes, ctx);
    checkStatusPage(cfg, ctx);
    const electionMs = cfg.raft.tickMs * cfg.raft.electionTicks;
    // A session shorter than one election timeout could not outlive a routine failover.
    if (electionMs > cfg.limits.minTtlMs) {
      ctx.addIssue({
        code: "custom",
        path: ["limits", "minTtlMs"],
        message: `must be at least the election timeout raft.tickMs × raft.electionTicks (${electionMs} ms)`,
      });
    }
    if (cfg.raft.maxBytesPerAppend > cfg.limits.maxMessageBytes) {
      ctx.addIssue({
        code: "custom",
        path: ["raft", "maxBytesPerAppend"],
        message: `must not exceed limits.maxMessageBytes (${cfg.limits.maxMessageBytes})`,
      });
    }
  });

type NodeInput = z.output<typeof nodeSchema>;

/** Ids are unique; no two sockets of the cluster (peer, client, metrics) share an address. */
function checkUniqueNodes(nodes: NodeInput[], ctx: z.RefinementCtx): void {
  const firstWithId = new Map<number, number>();
  const firstWithAddress = new Map<string, string>();
  nodes.forEach((node, i) => {
    const earlier = firstWithId.get(node.id);
    if (earlier !== undefined) {
      ctx.addIssue({
        code: "custom",
        path: ["nodes", i, "id"],
        message: `duplicate id ${node.id} (also nodes[${earlier}].id)`,
      });
    } else {
      firstWithId.set(node.id, i);
    }
    const fields = [
      "peerAddress",
      "clientAddress",
      "metricsAddress",
      "statusAddress",
      "httpAddress",
    ] as const;
    for (const field of fields) {
      const value = node[field];
      if (value === undefined) continue;
      const key = value.toLowerCase();
      const other = firstWithAddress.get(key);
      if (other !== undefined) {
        ctx.addIssue({
          code: "custom",
          path: ["nodes", i, field],
          message: `duplicate address ${value} (also ${other})`,
        });
      } else {
        firstWithAddress.set(key, `nodes[${i}].${field}`);
      }
    }
  });
}

/**
 * Under mTLS the status page is off unless it has a listener and credentials of its own:
 * a node's statusAddress needs statusPage.tls then, and statusPage.tls needs mTLS.
 */
function checkStatusPage(
  cfg: { nodes: NodeInput[]; tls?: unknown; statusPage: z.output<typeof statusPageSchema> },
  ctx: z.RefinementCtx,
): void {
  if (cfg.statusPage.tls && !cfg.tls) {
    ctx.addIssue({
      code: "custom",
      path: ["statusPage", "tls"],
      message: "only used with mutual TLS (a tls section); without it the page is plain HTTP",
    });
  }
  if (cfg.tls && cfg.statusPage.enabled && !cfg.statusPage.tls) {
    cfg.nodes.forEach((node, i) => {
      if (node.statusAddress === undefined) return;
      ctx.addIssue({
        code: "custom",
        path: ["nodes", i, "statusAddress"],
        message:
          "under mutual TLS the status page needs statusPage.tls (its HTTPS certificate and key)",
      });
    });
  }
}

/** A validated cluster file with defaults filled in and paths resolved. */
export type ClusterConfig = z.output<typeof clusterConfigSchema>;
/** What may be written in a cluster file (knobs with defaults are optional). */
export type ClusterConfigInput = z.input<typeof clusterConfigSchema>;
export type NodeSpec = z.output<typeof nodeSchema>;
export type RaftSettings = z.output<typeof raftSchema>;
export type Limits = z.output<typeof limitsSchema>;
export type DiskSettings = z.output<typeof diskSchema>;
export type SessionSettings = z.output<typeof sessionSchema>;
export type TlsFiles = z.output<typeof tlsSchema>;
export type StatusPageSettings = z.output<typeof statusPageSchema>;
export type MetricsSettings = z.output<typeof metricsSchema>;
