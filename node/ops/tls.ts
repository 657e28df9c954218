// TLS for a node: credentials from the cluster file's certificate files, the identity a
// verified peer certificate carries, and which services each role may reach.
//
// A certificate's role is its subject's OU: "node" (CN node-<id>), "admin" or "client".
// Every certificate must be signed by the cluster CA; connections without one, or with
// one from another CA, fail in the TLS handshake.
import { readFileSync } from "node:fs";
import * as grpc from "@grpc/grpc-js";
import { tlsChannelCredentials } from "../../proto/tls-channel.ts";
import type { TlsFiles } from "../config/index.ts";

export const CERT_ROLES = ["node", "admin", "client"] as const;
export type CertRole = (typeof CERT_ROLES)[number];

/** Who a verified peer certificate says the caller is. */
export interface PeerIdentity {
  /** null when the certificate carries no known role. */
  readonly role: CertRole | null;
  /** Node id from CN node-<id>, for node certificates only. */
  readonly nodeId: number | null;
  /** The subject as "CN=…,OU=…", a stable name for logs and rate limits. */
  readonly subject: string;
  /** The fields an identity may be taken from (see the cluster file's auth.certIdentity). */
  readonly cn: string;
  readonly dns: readonly string[];
  readonly uri: readonly string[];
}

export type AuthContext = ReturnType<grpc.ServerInterceptingCallInterface["getAuthContext"]>;

export interface NodeCredentials {
  /** For the peer and client servers: certificates required and verified against the CA. */
  readonly server: grpc.ServerCredentials;
  /** For this node's calls to its peers: it presents its own node certificate. */
  readonly channel: grpc.ChannelCredentials;
}

/** The certificate and key paths of one node: `{id}` stands for its id. */
export function nodeTlsFiles(tls: TlsFiles, nodeId: number): TlsFiles {
  const fill = (path: string): string => path.replaceAll("{id}", String(nodeId));
  return { ca: tls.ca, cert: fill(tls.cert), key: fill(tls.key) };
}

function read(path: string, what: string): Buffer {
  try {
    return readFileSync(path);
  } catch (error) {
    throw new Error(`cannot read the TLS ${what} ${path}: ${(error as Error).message}`, {
      cause: error,
    });
  }
}

/** Loads a node's credentials; throws with the file that cannot be read. */
export function loadNodeCredentials(tls: TlsFiles, nodeId: number): NodeCredentials {
  const files = nodeTlsFiles(tls, nodeId);
  const ca = read(files.ca, "CA bundle");
  const cert = read(files.cert, "certificate");
  const key = read(files.key, "private key");
  return {
    server: grpc.ServerCredentials.createSsl(ca, [{ cert_chain: cert, private_key: key }], true),
    channel: tlsChannelCredentials({ ca, key, cert }),
  };
}

/** One subject attribute: Node gives a string, or an array when the attribute repeats. */
function attribute(value: string | string[] | undefined): string[] {
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}

/** The identity of a caller verified by TLS, or null on a plaintext connection or without a certificate. */
export function identityOf(auth: AuthContext): PeerIdentity | null {
  const cert = auth.sslPeerCertificate;
  if (!cert || !cert.subject) return null;
  const subject = cert.subject as unknown as Record<string, string | string[] | undefined>;
  const cn = attribute(subject.CN)[0] ?? "";
  const ous = attribute(subject.OU);
  const role = CERT_ROLES.find((r) => ous.includes(r)) ?? null;
  const match = /^node-(\d{1,15})$/.exec(cn);
  const nodeId = role === "node" && match ? Number(match[1]) : null;
  const sans = altNames((cert as { subjectaltname?: string }).subjectaltname ?? "");
  return {
    role,
    nodeId,
    subject: `CN=${cn},OU=${ous.join("+")}`,
    cn,
    dns: sans.filter((n) => n.startsWith("DNS:")).map((n) => n.slice(4)),
    uri: sans.filter((n) => n.startsWith("URI:")).map((n) => n.slice(4)),
  };
}

/** "DNS:a, URI:b" as Node prints a certificate's subject alternative names. */
function altNames(text: string): string[] {
  return text === "" ? [] : text.split(", ").map((n) => n.trim());
}

export interface Refusal {
  readonly code: grpc.status;
  readonly details: string;
}

const LOCK_SERVICE = "/palisade.v1.LockService/";
const ADMIN_SERVICE = "/palisade.v1.AdminService/";
const RAFT_SERVICE = "/palisade.v1.RaftService/";
const HEALTH_SERVICE = "/grpc.health.v1.Health/";

/**
 * Whether a caller may call `path` at all: LockService and AdminService take client and
 * admin certificates (each AdminService call then needs its rights), RaftService node
 * certificates (the sender check happens per batch), health checks any certificate of the
 * cluster CA.
 */
export function accessRefusal(path: string, who: PeerIdentity | null): Refusal | null {
  if (who === null)
    return {
      code: grpc.status.UNAUTHENTICATED,
      details: "a client certificate signed by the cluster CA is required",
    };
  const allowed = (roles: readonly CertRole[]): boolean =>
    who.role !== null && roles.includes(who.role);
  const refuse = (what: string): Refusal => ({
    code: grpc.status.PERMISSION_DENIED,
    details: `${what} requires ${what === "RaftService" ? "a node" : "a client or admin"} certificate; ${who.subject} has role ${who.role ?? "none"}`,
  });
  if (path.startsWith(HEALTH_SERVICE)) return null;
  if (path.startsWith(LOCK_SERVICE))
    return allowed(["client", "admin"]) ? null : refuse("LockService");
  // A client certificate may hold an admin token, or rights the policy gives: each
  // AdminService call checks the caller's rights itself.
  if (path.startsWith(ADMIN_SERVICE))
    return allowed(["client", "admin"]) ? null : refuse("AdminService");
  if (path.startsWith(RAFT_SERVICE)) return allowed(["node"]) ? null : refuse("RaftService");
  return { code: grpc.status.PERMISSION_DENIED, details: `no certificate role may call ${path}` };
}

/**
 * Whether a verified peer may send a batch claiming to come from `from`: only a node
 * certificate of a current member whose id is that sender.
 */
export function senderRefusal(
  who: PeerIdentity | null,
  from: number,
  isMember: (id: number) => boolean,
): string | null {
  if (who === null) return "a node certificate is required";
  if (who.role !== "node" || who.nodeId === null) return `${who.subject} is not a node certificate`;
  if (who.nodeId !== from) return `certificate of node ${who.nodeId} cannot send as node ${from}`;
  if (!isMember(who.nodeId)) return `node ${who.nodeId} is not a member of this cluster`;
  return null;
}
