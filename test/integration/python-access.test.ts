// The Python client (clients/python) under an access policy on a real three-node cluster:
// this side creates a bearer token for each of two teams and applies a policy granting each
// its own prefix, with raw AdminService calls as the anonymous caller of a cluster without
// TLS (everything is allowed before a policy exists); then each test of
// clients/python/tests/cluster/test_access.py runs in its own Python process with its
// team's bearer token, and team-b's process hands its session id to team-a's.
import * as grpc from "@grpc/grpc-js";
import { describe, expect, it } from "vitest";
import { palisade } from "../../proto/gen/palisade.js";
import { adminServiceDefinition, type UnaryMethod } from "../../proto/grpc.ts";
import { clusterForTests, type Cluster } from "./harness.ts";
import { runPythonTest, type ControlHandler, type PythonRun } from "./python-process.ts";

const pb = palisade.v1;

const POLICY = `
roles:
  a-rw:
    grants:
      - prefix: a/
        actions: [acquire, read]
  b-rw:
    grants:
      - prefix: b/
        actions: [acquire, read]
identities:
  team-a: { roles: [a-rw] }
  team-b: { roles: [b-rw] }
`;

let cluster: Cluster;
const tokens = { a: "", b: "" };

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/**
 * One AdminService call with no credentials (anonymous), to the leader: an UNAVAILABLE
 * answer is followed to the node it names in `palisade-leader`, or the next endpoint.
 */
async function adminCall<Req, Res>(method: UnaryMethod<Req, Res>, request: Req): Promise<Res> {
  let endpoint = cluster.endpoints[0] ?? "";
  let last: grpc.ServiceError | undefined;
  for (let attempt = 0; attempt < 40; attempt++) {
    const client = new grpc.Client(endpoint, grpc.credentials.createInsecure());
    const answer = await new Promise<{ res?: Res; err?: grpc.ServiceError }>((done) =>
      client.makeUnaryRequest(
        method.path,
        method.requestSerialize,
        method.responseDeserialize,
        request,
        new grpc.Metadata(),
        { deadline: Date.now() + 3_000 },
        (err, res) => done(err ? { err } : { res }),
      ),
    ).finally(() => client.close());
    if (answer.res !== undefined) return answer.res;
    last = answer.err;
    if (last?.code !== grpc.status.UNAVAILABLE && last?.code !== grpc.status.DEADLINE_EXCEEDED)
      break;
    const hint = last.metadata.get("palisade-leader")[0];
    const next = cluster.endpoints[(cluster.endpoints.indexOf(endpoint) + 1) % 3] ?? endpoint;
    endpoint = typeof hint === "string" && hint !== "" ? hint : next;
    await sleep(100);
  }
  throw new Error(`${method.path}: ${last?.code} ${last?.details}`);
}

clusterForTests({ nodes: 3 }, async (started) => {
  cluster = started;
  for (const team of ["a", "b"] as const) {
    const created = await adminCall(
      adminServiceDefinition.CreateToken,
      pb.CreateTokenRequest.create({ identity: `team-${team}` }),
    );
    tokens[team] = created.secret;
  }
  const applied = await adminCall(
    adminServiceDefinition.ApplyPolicy,
    pb.ApplyPolicyRequest.create({ text: POLICY }),
  );
  expect(Number(applied.version)).toBeGreaterThan(0);
});

function run(
  method: string,
  token: string,
  handlers: Readonly<Record<string, ControlHandler>>,
  signal: AbortSignal,
): Promise<PythonRun> {
  const env: Record<string, string> = { PALISADE_ENDPOINTS: cluster.endpoints.join(",") };
  if (token !== "") env.PALISADE_AUTH_TOKEN = token;
  return runPythonTest(`tests.cluster.test_access.AccessTest.${method}`, env, handlers, signal);
}

/** Fails with the run's report unless its one test ran and passed. */
function expectPassed(name: string, result: PythonRun): void {
  const report = `python ${name}: exit ${result.code ?? result.signal}\n${result.stderr}\ncontrol:\n${result.requests.join("\n")}\nstdout:\n${result.stdout}`;
  expect(result.code, report).toBe(0);
  expect(result.stderr, report).toMatch(/^Ran 1 test in /m);
  expect(result.stderr, report).toMatch(/^OK$/m);
}

describe("Python client under an access policy", () => {
  it("a team's bearer token acquires on its own prefix only, and another team's session is refused to it", async ({
    signal,
  }) => {
    let heldBy!: (id: string) => void;
    let notHeld!: (err: Error) => void;
    const holder = new Promise<string>((resolve, reject) => {
      heldBy = resolve;
      notHeld = reject;
    });
    let aFinished!: () => void;
    const aDone = new Promise<void>((resolve) => (aFinished = resolve));

    const b = run(
      "test_team_b_holds_a_lock_on_its_prefix_while_team_a_is_refused_its_session",
      tokens.b,
      {
        // Answered once team-a's process has finished: team-b keeps its session until then.
        async holding([id]) {
          if (!id) throw new Error("holding needs a session id");
          heldBy(id);
          await aDone;
          return [];
        },
      },
      signal,
    );
    const bEnded = (): void => notHeld(new Error("team-b's process ended before it held its lock"));
    b.then(bEnded, bEnded);
    holder.catch(() => undefined);
    let aRun: PythonRun;
    try {
      aRun = await run(
        "test_team_a_acquires_on_its_prefix_only_and_team_b_s_session_is_refused_to_it",
        tokens.a,
        { holder: async () => [await holder] },
        signal,
      );
    } finally {
      aFinished();
    }
    const bRun = await b;
    expectPassed("team-a", aRun);
    expectPassed("team-b", bRun);
  });

  it("without a bearer token, OpenSession is refused once a policy exists", async ({ signal }) => {
    const result = await run("test_without_a_bearer_token_open_session_is_refused", "", {}, signal);
    expectPassed("anonymous", result);
  });
});
