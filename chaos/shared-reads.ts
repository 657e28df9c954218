// The read-heavy task's checks: fenced reads of the counters under shared grants, against
// the store's admissions (in admission order per key) and the acknowledged increments.
// The shared-mode rule (README "Lock kinds") admits a read whose token is at least the
// highest exclusive token seen and raises only the highest token of any mode, so that a
// writer older than the read is refused afterwards. Its consequences, checked here:
//   - no admitted read under token T came after an exclusive access with a token above T
//     (a stale reader fenced off), nor shares an exclusive grant's token;
//   - the value it read was written (0, or the value of an admitted write before it) and
//     includes no increment written under an exclusive token above T;
//   - no increment under a token below T was admitted after it (the read missed an older
//     grant's write);
//   - it includes every increment acknowledged before its Acquire was sent, and what the
//     reader was answered is what the store admitted.
import type {
  AdmissionRecord,
  IncrementRecord,
  RefusalRecord,
  SharedReadRecord,
} from "./protocol.ts";

export interface SharedReadRecords {
  admissions: readonly AdmissionRecord[];
  refusals: readonly RefusalRecord[];
  increments: readonly IncrementRecord[];
  sharedReads: readonly SharedReadRecord[];
}

interface AdmittedRead {
  key: string;
  token: bigint;
  session: string;
  value: number;
  /** Its place in the key's admissions. */
  at: number;
}

