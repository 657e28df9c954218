// One election client in a process of its own, for the election failover part: a candidate
// campaigns for ELECTION with VALUE and, once elected, holds the lead until it is killed or
// told on stdin to resign; an observer reports every leader it sees. Palisade: one client
// (session TTL TTL_MS, its `sessionTtlMs`), `client.elections.campaign` / `observe`. etcd:
// the etcd3 client's election (`client.election(name, ttl).campaign` / `observe`, a lease
// of TTL_MS / 1000 s). One JSON line per report on stdout, times on the host's monotonic
// clock (process.hrtime, the same in every process):
//   {"event":"ready","at_ns":"…","session":"…"}  candidate: campaign sent (Palisade: the session id a
//                                                leader can hand over to; etcd: the campaign's key)
//   {"event":"elected","at_ns":"…","token":"…","value":"…"}  candidate: the campaign resolved
//   {"event":"resigning","at_ns":"…"}            candidate: just before the resign call
//   {"event":"resigned","at_ns":"…"}             candidate: the resign call returned
//   {"event":"leader","at_ns":"…","token":"…","value":"…"}  observer: a new leader (etcd: no token)
//   {"event":"error","message":"…"}
// stdin, one command a line: "resign" or "resign SESSION_ID" (Palisade: hand over to that
// waiting candidate).
//   node dist/bench/election-proc.js palisade|etcd candidate|observer ENDPOINTS TTL_MS ELECTION VALUE
// It stays until it is killed.
import { createInterface } from "node:readline";
import { Etcd3 } from "etcd3";
import { PalisadeClient } from "../client/index.ts";

type Role = "candidate" | "observer";

const report = (event: string, extra: Record<string, string> = {}): void => {
  process.stdout.write(
    JSON.stringify({ event, at_ns: process.hrtime.bigint().toString(), ...extra }) + "\n",
  );
};

/** Calls `onResign(to)` for each "resign [SESSION_ID]" line on stdin. */
function onStdinResign(onResign: (to: string | undefined) => Promise<void>): void {
  createInterface({ input: process.stdin }).on("line", (line) => {
    const [verb, to] = line.trim().split(/\s+/);
    if (verb !== "resign") return;
    onResign(to).catch(fail);
  });
}

async function palisade(
  role: Role,
  endpoints: string[],
  ttlMs: number,
  election: string,
  value: string,
): Promise<void> {
  const client = new PalisadeClient({
    endpoints,
    clientName: `bench-${role}-${value}`,
    sessionTtlMs: ttlMs,
    retryBudgetMs: 120_000,
  });
  if (role === "observer") {
    for await (const change of client.elections.observe(election)) {
      if (change.kind === "leader")
        report("leader", { token: change.leader.token.toString(), value: change.leader.value });
    }
    return;
  }
  const session = await client.elections.sessionId();
  const leading = client.elections.campaign(election, value);
  report("ready", { session: session.toString() });
  const lead = await leading;
  report("elected", { token: lead.token.toString(), value });
  onStdinResign(async (to) => {
    report("resigning");
    await lead.resign(to !== undefined ? { to: BigInt(to) } : {});
    report("resigned");
  });
}

async function etcd(
  role: Role,
  endpoints: string[],
  ttlMs: number,
  election: string,
  value: string,
): Promise<void> {
  const client = new Etcd3({ hosts: endpoints });
  const ttlS = Math.max(1, Math.round(ttlMs / 1000));
  const named = client.election(election, ttlS);
  if (role === "observer") {
    const observer = await named.observe();
    observer.on("error", fail);
    observer.on("change", (leader: string | undefined) => {
      if (leader !== undefined) report("leader", { value: leader });
    });
    const now = observer.leader();
    if (now !== undefined) report("leader", { value: now });
    return;
  }
  const campaign = named.campaign(value);
  const elected = campaign.wait();
  report("ready", { session: await campaign.getCampaignKey() });
  await elected;
  report("elected", { value });
  onStdinResign(async () => {
    report("resigning");
    await campaign.resign();
    report("resigned");
  });
}

function fail(e: unknown): void {
  process.stdout.write(
    JSON.stringify({ event: "error", message: e instanceof Error ? e.message : String(e) }) + "\n",
  );
  process.exit(1);
}

async function main(argv: string[]): Promise<void> {
  const [system, role, endpointList, ttl, election, value] = argv;
  const ttlMs = Number(ttl);
  if (
    (system !== "palisade" && system !== "etcd") ||
    (role !== "candidate" && role !== "observer") ||
    !endpointList ||
    !Number.isFinite(ttlMs) ||
    !election ||
    !value
  ) {
    throw new Error(
      "usage: election-proc.js palisade|etcd candidate|observer ENDPOINTS TTL_MS ELECTION VALUE",
    );
  }
  const endpoints = endpointList.split(",");
  // Keep the session (and its keepalives) going until killed.
  setInterval(() => undefined, 60_000);
  if (system === "palisade") await palisade(role, endpoints, ttlMs, election, value);
  else await etcd(role, endpoints, ttlMs, election, value);
}

main(process.argv.slice(2)).catch(fail);
