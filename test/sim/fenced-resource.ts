// A simulated fenced resource: a read-modify-write counter per key. An access (read or
// write) is admitted only if its token is not lower than the highest token admitted for
// that key, and admitting it raises the fence, in one step with the effect. A read under a
// shared grant follows the shared-mode rule: admitted if its token is not lower than the
// highest token of an exclusive access, raising only the highest token of any mode (so
// readers never refuse one another, and a writer paused past later readers is refused).

export interface FenceAccess {
  readonly key: string;
  readonly token: bigint;
  readonly session: bigint;
}

interface KeyState {
  highest: bigint;
  /** Session of the grant whose token is `highest`: equal tokens must come from one grant. */
  highestSession: bigint;
  /** The highest token of an exclusive access, and its session. */
  highestExclusive: bigint;
  highestExclusiveSession: bigint;
  value: number;
  admittedWrites: number;
}

export class FencedResource {
  private readonly keys = new Map<string, KeyState>();
  readonly violations: string[] = [];
  refusals = 0;
  admitted = 0;
  /** Reads admitted and refused under shared grants. */
  sharedReads = 0;
  sharedRefusals = 0;

  private state(key: string): KeyState {
    let s = this.keys.get(key);
    if (!s)
      this.keys.set(
        key,
        (s = {
          highest: 0n,
          highestSession: 0n,
          highestExclusive: 0n,
          highestExclusiveSession: 0n,
          value: 0,
          admittedWrites: 0,
        }),
      );
    return s;
  }

  /** The fence: admits and records the token, or refuses it. */
  private admit(s: KeyState, a: FenceAccess): boolean {
    if (a.token < s.highest) {
      this.refusals++;
      return false;
    }
    if (a.token === s.highest && a.session !== s.highestSession) {
      this.violations.push(
        `resource ${a.key}: token ${a.token} admitted for sessions ${s.highestSession} and ${a.session}`,
      );
    }
    s.highest = a.token;
    s.highestSession = a.session;
    s.highestExclusive = a.token;
    s.highestExclusiveSession = a.session;
    this.admitted++;
    return true;
  }

  /**
   * A fenced read under a shared grant: the counter, or null when refused. Shared grants
   * of one entry share a token across sessions; an exclusive grant's token is its own.
   */
  readShared(a: FenceAccess): number | null {
    const s = this.state(a.key);
    if (a.token < s.highestExclusive) {
      this.refusals++;
      this.sharedRefusals++;
      return null;
    }
    if (
      a.token === s.highestExclusive &&
      s.highestExclusive > 0n &&
      a.session !== s.highestExclusiveSession
    ) {
      this.violations.push(
        `resource ${a.key}: shared token ${a.token} of session ${a.session} equals the exclusive token of session ${s.highestExclusiveSession}`,
      );
    }
    if (a.token > s.highest) {
      s.highest = a.token;
      s.highestSession = a.session;
    }
    this.admitted++;
    this.sharedReads++;
    return s.value;
  }

  /** A fenced read: the counter, or null when refused. */
  read(a: FenceAccess): number | null {
    const s = this.state(a.key);
    return this.admit(s, a) ? s.value : null;
  }

  /**
   * A fenced write of `readValue + 1`, where readValue is what this grant read. Returns
   * whether it was admitted. An admitted write based on a stale read would lose an update.
   */
  increment(a: FenceAccess, readValue: number): boolean {
    const s = this.state(a.key);
    if (!this.admit(s, a)) return false;
    if (readValue !== s.value) {
      this.violations.push(
        `resource ${a.key}: write under token ${a.token} based on value ${readValue} overwrote ${s.value} (lost update)`,
      );
    }
    s.value = readValue + 1;
    s.admittedWrites++;
    return true;
  }

  highest(key: string): bigint {
    return this.keys.get(key)?.highest ?? 0n;
  }

  value(key: string): number {
    return this.keys.get(key)?.value ?? 0;
  }

  /** End-of-run check: each counter equals its admitted increments, and at least the acknowledged ones. */
  finalCheck(acknowledged: ReadonlyMap<string, number>): string[] {
    const out = [...this.violations];
    for (const [key, s] of this.keys) {
      if (s.value !== s.admittedWrites)
        out.push(`resource ${key}: counter ${s.value} but ${s.admittedWrites} admitted increments`);
      const acked = acknowledged.get(key) ?? 0;
      if (s.value < acked)
        out.push(`resource ${key}: counter ${s.value} below ${acked} acknowledged increments`);
    }
    for (const [key, acked] of acknowledged) {
      if (!this.keys.has(key) && acked > 0)
        out.push(`resource ${key}: ${acked} acknowledged increments but no writes`);
    }
    return out;
  }
}