/** How many of the first `n` indexes satisfy `holds`, which holds for a prefix of them (a binary search). */
function countWhile(n: number, holds: (i: number) => boolean): number {
  let lo = 0;
  let hi = n;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (holds(mid)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The store's side: the fence rule for shared reads and what each read's value includes. */
function checkAdmissions(
  r: SharedReadRecords,
  out: string[],
): { reads: AdmittedRead[]; exclusiveTokens: Map<string, Set<bigint>> } {
  const perKey = new Map<
    string,
    {
      exclusive?: { token: bigint; session: string };
      /** Per value written: the highest token among the writes it includes (its own and those it was based on). */
      includes: Map<number, bigint>;
      /** Admitted writes: token and place. */
      writes: { token: bigint; at: number; session: string }[];
      admitted: number;
    }
  >();
  const reads: AdmittedRead[] = [];
  const exclusiveTokens = new Map<string, Set<bigint>>();
  for (const a of r.admissions) {
    const token = BigInt(a.token);
    let s = perKey.get(a.key);
    if (!s) perKey.set(a.key, (s = { includes: new Map(), writes: [], admitted: 0 }));
    const at = s.admitted++;
    if (a.mode !== "shared") {
      if (!s.exclusive || token >= s.exclusive.token) s.exclusive = { token, session: a.session };
      if (!exclusiveTokens.has(a.key)) exclusiveTokens.set(a.key, new Set());
      exclusiveTokens.get(a.key)!.add(token);
      if (a.access === "write") {
        const below =
          a.basedOn === undefined || a.basedOn === 0 ? 0n : (s.includes.get(a.basedOn) ?? 0n);
        s.includes.set(a.value, token > below ? token : below);
        s.writes.push({ token, at, session: a.session });
      }
      continue;
    }
    const what = `store ${a.key}: shared read ${a.req} under token ${token} (session ${a.session})`;
    if (s.exclusive && token < s.exclusive.token) {
      out.push(
        `${what} admitted after exclusive token ${s.exclusive.token} (session ${s.exclusive.session}): a stale reader not fenced off`,
      );
    }
    if (s.exclusive && token === s.exclusive.token && a.session !== s.exclusive.session) {
      out.push(
        `${what} shares its token with the exclusive grant of session ${s.exclusive.session}`,
      );
    }
    if (!Number.isInteger(a.value) || a.value < 0 || (a.value !== 0 && !s.includes.has(a.value))) {
      out.push(`${what} read ${a.value}, a value no admitted write had made before it`);
    } else if (a.value !== 0 && (s.includes.get(a.value) ?? 0n) > token) {
      out.push(
        `${what} read ${a.value}, which includes an increment written under exclusive token ${s.includes.get(a.value)} above it`,
      );
    }
    reads.push({ key: a.key, token, session: a.session, value: a.value, at });
  }
  // An increment of an older grant admitted after a read: the read missed it. Per key, the
  // lowest token of the writes from each place on.
  const lowestFrom = new Map<string, bigint[]>();
  for (const [key, s] of perKey) {
    const low: bigint[] = new Array<bigint>(s.writes.length);
    for (let i = s.writes.length - 1; i >= 0; i--) {
      const t = s.writes[i]!.token;
      low[i] = i + 1 < s.writes.length && low[i + 1]! < t ? low[i + 1]! : t;
    }
    lowestFrom.set(key, low);
  }
  for (const read of reads) {
    const writes = perKey.get(read.key)!.writes;
    const first = countWhile(writes.length, (i) => writes[i]!.at < read.at); // the first write admitted after the read
    if (first === writes.length || lowestFrom.get(read.key)![first]! >= read.token) continue;
    const late = writes.slice(first).find((w) => w.token < read.token)!;
    out.push(
      `store ${read.key}: increment under exclusive token ${late.token} (session ${late.session}) admitted after the shared read ` +
        `under the higher token ${read.token} (session ${read.session}), which read ${read.value} without it: an older writer not fenced off`,
    );
  }
  return { reads, exclusiveTokens };
}

/** The readers' side: their answers against the store's log, and against the increments acknowledged before they asked. */
function checkReaders(r: SharedReadRecords, out: string[], counts: Record<string, number>): void {
  const admitted = new Map<string, AdmissionRecord>();
  for (const a of r.admissions) if (a.mode === "shared") admitted.set(a.req, a);
  const ackedAt = new Map<string, number[]>();
  for (const inc of r.increments) {
    if (inc.status !== 204 || inc.ret === undefined) continue;
    if (!ackedAt.has(inc.key)) ackedAt.set(inc.key, []);
    ackedAt.get(inc.key)!.push(inc.ret);
  }
  for (const times of ackedAt.values()) times.sort((a, b) => a - b);
  let checked = 0;
  for (const read of r.sharedReads) {
    if (read.status !== 200 || read.value === undefined) continue;
    const what = `shared read ${read.req} of ${read.key} under token ${read.token} (session ${read.session})`;
    const a = admitted.get(read.req);
    if (!a) out.push(`${what}: answered ${read.value}, not in the store's log`);
    else if (a.value !== read.value || a.token !== read.token)
      out.push(
        `${what}: answered ${read.value}, the store admitted ${a.value} under token ${a.token}`,
      );
    const times = ackedAt.get(read.key) ?? [];
    const before = countWhile(times.length, (i) => times[i]! < read.acquireCall);
    checked++;
    if (read.value < before) {
      out.push(
        `${what}: read ${read.value}, below the ${before} increments acknowledged before its Acquire was sent at ${read.acquireCall}`,
      );
    }
  }
  counts["shared reads checked against acknowledged increments"] = checked;
}

export function checkSharedReads(
  r: SharedReadRecords,
  out: string[],
  counts: Record<string, number>,
): void {
  const found: string[] = [];
  const { reads, exclusiveTokens } = checkAdmissions(r, found);
  // A refusal must name an exclusive token the store had admitted for that key.
  let fencedOff = 0;
  for (const x of r.refusals) {
    if (x.mode !== "shared") continue;
    fencedOff++;
    const highest = BigInt(x.highest);
    if (BigInt(x.token) >= highest || !(exclusiveTokens.get(x.key)?.has(highest) ?? false)) {
      found.push(
        `store ${x.key}: shared read under token ${x.token} (session ${x.session}) refused for exclusive token ${highest}, which is not above it or was never admitted`,
      );
    }
  }
  checkReaders(r, found, counts);
  counts["shared reads admitted"] = reads.length;
  counts["shared reads fenced off (stale tokens)"] = fencedOff;
  counts["shared read violations"] = found.length;
  out.push(...found);
}
