// The state machine of the Raft-level runs: it remembers the payloads it applied.
import type { Entry, Snapshot } from "../../node/raft/types.ts";
import type { Applier } from "../../node/server/driver.ts";

export class PayloadLog implements Applier<string> {
  applied: string[] = [];
  apply(entry: Entry): string {
    const p = new TextDecoder().decode(entry.data);
    if (entry.kind === "normal") this.applied.push(p);
    return p;
  }
  restore(_s: Snapshot): void {
    throw new Error("the Raft-level runs take no snapshots");
  }
}
