// etcd's server-side Lock API (v3lockpb.Lock, what `etcdctl lock` uses) as a benchmark
// backend. The server runs the concurrency.Mutex recipe: it puts a key under the lock's
// prefix with the session's lease and waits until that key has the lowest create revision,
// so waiters queue in order and one Lock call blocks until the lock is held.
//   session : one lease per worker, kept alive by the etcd3 client.
//   acquire : Lock(name, lease), blocking.   release : Unlock(key).
//   fencing : the Lock response's header revision (the owner key's create revision).
// The etcd3 client has no Lock service, so its two calls are made here with grpc-js and
// message types built from their definition.
// At the end of a run the waiters leave by their leases being revoked, not by their Lock
// calls being cancelled: many Lock calls on one lock cancelled at once can leave a member's
// lock service stuck for every later Lock (etcd-io/etcd#13336; here etcd 3.4 did so after
// 256 waiters were cancelled), which would spoil the cells after it. A Lock call then ends
// as the keys before it go; one that never does (etcd 3.4 loses a few of some hundreds of
// waiters on one lock) is left to the end of the process.
import * as grpc from "@grpc/grpc-js";
import { Etcd3, type Lease } from "etcd3";
import protobuf from "protobufjs";
import { hostPort, type Acquired, type BackendOptions, type LockBackend } from "./backend.ts";

// Field numbers as in etcd's v3lock.proto and rpc.proto (ResponseHeader).
const DEFINITION = `
syntax = "proto3";
package v3lockpb;
message ResponseHeader { uint64 cluster_id = 1; uint64 member_id = 2; int64 revision = 3; uint64 raft_term = 4; }
message LockRequest { bytes name = 1; int64 lease = 2; }
message LockResponse { ResponseHeader header = 1; bytes key = 2; }
message UnlockRequest { bytes key = 1; }
message UnlockResponse { ResponseHeader header = 1; }
`;
const types = protobuf.parse(DEFINITION, { keepCase: true }).root;
const LockRequest = types.lookupType("v3lockpb.LockRequest");
const LockResponse = types.lookupType("v3lockpb.LockResponse");
const UnlockRequest = types.lookupType("v3lockpb.UnlockRequest");
const UnlockResponse = types.lookupType("v3lockpb.UnlockResponse");

interface Decoded {
  header?: { revision?: string };
  key?: Buffer;
}

const encoder =
  (type: protobuf.Type) =>
  (value: Record<string, unknown>): Buffer =>
    Buffer.from(type.encode(type.fromObject(value)).finish());
const decoder =
  (type: protobuf.Type) =>
  (bytes: Buffer): Decoded =>
    type.toObject(type.decode(bytes), { longs: String, bytes: Buffer }) as Decoded;

export interface EtcdLockSession {
  lease: Lease;
  id: string;
  stub: grpc.Client;
}

export interface EtcdLockApi extends LockBackend<EtcdLockSession, Buffer> {
  /** The underlying etcd3 client. */
  etcd: Etcd3;
  closeSession(session: EtcdLockSession): Promise<void>;
  acquire(
    session: EtcdLockSession,
    lock: string,
    signal: AbortSignal,
  ): Promise<Acquired<Buffer> | null>;
}

export async function openEtcdLockApi(options: BackendOptions): Promise<EtcdLockApi> {
  const { endpoints } = options;
  const etcd = new Etcd3({ hosts: endpoints });
  const ttlS = Math.max(2, Math.ceil(options.ttlMs / 1000));
  const version = (await etcd.maintenance.status()).version;
  const stubs = endpoints.map((e) => {
    const { host, port } = hostPort(e);
    return new grpc.Client(`${host}:${port}`, grpc.credentials.createInsecure());
  });
  let next = 0;
  const sessions = new Set<EtcdLockSession>();
  let leaving = false;
  const call = <Res>(
    stub: grpc.Client,
    method: "Lock" | "Unlock",
    request: Record<string, unknown>,
    signal?: AbortSignal,
  ): Promise<Res> =>
    new Promise((resolve, reject) => {
      const [req, res] =
        method === "Lock" ? [LockRequest, LockResponse] : [UnlockRequest, UnlockResponse];
      const pending = stub.makeUnaryRequest(
        `/v3lockpb.Lock/${method}`,
        encoder(req),
        decoder(res),
        request,
        (err, value) => {
          if (err || value === undefined) reject(err ?? new Error(`${method}: no answer`));
          else resolve(value as Res);
        },
      );
      const cancel = (): void => {
        if (!leaving) pending.cancel();
      };
      if (signal?.aborted) cancel();
      else signal?.addEventListener("abort", cancel, { once: true });
    });
  return {
    etcd,
    info: {
      server_version: version,
      endpoints,
      lease_ttl_s: ttlS,
      wait: "server-side (blocking Lock RPC)",
      client: "grpc-js v3lockpb.Lock, etcd3 leases",
    },
    fencing:
      "revision returned by Lock (create_revision of owner key, monotonic); lease id per session",
    async session() {
      const lease = etcd.lease(ttlS);
      lease.on("lost", () => undefined);
      const id = await lease.grant();
      const session = { lease, id, stub: stubs[next++ % stubs.length]! };
      sessions.add(session);
      return session;
    },
    async closeSession(session) {
      sessions.delete(session);
      await session.lease.revoke().catch(() => undefined);
    },
    stopping() {
      leaving = true;
      for (const s of sessions) s.lease.revoke().catch(() => undefined);
    },
    async acquire(session, lock, signal) {
      try {
        const res = await call<Decoded>(
          session.stub,
          "Lock",
          { name: Buffer.from(lock), lease: session.id },
          signal,
        );
        // Granted as the waiters leave: the lease is gone, so the lock is not held.
        if (leaving) return null;
        return {
          handle: res.key ?? Buffer.alloc(0),
          fence: res.header?.revision ? BigInt(res.header.revision) : null,
        };
      } catch (err) {
        if (
          signal.aborted &&
          (leaving || (err as grpc.ServiceError).code === grpc.status.CANCELLED)
        )
          return null;
        throw err;
      }
    },
    async release(session, key) {
      await call<Decoded>(session.stub, "Unlock", { key });
    },
    async close() {
      for (const stub of stubs) stub.close();
      etcd.close();
    },
  };
}
