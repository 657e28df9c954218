// Puts a benchmark cluster under the access policy of bench/auth-policy.ts (1,000 prefixes)
// and makes a bearer token for the identity the throughput harness runs as:
//   node dist/bench/auth-setup.js ENDPOINTS DIR
// The cluster is open when this starts (no TLS, no policy), so the anonymous caller may make
// admin calls: it creates the tokens first (one for the harness, one admin), then applies
// the policy, after which it may do nothing. The harness's token goes to DIR/token. It prints
// the policy's version, how long ApplyPolicy took, and the leader's term before and 3 s
// after: every node parses the policy as it applies it, and a term that moved would mean
// that stalled the cluster into an election.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import * as grpc from "@grpc/grpc-js";
import { adminServiceDefinition } from "../proto/grpc.ts";
import { palisade } from "../proto/gen/palisade.js";
import { toU64, u64ToNumber } from "../proto/wire.ts";
import { benchPolicyText, BENCH_IDENTITY } from "./auth-policy.ts";

const pb = palisade.v1;
const TIMEOUT_MS = 30_000;

type Method = (typeof adminServiceDefinition)[keyof typeof adminServiceDefinition];

/** One unary admin call to one node, as the bearer of `token` when one is given. */
function call<Res>(
  client: grpc.Client,
  method: Method,
  request: unknown,
  token?: string,
): Promise<Res> {
  const metadata = new grpc.Metadata();
  if (token !== undefined) metadata.set("authorization", `Bearer ${token}`);
  return new Promise((resolve, reject) => {
    client.makeUnaryRequest(
      method.path,
      method.requestSerialize as (value: unknown) => Buffer,
      method.responseDeserialize as (bytes: Buffer) => Res,
      request,
      metadata,
      { deadline: Date.now() + 5_000 },
      (err, res) =>
        err || res === undefined ? reject(err ?? new Error("no answer")) : resolve(res),
    );
  });
}

/** The call on whichever node answers it (the leader, for a write), retried until TIMEOUT_MS. */
async function onCluster<Res>(
  clients: grpc.Client[],
  method: Method,
  request: unknown,
): Promise<Res> {
  const giveUpAt = Date.now() + TIMEOUT_MS;
  let last: unknown = null;
  while (Date.now() < giveUpAt) {
    for (const client of clients) {
      try {
        return await call<Res>(client, method, request);
      } catch (error) {
        last = error;
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${method.path} failed everywhere: ${String((last as Error)?.message ?? last)}`);
}

/** The highest term any node reports (0 from a node that does not answer). */
async function term(clients: grpc.Client[], token?: string): Promise<number> {
  const status = (c: grpc.Client): Promise<number> =>
    call<palisade.v1.StatusResponse>(c, adminServiceDefinition.Status, {}, token).then(
      (s) => u64ToNumber(s.term),
      () => 0,
    );
  return Math.max(...(await Promise.all(clients.map(status))));
}

function tokenFor(identity: string, roles: string[]): palisade.v1.CreateTokenRequest {
  return pb.CreateTokenRequest.create({ identity, roles, ttlMs: toU64(0) });
}

async function main(endpoints: string[], dir: string): Promise<void> {
  const clients = endpoints.map((e) => new grpc.Client(e, grpc.credentials.createInsecure()));
  try {
    const create = adminServiceDefinition.CreateToken;
    type Created = palisade.v1.CreateTokenResponse;
    const token = await onCluster<Created>(clients, create, tokenFor(BENCH_IDENTITY, []));
    const admin = await onCluster<Created>(clients, create, tokenFor("bench-admin", ["admin"]));
    writeFileSync(join(dir, "token"), `${token.secret}\n`, { mode: 0o600 });
    const termBefore = await term(clients);
    const t0 = performance.now();
    const applied = await onCluster<palisade.v1.ApplyPolicyResponse>(
      clients,
      adminServiceDefinition.ApplyPolicy,
      pb.ApplyPolicyRequest.create({ text: benchPolicyText() }),
    );
    const applyMs = performance.now() - t0;
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const termAfter = await term(clients, admin.secret);
    process.stdout.write(
      `policy of 1,000 prefixes applied at index ${u64ToNumber(applied.version)} in ${applyMs.toFixed(0)} ms; ` +
        `leader's term ${termBefore} before, ${termAfter} 3 s after; ` +
        `token ${token.tokenId} for identity ${BENCH_IDENTITY}\n`,
    );
  } finally {
    for (const client of clients) client.close();
  }
}

const [endpointList, dir] = process.argv.slice(2);
if (!endpointList || !dir) {
  process.stderr.write("usage: node dist/bench/auth-setup.js E1,E2,E3 DIR\n");
  process.exit(2);
}
main(endpointList.split(","), dir).catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
