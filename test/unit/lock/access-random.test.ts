// Random logs with identities (random-access.ts): two tenants, anonymous callers and a
// token, a policy with quotas from a random entry on, calls on other identities' sessions.
// Each entry is checked as it applies: such a call changes nothing, no quota use grows past
// its quota, and every identity's use equals a recount from the state.
import { describe, expect, it } from "vitest";
import { randomLog } from "./random-log.ts";
import type { AccessStats } from "./random-access.ts";

describe("random logs with identities, a policy and quotas", () => {
  it("keep every access rule at every entry", () => {
    const total: AccessStats = { foreign: 0, unauthenticated: 0, denied: 0, quotas: {} };
    for (let seed = 1; seed <= 30; seed++) {
      const { access } = randomLog(seed, 500, undefined, { upgrades: true, access: true });
      const stats = access?.stats as AccessStats;
      total.foreign += stats.foreign;
      total.unauthenticated += stats.unauthenticated;
      total.denied += stats.denied;
      for (const [k, v] of Object.entries(stats.quotas))
        total.quotas[k] = (total.quotas[k] ?? 0) + v;
    }
    // The runs reached every case the checks are about.
    expect(total.foreign).toBeGreaterThan(100);
    expect(total.unauthenticated).toBeGreaterThan(10);
    expect(total.denied).toBeGreaterThan(total.foreign);
    for (const quota of ["sessions", "heldLocks", "waits", "holderDataBytes"])
      expect(total.quotas[quota], quota).toBeGreaterThan(10);
  });
});
